import CFFmpeg

/// A decoded video frame (any YUV layout) to packed RGB through libswscale, with the frame's
/// own matrix (BT.601 or BT.709) and range (limited or full) so colours are not shifted.
enum VideoFrameConversion {
    static func rgb(_ frame: UnsafeMutablePointer<AVFrame>, name: String, limits: DecodeLimits) throws -> RGBImage {
        let w = Int(frame.pointee.width), h = Int(frame.pointee.height)
        guard w > 0, h > 0, limits.allows(width: w, height: h) else {
            throw ImagingError(.corrupt, name, "video frame of \(w)×\(h)")
        }
        guard let sws = sws_getContext(Int32(w), Int32(h), AVPixelFormat(frame.pointee.format), Int32(w), Int32(h),
                                       AV_PIX_FMT_RGB24, SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT, nil, nil, nil) else {
            throw ImagingError(.unsupported, name, "video pixel format \(frame.pointee.format) not convertible")
        }
        defer { sws_freeContext(sws) }
        var space = Int32(frame.pointee.colorspace.rawValue)
        // Unspecified: HD and larger is BT.709 by convention, smaller BT.601.
        if space == Int32(AVCOL_SPC_UNSPECIFIED.rawValue) { space = h >= 720 ? SWS_CS_ITU709 : SWS_CS_ITU601 }
        let fullRange: Int32 = frame.pointee.color_range == AVCOL_RANGE_JPEG ? 1 : 0
        _ = sws_setColorspaceDetails(sws, sws_getCoefficients(space), fullRange,
                                     sws_getCoefficients(SWS_CS_DEFAULT), 1, 0, 1 << 16, 1 << 16)
        // Rows padded to 64 bytes: swscale's vector code may write past a packed row's end.
        let stride = (w * 3 + 63) & ~63
        var buffer = [UInt8](repeating: 0, count: stride * h + 64)
        let rows = buffer.withUnsafeMutableBufferPointer { dst -> Int32 in
            var dstData: [UnsafeMutablePointer<UInt8>?] = [dst.baseAddress, nil, nil, nil]
            var dstStride: [Int32] = [Int32(stride), 0, 0, 0]
            return withUnsafePointer(to: &frame.pointee.data) { data in
                withUnsafePointer(to: &frame.pointee.linesize) { lines in
                    data.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { src in
                        lines.withMemoryRebound(to: Int32.self, capacity: 8) { srcStride in
                            sws_scale(sws, src, srcStride, 0, Int32(h), &dstData, &dstStride)
                        }
                    }
                }
            }
        }
        guard rows == Int32(h) else { throw ImagingError(.corrupt, name, "video frame conversion failed") }
        var pixels = [UInt8](repeating: 0, count: w * h * 3)
        for y in 0..<h {
            pixels.withUnsafeMutableBufferPointer { dst in
                buffer.withUnsafeBufferPointer { src in
                    (dst.baseAddress! + y * w * 3).update(from: src.baseAddress! + y * stride, count: w * 3)
                }
            }
        }
        return RGBImage(width: w, height: h, pixels: pixels)
    }
}
