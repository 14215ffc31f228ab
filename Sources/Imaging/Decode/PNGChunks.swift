/// A PNG's `iCCP` chunk (name, compression method 0, zlib data), found by walking chunk
/// headers up to the image data. The simplified libpng API does not hand it over.
enum PNGChunks {
    static func iccProfile(_ bytes: [UInt8]) -> [UInt8]? {
        var i = 8
        while i + 8 <= bytes.count {
            let length = Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            let type = String(decoding: bytes[(i + 4)..<(i + 8)], as: UTF8.self)
            let start = i + 8, end = start + length
            guard length >= 0, end <= bytes.count else { return nil }
            if type == "IDAT" || type == "IEND" { return nil }   // iCCP must come before IDAT
            if type == "iCCP" {
                guard let nul = bytes[start..<end].firstIndex(of: 0), nul + 2 <= end, bytes[nul + 1] == 0 else { return nil }
                return Inflate.zlib(Array(bytes[(nul + 2)..<end]), limit: 16 << 20)
            }
            i = end + 4   // + CRC
        }
        return nil
    }
}
