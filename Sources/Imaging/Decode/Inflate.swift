import CZlib

/// zlib-compressed data (a PNG's iCCP profile) inflated with a ceiling, so a tiny chunk
/// cannot expand into gigabytes.
enum Inflate {
    static func zlib(_ input: [UInt8], limit: Int) -> [UInt8]? {
        var stream = z_stream()
        guard inflateInit_(&stream, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        var input = input
        return input.withUnsafeMutableBufferPointer { inBuf -> [UInt8]? in
            stream.next_in = inBuf.baseAddress
            stream.avail_in = uInt(inBuf.count)
            while true {
                let (status, produced) = chunk.withUnsafeMutableBufferPointer { out -> (Int32, Int) in
                    stream.next_out = out.baseAddress
                    stream.avail_out = uInt(out.count)
                    let s = inflate(&stream, Z_NO_FLUSH)
                    return (s, out.count - Int(stream.avail_out))
                }
                output += chunk[0..<produced]
                if output.count > limit { return nil }
                if status == Z_STREAM_END { return output }
                if status != Z_OK || produced == 0 && stream.avail_in == 0 { return nil }
            }
        }
    }
}
