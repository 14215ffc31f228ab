import Foundation
#if canImport(Glibc)
import Glibc
#endif

// The order `album list` shows generated albums in, kept by the album pass.
//
// Why kept: names are ordered as a file manager orders them (`localizedStandardCompare`: case,
// accents and numbers as a person reads them, by the user's locale), which only ICU's collation
// does; loading it costs ~3.3 MB of a listing's start-up (issue 33: `album list` was the one
// everyday command over 25 MB). The pass that writes the albums sorts their names once, when
// the set of names changes, and a listing orders by that table — the same order, since the
// order of a subset of names is their order in the whole. A name the table does not know, or
// another locale, and the listing sorts by ICU as before.

extension AlbumLinker {
    /// Every generated album's path in name order, and the locale they were ordered under.
    struct ListingOrder: Codable, Equatable {
        var locale: String
        var paths: [String]
    }

    static let listingOrderKey = "album_listing_order"

    /// The environment that chooses Foundation's current locale, hence the collation.
    static var localeEnvironment: String {
        let names = ["LC_ALL", "LC_COLLATE", "LC_MESSAGES", "LANG", "LANGUAGE"]
        return names.map { (name: String) -> String in getenv(name).map { String(cString: $0) } ?? "" }
            .joined(separator: "\u{1}")
    }

    /// Generated albums in listing order: years, places, people, screenshots, videos, each kind
    /// by name; the same name twice (never, paths are unique) in capture order.
    func sortedForListing<Album: ListedAlbum>(_ generated: [Album]) -> [Album] {
        let rank: (Album) -> Int = { Self.listingRank($0.kind) }
        if let kept = try? index.metaJSON(Self.listingOrderKey, as: ListingOrder.self), kept.locale == Self.localeEnvironment {
            let position = Dictionary(kept.paths.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
            if generated.allSatisfy({ position[$0.path] != nil }) {
                return generated.enumerated().sorted { a, b in
                    let (ra, rb) = (rank(a.element), rank(b.element))
                    if ra != rb { return ra < rb }
                    let (pa, pb) = (position[a.element.path]!, position[b.element.path]!)
                    return pa == pb ? a.offset < b.offset : pa < pb
                }.map(\.element)
            }
        }
        return generated.enumerated().sorted { a, b in
            let (ra, rb) = (rank(a.element), rank(b.element))
            if ra != rb { return ra < rb }
            let order = a.element.path.localizedStandardCompare(b.element.path)
            return order == .orderedSame ? a.offset < b.offset : order == .orderedAscending
        }.map(\.element)
    }

    /// Keeps the name order of the generated albums' paths (every album a pass made or found)
    /// for listings; sorts only when that set of names or the locale changed.
    func saveListingOrder(of paths: some Collection<String>) throws {
        let locale = Self.localeEnvironment
        if let kept = try? index.metaJSON(Self.listingOrderKey, as: ListingOrder.self),
           kept.locale == locale, kept.paths.count == paths.count, Set(kept.paths) == Set(paths) {
            return
        }
        let sorted = paths.sorted { $0.localizedStandardCompare($1) == .orderedAscending }
        try index.setMetaJSON(Self.listingOrderKey, ListingOrder(locale: locale, paths: sorted))
    }
}
