import CTurboJPEG

/// Thumbnails as JPEG through TurboJPEG (4:2:0, as cameras and browsers expect; what a
/// 256- or 1024-pixel image loses to chroma subsampling no eye sees at that size).
public enum ThumbnailEncoder {
    /// Errors only if TurboJPEG itself fails (out of memory).
    public static func jpeg(_ image: RGBImage, quality: Int = 85) throws -> [UInt8] {
        guard let handle = tjInitCompress() else {
            throw ImagingError(.io, "thumbnail", "TurboJPEG could not start a compressor")
        }
        defer { tjDestroy(handle) }
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let status = image.pixels.withUnsafeBufferPointer { src in
            tjCompress2(handle, src.baseAddress, Int32(image.width), 0, Int32(image.height), Int32(TJPF_RGB.rawValue),
                        &output, &size, Int32(TJSAMP_420.rawValue), Int32(min(100, max(1, quality))), 0)
        }
        defer { if output != nil { tjFree(output) } }
        guard status == 0, let output else {
            let message = tjGetErrorStr2(handle).map { String(cString: $0) } ?? "unknown error"
            throw ImagingError(.io, "thumbnail", "JPEG encoding failed: \(message)")
        }
        return Array(UnsafeBufferPointer(start: output, count: Int(size)))
    }
}
