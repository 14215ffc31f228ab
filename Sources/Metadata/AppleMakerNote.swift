/// The one field Shoebox reads from Apple's MakerNote: the content identifier that ties a Live
/// Photo's still to its movie. libexif loads the MakerNote as opaque bytes (it has no Apple
/// interpreter), so its small IFD is walked here, every offset checked against the block.
enum AppleMakerNote {
    static let signature = Array("Apple iOS\0".utf8)
    static let contentIdentifierTag: UInt16 = 0x0011

    /// `note` is the MakerNote's bytes: "Apple iOS\0", a version (2 bytes), "MM" or "II", then an
    /// IFD whose value offsets count from the start of the MakerNote.
    static func contentIdentifier(_ note: [UInt8]) -> String? {
        guard note.count >= 16, note.starts(with: signature) else { return nil }
        let little = note[12] == UInt8(ascii: "I") && note[13] == UInt8(ascii: "I")
        guard little || (note[12] == UInt8(ascii: "M") && note[13] == UInt8(ascii: "M")) else { return nil }
        func u16(_ i: Int) -> Int? {
            guard i >= 0, i + 2 <= note.count else { return nil }
            return little ? Int(note[i]) | Int(note[i + 1]) << 8 : Int(note[i]) << 8 | Int(note[i + 1])
        }
        func u32(_ i: Int) -> Int? {
            guard let a = u16(i), let b = u16(i + 2) else { return nil }
            return little ? a | b << 16 : a << 16 | b
        }
        guard let count = u16(14) else { return nil }
        for n in 0..<min(count, 256) {
            let entry = 16 + 12 * n
            guard let tag = u16(entry), let type = u16(entry + 2), let length = u32(entry + 4) else { return nil }
            guard tag == Int(contentIdentifierTag), type == 2, length > 0, length <= 256 else { continue }
            // ASCII of more than 4 bytes lives at an offset; 4 or fewer sit in the entry itself.
            guard let start = length > 4 ? u32(entry + 8) : entry + 8, start + length <= note.count else { return nil }
            let text = String(decoding: note[start..<start + length].prefix { $0 != 0 }, as: UTF8.self)
            return text.isEmpty ? nil : text
        }
        return nil
    }
}
