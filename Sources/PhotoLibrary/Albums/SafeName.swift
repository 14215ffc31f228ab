import Foundation

/// Names Shoebox gives folders and links under `Albums/`: usable on every Linux file system and
/// in every file manager, whatever a person, place or album is called.
/// - Unicode NFC (macOS clients and Samba shares would otherwise show two "Zoë" folders);
/// - no `/`, no NUL, no control characters (newlines, tabs, ESC, U+2028…), runs of white space
///   made one space, no white space at either end;
/// - no leading dot (a hidden folder) and never `.` or `..`;
/// - at most 255 bytes of UTF-8, cut on a character boundary, keeping a file extension;
/// - never empty: `fallback` stands in.
public enum SafeName {
    public static let maximumBytes = 255

    public static func folder(_ raw: String, fallback: String) -> String {
        clean(raw, keepExtension: false, fallback: fallback)
    }

    /// A file name from elsewhere (an upload's): cleaned as a folder's, its extension kept, short
    /// enough (200 bytes) that the hidden temporary beside it still has a legal name.
    public static func file(_ raw: String, fallback: String) -> String {
        clean(raw, keepExtension: true, fallback: fallback, budget: 200)
    }

    /// "007 IMG_0412.HEIC": position first, so that a file manager's name order is the album's order.
    public static func link(position: Int, width: Int, fileName: String) -> String {
        let prefix = String(repeating: "0", count: max(0, width - String(position).count)) + String(position) + " "
        let name = clean(fileName, keepExtension: true, fallback: "file", budget: maximumBytes - prefix.utf8.count)
        return prefix + name
    }

    /// The zero-padded width for positions up to `count` (at least three digits: "001").
    public static func positionWidth(for count: Int) -> Int { max(3, String(max(count, 1)).count) }

    static func clean(_ raw: String, keepExtension: Bool, fallback: String, budget: Int = maximumBytes) -> String {
        // Nearly every camera file name is already safe: printable ASCII (NFC by definition),
        // no "/", no leading dot or space, no trailing or doubled space, short enough.
        let bytes = raw.utf8
        if !bytes.isEmpty, bytes.count <= budget, bytes.first != UInt8(ascii: "."), bytes.first != UInt8(ascii: " "),
           bytes.last != UInt8(ascii: " "),
           bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "/") }),
           !raw.contains("  ") {
            return raw
        }
        var out = ""
        var lastWasSpace = true
        for scalar in raw.precomposedStringWithCanonicalMapping.unicodeScalars {
            let isControl = scalar.properties.generalCategory == .control
                || scalar.properties.generalCategory == .lineSeparator
                || scalar.properties.generalCategory == .paragraphSeparator
                || scalar.value == 0xFEFF
            if scalar == "/" {
                out.unicodeScalars.append("-")
                lastWasSpace = false
            } else if isControl || scalar.properties.isWhitespace {
                if !lastWasSpace { out.append(" ") }
                lastWasSpace = true
            } else {
                out.unicodeScalars.append(scalar)
                lastWasSpace = false
            }
        }
        while out.hasSuffix(" ") { out.removeLast() }
        // By scalar: a Character compare would take "." + a combining mark (one grapheme) for no dot.
        while let first = out.unicodeScalars.first, first == "." || first == " " { out.unicodeScalars.removeFirst() }
        if out.isEmpty { out = fallback }
        guard out.utf8.count > budget else { return out }
        // Too long: shorten the stem, keep the extension.
        var ext = keepExtension ? (out as NSString).pathExtension : ""
        if ext.utf8.count > 16 { ext = "" }
        var stem = ext.isEmpty ? out : (out as NSString).deletingPathExtension
        let tail = ext.isEmpty ? "" : "." + ext
        while stem.utf8.count + tail.utf8.count > budget, !stem.isEmpty { stem.removeLast() }
        while stem.hasSuffix(" ") { stem.removeLast() }
        return (stem.isEmpty ? String(fallback.prefix(8)) : stem) + tail
    }
}
