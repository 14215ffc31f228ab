import Foundation

extension StringProtocol where UTF8View: BidirectionalCollection {
    /// `trimmingCharacters(in: .whitespaces)`, without Foundation's round trip through an
    /// NSString when there is nothing to trim: both ends plain ASCII and not blank, as in nearly
    /// every string a camera or an editor writes. (That round trip, a dozen times a photo for its
    /// EXIF and XMP text, was ~1 % of a cold scan's CPU: issue 33.)
    package func trimmedWhitespace() -> String {
        if let text = asciiTrimmed(blank: { $0 == 0x20 || $0 == 0x09 }) { return text }
        return trimmingCharacters(in: .whitespaces)
    }

    /// `trimmingCharacters(in: .whitespacesAndNewlines)`, the same way (`trimmedWhitespace`).
    package func trimmedWhitespaceAndNewlines() -> String {
        if let text = asciiTrimmed(blank: { $0 == 0x20 || (0x09...0x0D).contains($0) }) { return text }
        return trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `trimmingCharacters(in: .whitespacesAndNewlines.union(.controlCharacters))`, the same way
    /// (IPTC and TIFF text: the set was built again for every string, ~1 % of a scan's CPU).
    package func trimmedWhitespaceAndControls() -> String {
        if let text = asciiTrimmed(blank: { $0 <= 0x20 || $0 == 0x7F }) { return text }
        return trimmingCharacters(in: whitespaceAndControlCharacters)
    }

    /// The string less the ASCII `blank` bytes at its ends, when what is left begins and ends
    /// with ASCII (so nothing else the character set holds, all of it outside ASCII, could be
    /// trimmed there); nil otherwise, for Foundation to decide.
    private func asciiTrimmed(blank: (UInt8) -> Bool) -> String? {
        let bytes = utf8
        guard let start = bytes.firstIndex(where: { !blank($0) }) else { return "" }
        var end = bytes.index(before: bytes.endIndex)
        while blank(bytes[end]) { end = bytes.index(before: end) }
        guard bytes[start] < 0x80, bytes[end] < 0x80 else { return nil }
        return String(self[start...end])
    }
}

private let whitespaceAndControlCharacters = CharacterSet.whitespacesAndNewlines.union(.controlCharacters)
