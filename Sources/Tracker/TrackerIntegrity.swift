import Foundation
import PhotoLibrary

/// Referential integrity between projects, miniatures, recipes and photos (requirement 9.3),
/// checked on every load. Pure: the records in, the records repaired and the findings out.
///
/// Links that only point (a miniature's `recipe_ids`, its `photo_ids`) are repaired — a
/// dangling recipe link dropped, the photo list made to match the photos' `mini_id`s — and
/// said. Records whose owner is missing (a miniature without its project, a photo without its
/// miniature) and photos whose `file` is not a tracker photo path are said, never dropped on
/// their own: that would delete the user's data behind their back; their finding's remedy (a
/// removal) removes them.
package enum TrackerIntegrity {
    /// The folder of the copied photos, relative to the library.
    package static let photosFolder = LibraryLayout.trackerFolder + "/photos"

    package struct Result: Sendable {
        package var data: TrackerData
        /// One per finding, for stderr and `doctor`.
        package var problems: [TrackerFinding]
        /// Whether `data` differs from what was read (the next save writes the repair).
        package var repaired: Bool
    }

    package static func check(_ input: TrackerData) -> Result {
        var d = input
        var problems: [TrackerFinding] = []
        let projects = Set(d.projects.map(\.id)), recipes = Set(d.recipes.map(\.id)), minis = Set(d.miniatures.map(\.id))
        for m in d.miniatures where !projects.contains(m.project_id) {
            problems.append(TrackerFinding("the miniature \(m.id) (\(m.name)) belongs to the project \(m.project_id), which is not in the tracker",
                                           remedy: .removeMini(id: m.id)))
        }
        for p in d.photos where !minis.contains(p.mini_id) {
            problems.append(TrackerFinding("the photo \(p.id) belongs to the miniature \(p.mini_id), which is not in the tracker",
                                           remedy: .removePhoto(id: p.id)))
        }
        for p in d.photos where !isPhotoFile(p.file) {
            problems.append(TrackerFinding("the photo \(p.id) names the file \(String(reflecting: String(p.file.prefix(200)))), which is not under \(photosFolder)/; it is never opened",
                                           remedy: .removePhotoRecord(id: p.id)))
        }
        for i in d.miniatures.indices {
            let m = d.miniatures[i]
            var seen = Set<String>()
            let links = m.recipe_ids.filter { recipes.contains($0) && seen.insert($0).inserted }
            if links != m.recipe_ids {
                problems.append(TrackerFinding("the miniature \(m.id) linked recipes that are not in the tracker (or twice); the links were dropped"))
                d.miniatures[i].recipe_ids = links
            }
            let photos = d.photos.filter { $0.mini_id == m.id }.map(\.id)
            if photos != m.photo_ids {
                problems.append(TrackerFinding("the miniature \(m.id) listed photos other than those that belong to it; its list was rebuilt from the photos"))
                d.miniatures[i].photo_ids = photos
            }
        }
        return Result(data: d, problems: problems, repaired: d != input)
    }

    /// Whether `file` is where the tracker keeps photos: `Tracker/photos/NAME`, one plain name
    /// (not hidden), a valid path inside the library. Checked before any use of a stored path.
    package static func isPhotoFile(_ file: String) -> Bool {
        guard LibraryPath.isValid(file), file.hasPrefix(photosFolder + "/") else { return false }
        let name = file.dropFirst(photosFolder.count + 1)
        return !name.isEmpty && !name.contains("/") && !name.hasPrefix(".")
    }

    /// Whether `name` (in `Tracker/photos/`) is one the tracker gives its copies: `<uuid>.<ext>`.
    static func isTrackerPhotoName(_ name: String) -> Bool {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 2 && ["jpg", "png", "heic"].contains(parts[1]) && UUID(uuidString: String(parts[0])) != nil
            && parts[0] == parts[0].lowercased()
    }
}
