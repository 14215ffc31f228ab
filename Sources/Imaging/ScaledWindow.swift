import CImageOps

extension Downsample {
    /// `image` scaled to `scaledWidth`×`scaledHeight`, then the `width`×`height` window at
    /// (`x`, `y`) of that: an aspect-fill crop as ImageMagick's `-resize W×H^ -extent W×H` makes
    /// it, with the same geometry (the whole image scaled, the window cut on whole pixels of the
    /// scaled image). Reducing is OpenCV's area averaging (INTER_AREA, like `area`); a source
    /// smaller than the window is enlarged bicubically (area averaging only reduces).
    /// The window must lie inside the scaled image.
    public static func window(_ image: RGBImage, scaledWidth: Int, scaledHeight: Int,
                              x: Int, y: Int, width: Int, height: Int) -> RGBImage {
        precondition(x >= 0 && y >= 0 && width > 0 && height > 0 && x + width <= scaledWidth && y + height <= scaledHeight,
                     "the window \(width)×\(height) at (\(x), \(y)) is not inside \(scaledWidth)×\(scaledHeight)")
        var out = [UInt8](repeating: 0, count: width * height * 3)
        let status = image.pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                shoebox_resize_window(src.baseAddress, Int32(image.width), Int32(image.height),
                                      Int32(scaledWidth), Int32(scaledHeight), Int32(x), Int32(y),
                                      dst.baseAddress, Int32(width), Int32(height))
            }
        }
        // OpenCV throws only on allocation failure; the precondition excludes bad windows.
        precondition(status == 0, "cv::resize failed for \(image.width)×\(image.height) → \(scaledWidth)×\(scaledHeight)")
        return RGBImage(width: width, height: height, pixels: out)
    }
}
