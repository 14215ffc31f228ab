/// Decoded pixels every consumer of the analysis pipeline shares: 8-bit RGB, interleaved,
/// rows top to bottom with no padding, already upright (EXIF orientation or the container's
/// rotation applied) and in sRGB.
public struct RGBImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// `width * height * 3` bytes: R, G, B for each pixel, row after row.
    public var pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width > 0 && height > 0 && pixels.count == width * height * 3,
                     "an RGB image of \(width)×\(height) holds \(width * height * 3) bytes, not \(pixels.count)")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The longer of width and height.
    public var longSide: Int { max(width, height) }
}
