import Foundation
import PhotoLibrary

/// The order of the curation list: best score first; an asset without a score (not analysed
/// yet, or one the scorer does not score) after every scored one; ties by capture time (earlier
/// first, unknown last), then by id, so the order is the same on every run.
public enum CurationRanking {
    public static func ranked(_ assets: [Asset]) -> [Asset] {
        assets.sorted(by: isBefore)
    }

    public static func isBefore(_ a: Asset, _ b: Asset) -> Bool {
        switch (a.score, b.score) {
        case let (x?, y?) where x != y: return x > y
        case (.some, nil): return true
        case (nil, .some): return false
        default: break
        }
        switch (a.takenAt?.date, b.takenAt?.date) {
        case let (x?, y?) where x != y: return x < y
        case (.some, nil): return true
        case (nil, .some): return false
        default: break
        }
        return a.id < b.id
    }
}
