import MetadataCore
import CLazyCodecs

/// The JPEG a camera embeds in its raw file beside the sensor data — the picture the analysis
/// pipeline decodes instead of developing the raw. Read through LibRaw, which picks the largest
/// preview the container lists (`libraw_unpack_thumb`; LibRaw 0.20 has no list to choose from).
public enum RAWPreview {
    /// Previews larger than this are refused before LibRaw allocates them: a full-size JPEG of a
    /// 100-megapixel sensor is about 40 MiB, so anything beyond is a damaged or hostile length.
    public static let maximumSize = 64 << 20

    /// The largest embedded preview of the raw file `source` as JPEG bytes, or nil when it has
    /// none. A bitmap preview (some old Kodak and Nikon files carry a small RGB one) is also nil:
    /// Metadata has no JPEG encoder, and such previews are too small to analyse — the pipeline
    /// develops the raw instead. Throws `MetadataError` `.corrupt` (or `.unrecognized` for a file
    /// that is not a camera raw LibRaw knows) when the preview cannot be read, `.tooLarge`
    /// beyond `maximumSize`.
    public static func jpeg(_ source: ByteSource) throws -> [UInt8]? {
        try RAWReader.withOpened(source) { raw in
            // The preview's length is known from the header: refuse it before anything is allocated.
            let length = Int(raw.pointee.thumbnail.tlength)
            guard length > 0 else { return nil }
            guard length <= maximumSize else {
                throw MetadataError(.tooLarge, "camera raw file's embedded preview too large (\(length) bytes)")
            }
            guard Int64(length) <= source.count else { throw damaged("preview runs past the end of the file") }
            let status = shoebox_libraw_unpack_thumb(raw)
            if status == Int32(LIBRAW_NO_THUMBNAIL.rawValue) { return nil }
            // Bitmap layouts LibRaw cannot hand over are no JPEG preview either.
            if status == Int32(LIBRAW_UNSUPPORTED_THUMBNAIL.rawValue) { return nil }
            guard status == 0 else { throw damaged(String(cString: shoebox_libraw_strerror(status))) }
            guard raw.pointee.thumbnail.tformat == LIBRAW_THUMBNAIL_JPEG else { return nil }
            // The camera's bytes as they are in the file (what `exiftool -PreviewImage -b` gives),
            // not `libraw_dcraw_make_mem_thumb`'s copy, which adds an EXIF header of LibRaw's own
            // making in front and costs a second copy of the preview.
            let count = Int(raw.pointee.thumbnail.tlength)
            guard let thumb = raw.pointee.thumbnail.thumb, count > 3 else { throw damaged("the preview is empty") }
            let bytes = thumb.withMemoryRebound(to: UInt8.self, capacity: count) { Array(UnsafeBufferPointer(start: $0, count: count)) }
            // LibRaw writes the JPEG start mark over the first two bytes whatever they were: a
            // real JPEG goes on with a marker, bytes that do not are damage.
            guard bytes[2] == 0xFF else { throw damaged("the preview is not a JPEG") }
            return bytes
        }
    }

    private static func damaged(_ why: String) -> MetadataError {
        MetadataError(.corrupt, "damaged camera raw file: its embedded preview cannot be read: \(why)")
    }
}
