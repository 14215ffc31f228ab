import Curation
import Foundation
import PhotoLibrary
import Testing

/// The list file's value type: what it keeps, and how it reads bytes it did not write.
@Suite struct CurationStateTests {
    let a = AssetID(), b = AssetID(), c = AssetID()

    @Test func keepsEachIdOnceAndTheSelectionInsideTheList() {
        var s = CurationState()
        #expect(s.add([a, b, a]) == 2)
        #expect(s.add([b, c]) == 1)
        #expect(s.items == [a, b, c])
        s.select([a, c, AssetID()])
        #expect(s.selected == [a, c])
        s.deselect([a])
        #expect(s.selected == [c])
        s.replaceSelection(with: [a, b])
        #expect(s.selected == [a, b])
        s.remove([b])
        #expect(s.items == [a, c] && s.selected == [a])
        #expect(CurationState(items: [a, a, b], selected: [c]) == CurationState(items: [a, b]))
    }

    @Test func survivesItsOwnEncoding() throws {
        var s = CurationState()
        s.add([c, a, b])
        s.select([b])
        let again = try CurationState.decode(s.encoded())
        #expect(again == s)
        #expect(again.items == [c, a, b])
        #expect(try CurationState.decode(CurationState().encoded()).isEmpty)
    }

    @Test func bytesItDidNotWriteAreOneLine() {
        let cases: [Data] = [
            Data([0xFF, 0xFE]), Data("".utf8), Data("[]".utf8), Data("{\"schema\":1}".utf8),
            Data("{\"schema\":1,\"items\":[\"not an id\"],\"selected\":[]}".utf8),
            Data("{\"schema\":1,\"items\":[],\"selected\":[\"\(String(repeating: "x", count: 500))\"]}".utf8),
            Data("{\"schema\":0,\"items\":[],\"selected\":[]}".utf8),
            Data("{\"schema\":7,\"items\":[],\"selected\":[]}".utf8),
            Data("{\"schema\":1,\"items\":[1],\"selected\":[]}".utf8),
        ]
        for data in cases {
            do {
                _ = try CurationState.decode(data)
                Issue.record("\(String(decoding: data, as: UTF8.self)) was accepted")
            } catch let e as ShoeboxError {
                #expect(!e.description.contains("\n") && e.description.contains("curation.json") && e.description.count < 300,
                        "\(e.description)")
            } catch {
                Issue.record("not a ShoeboxError: \(error)")
            }
        }
        // Ids in another case or with an unknown field beside them are still the list.
        let upper = Data("{\"schema\":1,\"items\":[\"\(a.rawValue.uppercased())\"],\"selected\":[],\"later\":true}".utf8)
        #expect((try? CurationState.decode(upper))?.items == [a])
    }
}
