import CImageOps

/// High-quality reduction for thumbnails and analysis: OpenCV's area averaging (INTER_AREA),
/// where every source pixel contributes to the output pixel it falls in, so fine detail
/// (stripes, fabric, text) averages out instead of aliasing into moiré.
public enum Downsample {
    /// `image` reduced so its long side is `longSide`, aspect kept (the short side rounded,
    /// at least 1). Never up-samples: an image already that small comes back as it is.
    public static func area(_ image: RGBImage, longSide: Int) -> RGBImage {
        guard longSide > 0, image.longSide > longSide else { return image }
        let scale = Double(longSide) / Double(image.longSide)
        let w = image.width >= image.height ? longSide : max(1, Int((Double(image.width) * scale).rounded()))
        let h = image.height > image.width ? longSide : max(1, Int((Double(image.height) * scale).rounded()))
        var out = [UInt8](repeating: 0, count: w * h * 3)
        let status = image.pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                shoebox_resize_area(src.baseAddress, Int32(image.width), Int32(image.height),
                                    dst.baseAddress, Int32(w), Int32(h))
            }
        }
        // OpenCV throws only on allocation failure or invalid sizes, which the guards exclude.
        precondition(status == 0, "cv::resize failed for \(image.width)×\(image.height) → \(w)×\(h)")
        return RGBImage(width: w, height: h, pixels: out)
    }
}
