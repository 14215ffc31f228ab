import Foundation
import PhotoLibrary

/// `doctor`'s tracker findings (the CLI adds them to the core's report): the tracker file reads,
/// its references hold (requirement 9.3), every photo record has its file, and no copy is left
/// that no record names. Reads `Tracker/` only; changes nothing. None when there is no tracker.
extension Tracker {
    /// What the tracker adds to a library session: its doctor findings.
    public static let feature = LibraryFeature(name: "tracker", doctorChecks: [TrackerDoctor()])
}

public struct TrackerDoctor: DoctorCheck {
    public init() {}

    public func findings(_ context: DoctorContext) throws -> [DoctorReport.Check] { Self.findings(context.library) }

    public static func findings(_ library: Library) -> [DoctorReport.Check] {
        let name = "tracker"
        guard ((try? library.files.lstat(LibraryLayout.trackerFolder)) ?? nil) != nil else { return [] }
        let loaded: TrackerStore.Loaded
        do { loaded = try TrackerStore(library: library).load() } catch {
            return [.init(name: name, status: .problem, detail: String(describing: error), fix: nil)]
        }
        var out: [DoctorReport.Check] = []
        let d = loaded.data
        if loaded.problems.isEmpty {
            out.append(.init(name: name, status: .ok, detail: "\(d.projects.count) projects, \(d.miniatures.count) miniatures, \(d.recipes.count) recipes, \(d.photos.count) photos; every reference holds", fix: nil))
        } else {
            out.append(.init(name: name, status: .problem, detail: "\(loaded.problems.count) finding(s) in \(TrackerStore.path): " + loaded.problems.prefix(3).joined(separator: "; "), fix: nil))
        }
        let named = Set(d.photos.map(\.file))
        var stray: [String] = []
        _ = try? library.files.forEachEntry(in: TrackerIntegrity.photosFolder) { entry, _ in
            guard let n = entry.name, TrackerIntegrity.isTrackerPhotoName(n), !named.contains(TrackerIntegrity.photosFolder + "/" + n) else { return }
            stray.append(n)
        }
        if !stray.isEmpty {
            out.append(.init(name: "tracker photos", status: .warning,
                             detail: "\(stray.count) cop\(stray.count == 1 ? "y" : "ies") in \(TrackerIntegrity.photosFolder)/ no record names (left by an interrupted change), e.g. \(stray[0])",
                             fix: "any tracker change deletes them (e.g. `shoebox tracker project update ID --name NAME`)"))
        }
        return out
    }
}
