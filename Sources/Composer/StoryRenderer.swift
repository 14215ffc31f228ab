import Foundation
import Imaging
import PhotoLibrary
#if canImport(Glibc)
import Glibc
#endif

/// Draws a story: each photo decoded once (upright, sRGB — Imaging's decoder applies EXIF
/// orientation and converts the colours — at the smallest DCT scale or box reduction that still
/// covers its band), scaled by area averaging and cropped into its band (`StoryLayout`), the
/// photos decoded side by side on the machine's cores.
public struct StoryRenderer: Sendable {
    public let library: Library

    public init(library: Library) { self.library = library }

    /// The 1080×1920 canvas for `assets`, top to bottom (1–4, present photos). Throws the first
    /// failure by position: a file that changed since the last scan, one that cannot be decoded.
    public func render(_ assets: [Asset]) throws -> RGBImage {
        precondition((1...ComposerDraft.capacity).contains(assets.count), "a story has 1–4 photos")
        let bands = StoryLayout.bands(assets.count)
        let results = Results(count: assets.count)
        DispatchQueue.concurrentPerform(iterations: assets.count) { i in
            results.set(i, Result { try band(assets[i], band: bands[i]) })
        }
        var canvas = [UInt8](repeating: 0, count: StoryLayout.width * StoryLayout.height * 3)
        for (i, result) in results.all.enumerated() {
            let image = try result.get()
            let start = bands[i].y * StoryLayout.width * 3
            canvas.replaceSubrange(start..<start + image.pixels.count, with: image.pixels)
        }
        return RGBImage(width: StoryLayout.width, height: StoryLayout.height, pixels: canvas)
    }

    /// One photo, decoded and cut to fill `band`.
    func band(_ asset: Asset, band: StoryLayout.Band) throws -> RGBImage {
        let width = StoryLayout.width
        let original = try OriginalFile.open(asset, in: library)
        // The descriptor is the object's: kept open until this function returns.
        defer { withExtendedLifetime(original) {} }
        let fd = original.descriptor
        // Without a known size (an index from before sizes were read) a decode large enough
        // for any band of a 4:3 or 16:9 photo.
        let need = StoryLayout.decodeLongSide(fullWidth: asset.width, fullHeight: asset.height, width: width, height: band.height)
            ?? 2 * StoryLayout.height
        let decoded: DecodedImage
        do {
            decoded = try ImageDecoder.decode(fileDescriptor: fd, name: asset.path, format: asset.format, minLongSide: need,
                                              orientation: asset.metadata.orientation)
        } catch let e as ImagingError {
            throw ShoeboxError(.io, "cannot compose \(e.description)")
        }
        let image = decoded.image
        // Each face's sharpness measured on the decode: of two faces of a size, the crisp one is kept.
        let faces = asset.faces.map { f -> StoryLayout.Box in
            var box = StoryLayout.Box(x: f.x, y: f.y, w: f.w, h: f.h)
            box.sharpness = FaceCrop.sharpness(in: image, of: box)
            return box
        }
        // The geometry of the whole upright image, not of the reduced one: a box reduction drops
        // a partial row or column (2228 rows / 3 = 742), which would make the scaled image a row
        // shorter than the photo's own proportions give and shift the detail by up to half a pixel.
        let fill = StoryLayout.fill(sourceWidth: decoded.fullWidth > 0 ? decoded.fullWidth : image.width,
                                    sourceHeight: decoded.fullHeight > 0 ? decoded.fullHeight : image.height,
                                    width: width, height: band.height, faces: faces)
        return Downsample.window(image, scaledWidth: fill.scaledWidth, scaledHeight: fill.scaledHeight,
                                 x: fill.x, y: fill.y, width: width, height: band.height)
    }

    /// The bands' outcomes, filled from the decoding threads.
    private final class Results: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [Result<RGBImage, any Error>]
        init(count: Int) { values = Array(repeating: .failure(CancellationError()), count: count) }
        func set(_ i: Int, _ r: Result<RGBImage, any Error>) { lock.withLock { values[i] = r } }
        var all: [Result<RGBImage, any Error>] { lock.withLock { values } }
    }
}
