import PhotoLibrary

/// What a user can do about a memories error or note, as a value: each front end words it (the
/// CLI as the `shoebox …` command to run, in Sources/shoebox-pixels/Hints/MemoriesHints.swift; the web
/// app as a control). The module's messages never name a command.
public enum MemoriesRemedy: Remedy, Equatable {
    /// See the years a memory can be of.
    case listYears
    /// See the places a memory can be of.
    case listPlaces
    /// See the people a memory can be of (the analysis finds their faces).
    case listPeople
    /// Analyse the library: it scores the photos the collage prefers.
    case analyzeForScores
}

/// What a collage had to give up on the way, as a value (the collage is made all the same).
/// `description` says it without naming a command; `remedy` is what a user can do about it.
public enum CollageNote: Sendable, Equatable, CustomStringConvertible {
    /// Only `count` photos of `subject` score above `threshold`: lower-scored ones fill the collage.
    case fewScored(count: Int, subject: String, threshold: Double)
    /// Only `count` photos show `subject`'s face larger than `minFaceArea` of the frame.
    case smallFaces(count: Int, subject: String, minFaceArea: Double)
    /// The photo at `path` could not be used (`problem`); a spare took its place.
    case replaced(path: String, problem: ShoeboxError)

    public var description: String {
        func photos(_ n: Int) -> String { "\(n) photo\(n == 1 ? "" : "s")" }
        switch self {
        case .fewScored(let n, let subject, let threshold):
            return "only \(photos(n)) of \(subject) score\(n == 1 ? "s" : "") above \(threshold): lower-scored ones fill the collage"
        case .smallFaces(let n, let subject, let area):
            return "only \(photos(n)) show \(subject)'s face larger than \(Int(area * 100)) % of the frame: smaller faces fill the collage"
        case .replaced(let path, let problem):
            return "\(path) could not be used (\(problem)); a spare took its place"
        }
    }

    public var remedy: (any Remedy)? {
        switch self {
        case .fewScored: MemoriesRemedy.analyzeForScores
        case .smallFaces: nil
        case .replaced(_, let problem): problem.remedy
        }
    }

    public static func == (a: CollageNote, b: CollageNote) -> Bool {
        switch (a, b) {
        case let (.fewScored(n, s, t), .fewScored(m, r, u)): n == m && s == r && t == u
        case let (.smallFaces(n, s, f), .smallFaces(m, r, g)): n == m && s == r && f == g
        case let (.replaced(p, e), .replaced(q, f)): p == q && e.code == f.code && e.description == f.description
        default: false
        }
    }
}
