import Foundation
import Imaging
import Metadata
import PhotoLibrary
#if canImport(Glibc)
import Glibc
#endif

/// The pixels of one cell: the photo's crop, decoded at the smallest size that fills the cell
/// without enlarging, and resized to the cell. From the analysis pipeline's 1024-px preview
/// (`.shoebox/thumbs/`, made from the same content: its name holds the SHA-256) when the crop
/// of it is at least as large as the cell, else from the original. Both files are opened
/// through the library's confined layer; the original through `OriginalFile`, only while its
/// inode, size and modification time are the ones the index holds.
struct CellPixels {
    let library: Library
    let cellWidth: Int
    let cellHeight: Int

    enum Source: String, Sendable { case preview, original }

    /// The cell's image, the crop it shows and where it came from. The crop's size depends only
    /// on the photo's shape, so the decode is sized first; the faces' sharpness is then measured
    /// on the decoded pixels and the crop placed (`CropPlanner`). Throws one line naming the
    /// file when neither source gives whole pixels (a damaged decode is a failure: a spare
    /// takes the cell).
    func render(_ asset: Asset, faces: [FaceBox]) throws -> (image: RGBImage, crop: NormalizedRect, source: Source) {
        let size = CropPlanner.crop(width: asset.width, height: asset.height, faces: [], aspect: Double(cellWidth) / Double(cellHeight))
        let decoded: RGBImage, source: Source
        if let preview = try? fromPreview(asset, crop: size) { (decoded, source) = (preview, .preview) }
        else { (decoded, source) = (try fromOriginal(asset, crop: size), .original) }
        let measured = faces.map { f -> FaceBox in
            var face = f
            face.sharpness = FaceCrop.sharpness(in: decoded, of: f)
            return face
        }
        let crop = CropPlanner.crop(width: asset.width, height: asset.height, faces: measured,
                                    aspect: Double(cellWidth) / Double(cellHeight))
        return (draw(decoded, crop: crop), crop, source)
    }

    /// The long side a decode needs so that `crop` of it covers the cell without enlarging.
    func neededLongSide(_ asset: Asset, crop: NormalizedRect) -> Int {
        let w = Double(max(1, asset.width)), h = Double(max(1, asset.height)), long = max(w, h)
        let scale = max(Double(cellWidth) / (crop.w * w), Double(cellHeight) / (crop.h * h))
        return Int((long * scale).rounded(.up))
    }

    /// The cached preview, upright, when it is large enough for a crop of `crop`'s size.
    func fromPreview(_ asset: Asset, crop: NormalizedRect) throws -> RGBImage? {
        let size = ThumbnailStore.sizes.max()!
        // A preview is the original reduced to `size` (never enlarged): large enough when that is.
        guard neededLongSide(asset, crop: crop) <= min(size, max(asset.width, asset.height)) else { return nil }
        let path = ThumbnailStore(library: library).path(of: asset, size: size)
        let fd = try library.files.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        defer { close(fd) }
        let decoded = try ImageDecoder.decode(fileDescriptor: fd, name: path, format: .jpeg, minLongSide: size, orientation: 1)
        // A preview of another shape is not this photo's (a stale cache): the original then.
        let ratio = Double(decoded.image.width) / Double(decoded.image.height), own = Double(asset.width) / Double(max(1, asset.height))
        guard !decoded.damaged, abs(ratio / own - 1) < 0.02 else { return nil }
        return decoded.image
    }

    /// The original, upright, decoded large enough for a crop of `crop`'s size.
    func fromOriginal(_ asset: Asset, crop: NormalizedRect) throws -> RGBImage {
        // The one verified opener: confined, non-blocking (a fifo put in a photo's place must
        // not hang the collage), the very file the index knows.
        let original = try OriginalFile.open(asset, in: library)
        let decoded = try withExtendedLifetime(original) {  // its descriptor closes with it
            try ImageDecoder.decode(fileDescriptor: original.descriptor, name: asset.path, format: asset.format,
                                    minLongSide: neededLongSide(asset, crop: crop), orientation: asset.metadata.orientation)
        }
        if decoded.damaged { throw ShoeboxError(.io, "\(asset.path): its image data is damaged") }
        return decoded.image
    }

    /// `crop` of `image` resized into a cell-sized image.
    func draw(_ image: RGBImage, crop: NormalizedRect) -> RGBImage {
        var cell = RGBImage(width: cellWidth, height: cellHeight, filledWith: (255, 255, 255))
        cell.draw(image, crop: crop.pixels(width: image.width, height: image.height),
                  into: PixelRect(x: 0, y: 0, width: cellWidth, height: cellHeight))
        return cell
    }
}
