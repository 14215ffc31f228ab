import Foundation
import PhotoLibrary

/// One file a share gives without a folder to put it in (the web app's share sheet or
/// download): the original of a selected photo, or its companion, under the name it goes by.
public struct CurationSharedFile: Sendable {
    public var asset: Asset
    /// Unique within the share (case aside): "IMG_0412.HEIC", a second one "IMG_0412 (2).HEIC";
    /// a companion keeps its photo's stem.
    public var name: String
    /// A Live Photo's movie or a RAW+JPEG shot's raw file, right after its photo.
    public var isCompanion: Bool
}

extension Curation {
    /// The selected originals as `curate share` would name them in an empty folder, in rank
    /// order, each companion right after its photo — for a front end that hands the files over
    /// itself (the browser's share sheet, a download). Nothing is opened: the caller opens each
    /// through `session.openOriginal`, which checks it is still the file the index knows.
    /// Throws "must select photos" when nothing is selected, and names a selected photo that is
    /// trashed or missing (nothing can be shared then, as for `curate share`).
    public static func sharedFiles(_ session: LibrarySession) throws -> [CurationSharedFile] {
        try session.read { index in
            let curation = Curation(session)
            let selected = try curation.load(note: session.log).entries.filter(\.selected)
            guard !selected.isEmpty else { throw CurationError.nothingSelected }
            var taken = Set<String>()
            var files: [CurationSharedFile] = []
            for entry in selected {
                guard entry.asset.state == .present else { throw CurationError.cannotShare(entry.asset) }
                var group = [entry.asset]
                if let path = entry.companion, let companion = try index.asset(path: path), companion.state == .present {
                    group.append(companion)
                }
                let names = group.map { ShareNames(fileName: $0.name) }
                let n = (1...).first { n in names.allSatisfy { !taken.contains($0.candidate(n).lowercased()) } }!
                for (i, (asset, name)) in zip(group, names).enumerated() {
                    taken.insert(name.candidate(n).lowercased())
                    files.append(CurationSharedFile(asset: asset, name: name.candidate(n), isCompanion: i > 0))
                }
            }
            return files
        }
    }
}
