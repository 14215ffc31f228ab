/// What a JPEG's marker segments say that TurboJPEG does not hand over: the ICC profile (APP2
/// `ICC_PROFILE` chunks, possibly several, reassembled in sequence order) and whether an Adobe
/// APP14 segment is present (Adobe stores CMYK inverted).
struct JPEGMarkers {
    var icc: [UInt8] = []
    var adobe = false

    /// Walks the segments up to the first scan; anything malformed ends the walk with what was
    /// found (the decoder reports real damage).
    init(_ bytes: [UInt8]) {
        guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return }
        var chunks: [Int: ArraySlice<UInt8>] = [:]
        var declaredCount = 0
        var i = 2
        let iccTag: [UInt8] = Array("ICC_PROFILE".utf8) + [0]
        while i + 4 <= bytes.count {
            guard bytes[i] == 0xFF else { break }
            let marker = bytes[i + 1]
            if marker == 0xFF { i += 1; continue }                 // fill byte
            if marker == 0xD8 || (0xD0...0xD7).contains(marker) { i += 2; continue }
            if marker == 0xDA || marker == 0xD9 { break }            // scan or end: headers done
            let length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            let start = i + 4, end = i + 2 + length
            guard length >= 2, end <= bytes.count else { break }
            if marker == 0xE2, length >= 2 + 14, bytes[start..<start + 12].elementsEqual(iccTag) {
                let seq = Int(bytes[start + 12])
                declaredCount = Int(bytes[start + 13])
                chunks[seq] = bytes[(start + 14)..<end]
            } else if marker == 0xEE, length >= 2 + 5, bytes[start..<start + 5].elementsEqual(Array("Adobe".utf8)) {
                adobe = true
            }
            i = end
        }
        // Sequence numbers run 1…count; a profile missing a chunk is useless, so none is kept.
        if declaredCount > 0, (1...declaredCount).allSatisfy({ chunks[$0] != nil }) {
            for seq in 1...declaredCount { icc += chunks[seq]! }
        }
    }
}
