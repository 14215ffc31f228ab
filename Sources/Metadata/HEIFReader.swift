import MetadataCore
import CLazyCodecs

/// HEIC/HEIF through libheif, reading through a `heif_reader` whose callbacks pread from the
/// ByteSource, so the file is never loaded as a whole.
///
/// One libheif quirk shapes this: while reading the context, libheif 1.15 fetches the data of
/// *every* item (the coded image and thumbnail too) to offer it as "metadata". So the first pass
/// reads mdat "probing": reads that fall inside an mdat payload are not performed but filled with a
/// pattern that encodes each byte's file offset. The Exif/XMP blocks libheif then hands back tell,
/// through that pattern, where they lie, and only those bytes are read for real. Anything the
/// pattern cannot explain (an item in several extents, data in idat) falls back to a second,
/// ordinary pass with real reads.
enum HEIFReader {
    static func read(_ source: ByteSource) throws -> (metadata: MediaMetadata, exif: EXIFFields?, xmp: XMPFields?) {
        // Our own top-level walk first: it tells a truncated file from a corrupt one, which
        // libheif's messages do not, and where the mdat payloads are.
        let top = ISOBMFF.topLevel(source)
        guard top.boxes.contains(where: { $0.type == fourCC("meta") }) else {
            if top.pastEOF != nil || top.shortHeader {
                throw MetadataError(.truncated, "truncated HEIC: no image description ('meta' box) before end of file")
            }
            throw MetadataError(.corrupt, "corrupt HEIC: no image description ('meta' box)")
        }
        let mdat = top.boxes.filter { $0.type == fourCC("mdat") }.map { $0.payloadStart..<$0.end }
        if !mdat.isEmpty {
            do { return try read(source, probing: mdat) } catch let e as MetadataError where e.code == .tooLarge {
                throw e
            } catch {
                // Fall through to real reads: libheif may have needed probed bytes (unusual layout).
            }
        }
        // Real reads make libheif hold every item in memory: bounded like a whole-file read.
        guard source.count <= maximumRealReadSize else {
            throw MetadataError(.corrupt, "HEIC metadata could not be located without loading the whole file (over 256 MiB)")
        }
        return try read(source, probing: [])
    }

    static let maximumRealReadSize: Int64 = 256 << 20

    /// Throws `Unresolved` when a probed metadata block cannot be located.
    private static func read(_ source: ByteSource, probing: [Range<Int64>]) throws
        -> (metadata: MediaMetadata, exif: EXIFFields?, xmp: XMPFields?) {
        let context = try HEIFContext(source, probing: probing)
        let handle = try context.primaryImage()
        // libheif reports the displayed size: irot/imir/clap are applied when it decodes, and the
        // EXIF orientation tag does not govern HEIF (ISO/IEC 23008-12), so orientation stays 1.
        let width = Int(shoebox_heif_image_handle_get_width(handle.pointer))
        let height = Int(shoebox_heif_image_handle_get_height(handle.pointer))
        guard width > 0, height > 0 else {
            throw MetadataError(.corrupt, "corrupt HEIC: primary image has no size")
        }
        try checkPixelBudget(width: width, height: height)
        let m = MediaMetadata(format: .heic, pixelWidth: width, pixelHeight: height, orientation: 1)

        var exif: EXIFFields?
        if let block = try handle.metadata(type: "Exif", contentType: nil, limit: EXIF.maximumSize), block.count > 4,
           let skip = block.be32(0), Int(skip) <= block.count - 4 {
            // An Exif item starts with the offset of the TIFF header after these 4 bytes (ISO/IEC 23008-12 A.2.1).
            exif = EXIF.parse(EXIF.header + block[(4 + Int(skip))...])
        }
        var xmp: XMPFields?
        if let packet = try handle.metadata(type: "mime", contentType: "application/rdf+xml", limit: XMP.maximumSize) {
            xmp = XMP.properties(packet).map(XMP.fields)
        }
        return (m, exif, xmp)
    }
}

/// Owns a heif_context and the reader it reads through; frees both in deinit.
final class HEIFContext {
    struct Unresolved: Error {}

    /// The reader's state, handed to libheif's C callbacks as userdata.
    final class Stream {
        let source: ByteSource
        let window: WindowedReader
        /// mdat payloads whose reads are answered with the offset pattern instead of the file.
        let probing: [Range<Int64>]
        var position: Int64 = 0

        init(_ source: ByteSource, probing: [Range<Int64>]) {
            self.source = source
            self.window = WindowedReader(source)
            self.probing = probing
        }

        func read(into data: UnsafeMutableRawPointer, size: Int) -> Bool {
            guard position >= 0, size >= 0, Int64(size) <= source.count - position else { return false }
            let end = position + Int64(size)
            if probing.contains(where: { $0.contains(position) && end <= $0.upperBound }) {
                HEIFContext.fillPattern(data, size: size, from: position)
            } else if size <= 16 << 10 {
                // libheif parses boxes with many 1–4 byte reads: serve them from a window.
                guard let chunk = try? window.read(at: position, length: size), chunk.count == size else { return false }
                chunk.withUnsafeBytes { data.copyMemory(from: $0.baseAddress!, byteCount: size) }
            } else {
                var done = 0
                while done < size {
                    let n = min(size - done, 1 << 20)
                    guard let chunk = try? source.read(at: position + Int64(done), length: n), chunk.count == n else { return false }
                    chunk.withUnsafeBytes { (data + done).copyMemory(from: $0.baseAddress!, byteCount: n) }
                    done += n
                }
            }
            position = end
            return true
        }
    }

    /// The probe byte for a file offset: byte (o mod 8) of the little-endian value o rounded down to 8,
    /// so any 8 bytes that start at a multiple of 8 spell their own offset.
    static func pattern(_ o: Int64) -> UInt8 {
        UInt8(truncatingIfNeeded: UInt64(o & ~7) >> (8 * UInt64(o & 7)))
    }

    /// Writes the probe bytes of `size` file offsets from `start`, a word at a time: libheif reads
    /// the coded image through here, so this runs over most of every HEIC's bytes.
    static func fillPattern(_ data: UnsafeMutableRawPointer, size: Int, from start: Int64) {
        let bytes = data.assumingMemoryBound(to: UInt8.self)
        var i = 0
        var o = start
        while i < size && (o & 7) != 0 { bytes[i] = pattern(o); i += 1; o += 1 }
        while i + 8 <= size {
            data.storeBytes(of: UInt64(o).littleEndian, toByteOffset: i, as: UInt64.self)
            i += 8; o += 8
        }
        while i < size { bytes[i] = pattern(o); i += 1; o += 1 }
    }

    /// Where a block of probe bytes was taken from, if it is one contiguous run of the file.
    static func locate(_ block: [UInt8]) -> Int64? {
        guard block.count >= 16 else { return nil }
        for a in 0..<8 {
            var v: UInt64 = 0
            for k in (0..<8).reversed() { v = v << 8 | UInt64(block[a + k]) }
            guard v <= UInt64(Int64.max), Int64(v) >= Int64(a) else { continue }
            let start = Int64(v) - Int64(a)
            if block.indices.allSatisfy({ block[$0] == pattern(start + Int64($0)) }) { return start }
        }
        return nil
    }

    let pointer: OpaquePointer
    let stream: Stream
    private let reader: UnsafeMutablePointer<heif_reader>

    init(_ source: ByteSource, probing: [Range<Int64>] = []) throws {
        try LazyCodecs.heif()
        guard let ctx = shoebox_heif_context_alloc() else { throw MetadataError(.io, "libheif could not allocate a context") }
        pointer = ctx
        stream = Stream(source, probing: probing)
        reader = UnsafeMutablePointer<heif_reader>.allocate(capacity: 1)
        reader.initialize(to: heif_reader())
        reader.pointee.reader_api_version = 1
        reader.pointee.get_position = { ud in
            Unmanaged<Stream>.fromOpaque(ud!).takeUnretainedValue().position
        }
        reader.pointee.read = { data, size, ud in
            // An empty item is read with a NULL buffer; failing that read trips an assert(), an
            // abort of the whole process, in libheif 1.15 (found by Fuzz/run).
            guard size > 0 else { return 0 }
            guard let data, size <= Int.max else { return -1 }
            return Unmanaged<Stream>.fromOpaque(ud!).takeUnretainedValue().read(into: data, size: size) ? 0 : -1
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
        // This context never decodes; lifting libheif's size limit lets the 500-megapixel budget
        // (checked by the caller) report a bomb as such instead of a libheif error.
        shoebox_heif_context_set_maximum_image_size_limit(ctx, Int32.max)
        let userdata = Unmanaged.passUnretained(stream).toOpaque()
        let err = shoebox_heif_context_read_from_reader(ctx, reader, userdata, nil)
        if err.code != heif_error_Ok { throw HEIFContext.failure(err) }
    }

    deinit {
        shoebox_heif_context_free(pointer)
        reader.deinitialize(count: 1)
        reader.deallocate()
    }

    func primaryImage() throws -> HEIFImageHandle {
        var handle: OpaquePointer?
        let err = shoebox_heif_context_get_primary_image_handle(pointer, &handle)
        guard err.code == heif_error_Ok, let handle else { throw HEIFContext.failure(err) }
        return HEIFImageHandle(handle, context: self)
    }

    /// libheif's error said the way the JPEG path says it: data the file's boxes point to lies
    /// past its end ("Extent in iloc box references data outside of file bounds") is a truncated
    /// or damaged file, which a user can act on; libheif's words follow for the details.
    static func failure(_ err: heif_error) -> MetadataError {
        if err.subcode == heif_suberror_End_of_data {
            return MetadataError(.truncated, "truncated or damaged HEIC (\(describe(err)))")
        }
        return MetadataError(.corrupt, "corrupt HEIC: \(describe(err))")
    }

    static func describe(_ err: heif_error) -> String {
        oneLine(err.message.map { String(cString: $0) } ?? "unknown libheif error")
    }

    /// libheif quotes file bytes in its messages ("item construction method \u{2}"): newlines
    /// become spaces and other control characters "?", so the scan's message stays one printable
    /// line (found by Fuzz/run).
    static func oneLine(_ text: String) -> String {
        let line = text.split(whereSeparator: \.isNewline).joined(separator: " ").lowercased()
        return String(String.UnicodeScalarView(line.unicodeScalars.map {
            $0.value < 0x20 || (0x7F...0x9F).contains($0.value) ? "?" : $0
        }))
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

    deinit { shoebox_heif_image_handle_release(pointer) }

    /// The first metadata item of `type` (and content type, for "mime" items) no larger than `limit`.
    /// Throws `HEIFContext.Unresolved` when a probed block cannot be located in the file.
    func metadata(type: String, contentType: String?, limit: Int) throws -> [UInt8]? {
        let n = Int(shoebox_heif_image_handle_get_number_of_metadata_blocks(pointer, type))
        guard n > 0 else { return nil }
        var ids = [heif_item_id](repeating: 0, count: min(n, 64))
        let got = Int(shoebox_heif_image_handle_get_list_of_metadata_block_IDs(pointer, type, &ids, Int32(ids.count)))
        for id in ids.prefix(got) {
            if let contentType {
                guard let ct = shoebox_heif_image_handle_get_metadata_content_type(pointer, id),
                      String(cString: ct) == contentType else { continue }
            }
            let size = shoebox_heif_image_handle_get_metadata_size(pointer, id)
            guard size > 0, size <= limit else { continue }
            var out = [UInt8](repeating: 0, count: size)
            let err = out.withUnsafeMutableBytes { shoebox_heif_image_handle_get_metadata(pointer, id, $0.baseAddress) }
            guard err.code == heif_error_Ok else { continue }
            guard !context.stream.probing.isEmpty else { return out }
            guard let start = HEIFContext.locate(out) else { throw HEIFContext.Unresolved() }
            let real = try context.stream.source.read(at: start, length: size)
            guard real.count == size else { throw HEIFContext.Unresolved() }
            return real
        }
        return nil
    }
}
