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

extension RGBImage {
    /// A `width`×`height` image of one colour (a canvas to draw into).
    public init(width: Int, height: Int, filledWith rgb: (UInt8, UInt8, UInt8)) {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for i in stride(from: 0, to: pixels.count, by: 3) {
            pixels[i] = rgb.0; pixels[i + 1] = rgb.1; pixels[i + 2] = rgb.2
        }
        self.init(width: width, height: height, pixels: pixels)
    }

    /// Draws the pixel rectangle `crop` of `source` into this image's rectangle `cell`, resized to
    /// fill it exactly (OpenCV: area averaging when shrinking, bicubic when enlarging). The
    /// caller keeps both rectangles inside their images and of the same aspect ratio.
    public mutating func draw(_ source: RGBImage, crop: PixelRect, into cell: PixelRect) {
        let width = self.width
        let status = source.pixels.withUnsafeBufferPointer { src in
            pixels.withUnsafeMutableBufferPointer { dst in
                shoebox_resize_region(src.baseAddress, Int32(source.width), Int32(source.height),
                                      Int32(crop.x), Int32(crop.y), Int32(crop.width), Int32(crop.height),
                                      dst.baseAddress! + (cell.y * width + cell.x) * 3, Int32(width * 3),
                                      Int32(cell.width), Int32(cell.height))
            }
        }
        precondition(status == 0, "cv::resize failed: \(crop) of \(source.width)×\(source.height) → \(cell) of \(self.width)×\(height)")
    }
}

/// A rectangle of whole pixels, x/y its top-left corner.
public struct PixelRect: Sendable, Equatable, CustomStringConvertible {
    public var x: Int, y: Int, width: Int, height: Int
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
    public var description: String { "\(width)×\(height)+\(x)+\(y)" }
}
