import CHeif

/// HEIC/HEIF through libheif, reading through a `heif_reader` whose callbacks pread from the
/// ByteSource: libheif parses the boxes it needs (ftyp, meta, iloc …) and seeks over mdat, so
/// only headers and the metadata items are read, never the coded image.
enum HEIFReader {
    /// libheif's init is reference counted and process wide; Shoebox takes one reference for the
    /// life of the process (never `heif_deinit`, so other modules may init/deinit freely).
    private static let initialized: Bool = {
        _ = heif_init(nil)
        return true
    }()

    static func read(_ source: ByteSource) throws -> (metadata: MediaMetadata, exif: EXIFFields?, xmp: XMPFields?) {
        _ = initialized
        // Our own top-level walk first: it tells a truncated file from a corrupt one, which
        // libheif's messages do not.
        let top = ISOBMFF.topLevel(source)
        guard top.boxes.contains(where: { $0.type == fourCC("meta") }) else {
            if top.pastEOF != nil || top.shortHeader {
                throw MetadataError(.truncated, "truncated HEIC: no image description ('meta' box) before end of file")
            }
            throw MetadataError(.corrupt, "corrupt HEIC: no image description ('meta' box)")
        }
        let context = try HEIFContext(source)
        let handle = try context.primaryImage()
        // libheif reports the displayed size: irot/imir/clap are applied when it decodes, and the
        // EXIF orientation tag does not govern HEIF (ISO/IEC 23008-12), so orientation stays 1.
        let width = Int(heif_image_handle_get_width(handle.pointer))
        let height = Int(heif_image_handle_get_height(handle.pointer))
        guard width > 0, height > 0 else {
            throw MetadataError(.corrupt, "corrupt HEIC: primary image has no size")
        }
        try checkPixelBudget(width: width, height: height)
        let m = MediaMetadata(format: .heic, pixelWidth: width, pixelHeight: height, orientation: 1)

        var exif: EXIFFields?
        if let block = handle.metadata(type: "Exif", contentType: nil, limit: EXIF.maximumSize), block.count > 4,
           let skip = block.be32(0), Int(skip) <= block.count - 4 {
            // An Exif item starts with the offset of the TIFF header after these 4 bytes (ISO/IEC 23008-12 A.2.1).
            exif = EXIF.parse(EXIF.header + block[(4 + Int(skip))...])
        }
        var xmp: XMPFields?
        if let packet = handle.metadata(type: "mime", contentType: "application/rdf+xml", limit: XMP.maximumSize) {
            xmp = XMP.properties(packet).map(XMP.fields)
        }
        return (m, exif, xmp)
    }
}

/// Owns a heif_context and the reader it reads through; frees both in deinit.
final class HEIFContext {
    /// The reader's state, handed to libheif's C callbacks as userdata.
    final class Stream {
        let source: ByteSource
        var position: Int64 = 0
        init(_ source: ByteSource) { self.source = source }
    }

    let pointer: OpaquePointer
    private let stream: Stream
    private let reader: UnsafeMutablePointer<heif_reader>

    init(_ source: ByteSource) throws {
        guard let ctx = heif_context_alloc() else { throw MetadataError(.io, "libheif could not allocate a context") }
        pointer = ctx
        stream = Stream(source)
        reader = UnsafeMutablePointer<heif_reader>.allocate(capacity: 1)
        reader.initialize(to: heif_reader())
        reader.pointee.reader_api_version = 1
        reader.pointee.get_position = { ud in
            Unmanaged<Stream>.fromOpaque(ud!).takeUnretainedValue().position
        }
        reader.pointee.read = { data, size, ud in
            let s = Unmanaged<Stream>.fromOpaque(ud!).takeUnretainedValue()
            guard let data, size <= Int.max, s.position >= 0 else { return -1 }
            var done = 0
            while done < size {
                let n = min(size - done, 1 << 20)
                guard let chunk = try? s.source.read(at: s.position, length: n), chunk.count == n else { return -1 }
                chunk.withUnsafeBytes { (data + done).copyMemory(from: $0.baseAddress!, byteCount: n) }
                done += n
                s.position += Int64(n)
            }
            return 0
        }
        reader.pointee.seek = { position, ud in
            let s = Unmanaged<Stream>.fromOpaque(ud!).takeUnretainedValue()
            guard position >= 0, position <= s.source.count else { return -1 }
            s.position = position
            return 0
        }
        reader.pointee.wait_for_file_size = { target, ud in
            let s = Unmanaged<Stream>.fromOpaque(ud!).takeUnretainedValue()
            return target <= s.source.count ? heif_reader_grow_status_size_reached : heif_reader_grow_status_size_beyond_eof
        }
        let userdata = Unmanaged.passUnretained(stream).toOpaque()
        let err = heif_context_read_from_reader(ctx, reader, userdata, nil)
        if err.code != heif_error_Ok {
            throw MetadataError(.corrupt, "corrupt HEIC: \(HEIFContext.describe(err))")
        }
    }

    deinit {
        heif_context_free(pointer)
        reader.deinitialize(count: 1)
        reader.deallocate()
    }

    func primaryImage() throws -> HEIFImageHandle {
        var handle: OpaquePointer?
        let err = heif_context_get_primary_image_handle(pointer, &handle)
        guard err.code == heif_error_Ok, let handle else {
            throw MetadataError(.corrupt, "corrupt HEIC: \(HEIFContext.describe(err))")
        }
        return HEIFImageHandle(handle, context: self)
    }

    static func describe(_ err: heif_error) -> String {
        let text = err.message.map { String(cString: $0) } ?? "unknown libheif error"
        return text.split(whereSeparator: \.isNewline).joined(separator: " ").lowercased()
    }
}

/// Owns a heif_image_handle (and keeps its context alive); releases it in deinit.
final class HEIFImageHandle {
    let pointer: OpaquePointer
    private let context: HEIFContext

    init(_ pointer: OpaquePointer, context: HEIFContext) {
        self.pointer = pointer
        self.context = context
    }

    deinit { heif_image_handle_release(pointer) }

    /// The first metadata item of `type` (and content type, for "mime" items) no larger than `limit`.
    func metadata(type: String, contentType: String?, limit: Int) -> [UInt8]? {
        let n = Int(heif_image_handle_get_number_of_metadata_blocks(pointer, type))
        guard n > 0 else { return nil }
        var ids = [heif_item_id](repeating: 0, count: min(n, 64))
        let got = Int(heif_image_handle_get_list_of_metadata_block_IDs(pointer, type, &ids, Int32(ids.count)))
        for id in ids.prefix(got) {
            if let contentType {
                guard let ct = heif_image_handle_get_metadata_content_type(pointer, id),
                      String(cString: ct) == contentType else { continue }
            }
            let size = heif_image_handle_get_metadata_size(pointer, id)
            guard size > 0, size <= limit else { continue }
            var out = [UInt8](repeating: 0, count: size)
            let err = out.withUnsafeMutableBytes { heif_image_handle_get_metadata(pointer, id, $0.baseAddress) }
            if err.code == heif_error_Ok { return out }
        }
        return nil
    }
}
