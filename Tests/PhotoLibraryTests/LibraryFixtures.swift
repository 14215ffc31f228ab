import Foundation
import Metadata
@testable import PhotoLibrary

/// Small values for pure tests (no files).
enum LibraryFixtures {
    static func asset(id: String, path: String, sha: String, state: AssetState = .present) -> Asset {
        Asset(id: AssetID(trusted: id), path: path, state: state, size: 10, mtimeNS: 5, inode: 1, sha256: sha,
              kind: .photo, metadata: MediaMetadata(format: .jpeg), place: nil, duplicateOf: nil, livePhotoOf: nil,
              firstSeen: Date(timeIntervalSince1970: 1), score: nil, isUtility: false, similarGroup: nil)
    }
}
