import Foundation
import PhotoLibrary

/// `doctor`'s tracker findings (the CLI adds them to the core's report): the tracker file reads,
/// its references hold (requirement 9.3), every photo record has its file, and no copy is left
/// that no record names. Reads `Tracker/` only; changes nothing. None when there is no tracker.
extension Tracker {
    /// What the tracker adds to a library session: the deletion of what a killed tracker change
    /// left (before every change to the library) and its doctor findings.
    public static let feature = LibraryFeature(name: "tracker", recover: { locked in TrackerStore(library: locked.library).removeLeftovers() },
                                               doctorChecks: [TrackerDoctor()])
}

package struct TrackerDoctor: DoctorCheck {
    package init() {}

    package func findings(_ context: DoctorContext) throws -> [DoctorReport.Check] { Self.findings(context.library) }

    package static func findings(_ library: Library) -> [DoctorReport.Check] {
        let name = "tracker"
        guard ((try? library.files.lstat(LibraryLayout.trackerFolder)) ?? nil) != nil else { return [] }
        let loaded: TrackerStore.Loaded
        do { loaded = try TrackerStore(library: library).load() } catch {
            return [.init(name: name, status: .problem, detail: String(describing: error), fix: nil)]
        }
        var out: [DoctorReport.Check] = []
        let d = loaded.data
        if loaded.problems.isEmpty {
            out.append(.init(name: name, status: .ok, detail: "\(counted(d.projects.count, "project")), \(counted(d.miniatures.count, "miniature")), \(counted(d.recipes.count, "recipe")), \(counted(d.photos.count, "photo")); every reference holds", fix: nil))
        } else {
            out.append(.init(name: name, status: .problem, detail: "\(counted(loaded.problems.count, "finding")) in \(TrackerStore.path): " + loaded.problems.prefix(3).map(\.message).joined(separator: "; "), fix: nil))
        }
        let named = Set(d.photos.map(\.file))
        var stray: [String] = []
        _ = try? library.files.forEachEntry(in: TrackerIntegrity.photosFolder) { entry, _ in
            guard let n = entry.name, TrackerIntegrity.isTrackerPhotoName(n), !named.contains(TrackerIntegrity.photosFolder + "/" + n) else { return }
            stray.append(n)
        }
        if !stray.isEmpty {
            // The tracker's recovery runs before every change to the library: a scan is one.
            out.append(.init(name: "tracker photos", status: .warning,
                             detail: "\(stray.count) cop\(stray.count == 1 ? "y" : "ies") in \(TrackerIntegrity.photosFolder)/ no record names (left by an interrupted change), e.g. \(stray[0]); the next change to the library deletes them",
                             fix: nil, remedy: LibraryRemedy.scan))
        }
        return out
    }
}
