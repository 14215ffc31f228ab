/// What one decode of a file gives: upright sRGB pixels, no larger than asked for, and how
/// they were had.
public struct DecodedImage: Sendable {
    /// Where the pixels came from.
    public enum Source: Sendable, Equatable {
        /// The whole image at its stored size.
        case full
        /// A JPEG decoded at 1/`denominator` of its size by the DCT (2, 4 or 8).
        case dctScaled(denominator: Int)
        /// Averaged over `factor`×`factor` blocks while decoding (PNG rows, a HEIF image's
        /// decoded plane), the largest factor still as large as the consumers need.
        case boxReduced(factor: Int)
        /// The thumbnail a HEIF file carries for its primary image.
        case embeddedThumbnail
        /// A movie's poster frame, at this many seconds in.
        case videoFrame(seconds: Double)
    }

    /// Upright (orientation or container rotation applied), sRGB.
    public var image: RGBImage
    /// The upright size of the whole image, whatever size `image` was decoded at.
    public var fullWidth: Int
    public var fullHeight: Int
    /// Pixels came out but the data could not be decoded whole (a corrupt entropy stream, a
    /// truncated JPEG, a broken video packet): the picture is partly grey or smeared.
    public var damaged: Bool
    public var source: Source

    public init(image: RGBImage, fullWidth: Int, fullHeight: Int, damaged: Bool, source: Source) {
        self.image = image
        self.fullWidth = fullWidth
        self.fullHeight = fullHeight
        self.damaged = damaged
        self.source = source
    }
}

/// How much a decode may take, checked against declared dimensions before any pixel buffer is
/// allocated, so a decode bomb (a 65000×65000 header on a few bytes) costs nothing.
public struct DecodeLimits: Sendable {
    /// Most pixels a file may declare (a JPEG's at its DCT-scaled size): checked before decoding.
    public var maxPixels: Int
    /// Most bytes read into memory for a JPEG (decoded from memory; PNG rows, HEIF items and
    /// movies are read through the descriptor as the decoder asks).
    public var maxFileBytes: Int

    public init(maxPixels: Int = 120_000_000, maxFileBytes: Int = 512 << 20) {
        self.maxPixels = maxPixels
        self.maxFileBytes = maxFileBytes
    }

    /// 120 megapixels and 512 MiB files: a 100-megapixel panorama decodes (JPEG at 1/8, PNG
    /// reduced while reading rows, HEIC whole inside libheif, then reduced).
    public static let `default` = DecodeLimits()

    /// Whether a declared `width`×`height` stays within `maxPixels`; sides read from a file are
    /// up to 2³², whose product would overflow an `Int` (and trap) before any comparison.
    public func allows(width: Int, height: Int) -> Bool {
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        return !overflow && pixels <= maxPixels
    }
}
