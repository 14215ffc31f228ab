import Metadata

/// One decode per file for every analysis consumer: reads an already-open descriptor (opened
/// confined to the library by the caller; only `fstat` and `pread` are used on it) and returns
/// upright sRGB pixels no smaller than `minLongSide` where the file allows, no larger than needed.
public enum ImageDecoder {
    /// - Parameters:
    ///   - name: only for messages.
    ///   - format: what `MetadataReader` sniffed (the index has it).
    ///   - minLongSide: the smallest long side any consumer needs (1024 for the large thumbnail):
    ///     a JPEG is DCT-scaled, a PNG, TIFF or HEIC box-reduced and a HEIC's thumbnail used as long as
    ///     the result stays this long.
    ///     A camera raw file gives its embedded JPEG preview (source `.embeddedThumbnail`, full
    ///     size the sensor's), which may be smaller: raw data is not developed here.
    ///   - orientation: EXIF orientation 1…8 of a JPEG, PNG, TIFF or raw file, as `MediaMetadata`
    ///     holds it; nil reads it from the file with `MetadataReader`. HEIC and movies ignore
    ///     it: libheif applies `irot`/`imir` itself and FFmpeg's display matrix is applied here,
    ///     so an EXIF tag inside them would turn the picture twice.
    public static func decode(fileDescriptor fd: Int32, name: String, format: MediaFormat, minLongSide: Int,
                              orientation: Int? = nil, limits: DecodeLimits = .default) throws -> DecodedImage {
        switch format {
        case .jpeg:
            let bytes = try FileBytes.readAll(fd, name: name, limit: limits.maxFileBytes)
            let o = orientation ?? readOrientation(MemoryByteSource(bytes), name: name)
            return try JPEGDecoder.decode(bytes, name: name, minLongSide: minLongSide, orientation: o, limits: limits)
        case .png:
            // Read through the descriptor, never whole: no file-size limit is needed.
            let o = try orientation ?? readOrientation(FileByteSource(fd: fd, size: FileBytes.size(fd, name: name)), name: name)
            return try PNGDecoder.decode(fd: fd, name: name, minLongSide: minLongSide, orientation: o, limits: limits)
        case .heic:
            // libheif reads through the descriptor what it decodes (see HEIFFileReader).
            return try HEIFDecoder.decode(fd: fd, name: name, minLongSide: minLongSide, limits: limits)
        case .tiff:
            // libtiff reads through the descriptor, a band of rows at a time (see TIFFDecoder).
            return try TIFFDecoder.decode(fd: fd, name: name, minLongSide: minLongSide, orientation: orientation, limits: limits)
        case .mp4, .mov:
            return try VideoFrameDecoder.decode(fd: fd, name: name, limits: limits)
        case .raw:
            let size = try FileBytes.size(fd, name: name)
            let source = FileByteSource(fd: fd, size: size)
            let jpeg: [UInt8]?
            do { jpeg = try RAWPreview.jpeg(source) } catch {
                throw ImagingError(.corrupt, name, "raw file's preview unreadable: \(error)")
            }
            guard let jpeg else {
                throw ImagingError(.unsupported, name, "raw file without an embedded JPEG preview (raw data is not developed)")
            }
            // The raw file's orientation governs: cameras store the preview as the sensor saw it.
            // Its header (LibRaw's, no pixels) also gives the sensor's size, the "whole image"
            // the preview stands for.
            let header = try? MetadataReader.read(source, fileName: name)
            let o = orientation ?? header?.orientation ?? 1
            var decoded = try JPEGDecoder.decode(jpeg, name: name, minLongSide: minLongSide, orientation: o, limits: limits)
            decoded.source = .embeddedThumbnail
            if let header, header.pixelWidth > 0, header.pixelHeight > 0 {
                let swaps = Orientation.swapsDimensions(o)
                decoded.fullWidth = swaps ? header.pixelHeight : header.pixelWidth
                decoded.fullHeight = swaps ? header.pixelWidth : header.pixelHeight
            }
            return decoded
        }
    }

    /// Metadata that cannot be read leaves the pixels as stored: the decode itself decides
    /// whether the file is damaged.
    private static func readOrientation(_ source: ByteSource, name: String) -> Int {
        (try? MetadataReader.read(source, fileName: name).orientation) ?? 1
    }
}
