import Foundation
@testable import PhotoLibrary
import Testing

/// New asset ids: what `uuidgen -r` would print, each one different.
@Suite("Asset ids")
struct AssetIDTests {
    @Test func aNewIdIsARandomVersionFourUUIDInItsStoredForm() throws {
        var seen = Set<String>()
        var versionBits = Set<Character>(), variantBits = Set<Character>()
        for _ in 0..<2_000 {
            let id = AssetID().rawValue
            #expect(AssetID.isStoredForm(id), "\(id)")
            // Foundation reads it as a UUID and prints it back the same (upper-case).
            let parsed = try #require(UUID(uuidString: id))
            #expect(parsed.uuidString.lowercased() == id)
            let characters = Array(id)
            versionBits.insert(characters[14])
            variantBits.insert(characters[19])
            #expect(seen.insert(id).inserted, "the id \(id) came twice")
        }
        #expect(versionBits == ["4"])
        #expect(variantBits.isSubset(of: ["8", "9", "a", "b"]) && variantBits.count > 1)
        // 122 random bits: every hex digit position but the fixed ones takes many values.
        let ids = Array(seen)
        for position in 0..<36 where ![8, 13, 14, 18, 19, 23].contains(position) {
            let values = Set(ids.map { Array($0)[position] })
            #expect(values.count >= 12, "position \(position) took only \(values.sorted())")
        }
    }
}
