import Foundation
@testable import MetadataCore
import Testing

/// A camera's and an editor's text trimmed without Foundation's NSString round trip when nothing
/// is to be trimmed (`trimmedWhitespace`): the same strings as `trimmingCharacters` in every case.
@Suite("Trimmed text")
struct TrimmedTextTests {
    static let samples = ["", " ", "\t", "\n", "Canon", " Canon", "Canon ", "\tNIKON D750\t", "iPhone 13\n", "\n\r\u{0B}\u{0C}x\r\n",
                          "\u{00A0}Zoë\u{00A0}", "\u{2003}Tórshavn", "Kraków\u{3000}", "\u{0085}a\u{0085}", "a b", "é", " é ", "東京",
                          "2023:05:14 12:34:56", " 2023-05-14T12:34:56+01:00 ", "\u{FEFF}bom", "x\u{200B}",
                          " \u{00A0}x", "x \u{2003} ", "\u{01}abc\u{7F}", "\u{00}\u{1F}", "\u{0}Zoë \u{9F}", "\t\u{200B} a \n",
                          "  Nikon\u{0}\u{0}", "e\u{301} ", " \r\n"]

    @Test func sameAsFoundationForBlanks() {
        for s in Self.samples {
            #expect(s.trimmedWhitespace() == s.trimmingCharacters(in: .whitespaces), "\(s.debugDescription)")
            #expect(Substring(s).trimmedWhitespace() == s.trimmingCharacters(in: .whitespaces), "\(s.debugDescription)")
        }
    }

    @Test func sameAsFoundationForBlanksAndNewlines() {
        for s in Self.samples {
            #expect(s.trimmedWhitespaceAndNewlines() == s.trimmingCharacters(in: .whitespacesAndNewlines), "\(s.debugDescription)")
        }
    }

    @Test func sameAsFoundationForBlanksAndControls() {
        let set = CharacterSet.whitespacesAndNewlines.union(.controlCharacters)
        for s in Self.samples {
            #expect(s.trimmedWhitespaceAndControls() == s.trimmingCharacters(in: set), "\(s.debugDescription)")
            #expect(Substring(s).trimmedWhitespaceAndControls() == s.trimmingCharacters(in: set), "\(s.debugDescription)")
        }
    }
}
