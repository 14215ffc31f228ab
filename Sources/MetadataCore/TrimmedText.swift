import Foundation

extension StringProtocol where UTF8View: BidirectionalCollection {
    /// `trimmingCharacters(in: .whitespaces)`, without Foundation's round trip through an
    /// NSString when there is nothing to trim: both ends plain ASCII and not blank, as in nearly
    /// every string a camera or an editor writes. (That round trip, a dozen times a photo for its
    /// EXIF and XMP text, was ~1 % of a cold scan's CPU: issue 33.)
    package func trimmedWhitespace() -> String {
        if let text = untrimmed(blank: { $0 == 0x20 || $0 == 0x09 }) { return text }
        return trimmingCharacters(in: .whitespaces)
    }

    /// `trimmingCharacters(in: .whitespacesAndNewlines)`, the same way (`trimmedWhitespace`).
    package func trimmedWhitespaceAndNewlines() -> String {
        if let text = untrimmed(blank: { $0 == 0x20 || (0x09...0x0D).contains($0) }) { return text }
        return trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The string itself when its first and last bytes are ASCII and not `blank` (nothing either
    /// character set could trim: their other members are all outside ASCII); nil otherwise.
    private func untrimmed(blank: (UInt8) -> Bool) -> String? {
        guard let first = utf8.first, let last = utf8.last else { return "" }
        guard first < 0x80, last < 0x80, !blank(first), !blank(last) else { return nil }
        return String(self)
    }
}
