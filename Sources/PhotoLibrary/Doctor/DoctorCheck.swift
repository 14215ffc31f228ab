import Foundation

/// One of `shoebox doctor`'s checks. Each subsystem provides its own, in a `*Checks.swift` file
/// of its folder (`IndexChecks`, `AlbumChecks`, …), and each feature module its own through its
/// `LibraryFeature.doctorChecks`; `LibrarySession.doctor()` runs the core's, then the features'.
/// A check reads only what costs no file content (stat, directory listings, the index), except
/// where it says otherwise, and changes nothing.
public protocol DoctorCheck: Sendable {
    /// Its findings, in the order `doctor` prints them: usually one; none when it does not apply.
    func findings(_ context: DoctorContext) throws -> [DoctorReport.Check]
}

/// What the checks look at, read once and shared: the library, its index, one walk of its files,
/// and whatever else a check computes for others (`shared`).
public final class DoctorContext {
    public let library: Library
    public let index: Index
    /// The files and folders of the library as the scanner sees them.
    let walked: LibraryWalker.Result
    private var memo: [ObjectIdentifier: Any] = [:]

    init(library: Library) throws {
        self.library = library
        index = try Index(library: library)
        // A damaged page that no check happens to read would otherwise pass unseen.
        try index.checkIntegrity()
        walked = try LibraryWalker(library: library).walk()
    }

    /// The command that brings the index up to date, as a fix to paste.
    var scanCommand: String { "shoebox --library \(shellQuote(library.root.path)) scan" }

    /// A value several checks use (one per type), made by the first that asks.
    func shared<T>(_ make: (DoctorContext) throws -> T) rethrows -> T {
        if let value = memo[ObjectIdentifier(T.self)] as? T { return value }
        let value = try make(self)
        memo[ObjectIdentifier(T.self)] = value
        return value
    }
}

extension DoctorReport.Check {
    public static func ok(_ name: String, _ detail: String) -> Self {
        .init(name: name, status: .ok, detail: detail, fix: nil)
    }

    public static func warning(_ name: String, _ detail: String, fix: String? = nil) -> Self {
        .init(name: name, status: .warning, detail: detail, fix: fix)
    }

    public static func problem(_ name: String, _ detail: String, fix: String? = nil) -> Self {
        .init(name: name, status: .problem, detail: detail, fix: fix)
    }
}

/// "a.jpg: reason; b.jpg: reason; c.jpg: reason": the first three problems, for a check's detail.
func sampleOfProblems(_ problems: [FileProblem]) -> String {
    problems.prefix(3).map { "\(displayPath($0.path)): \($0.reason)" }.joined(separator: "; ")
}
