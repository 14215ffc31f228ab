/// The primary image of a HEIF file as its `meta` box describes it (ISO/IEC 23008-12): the HEVC
/// data of the image or of its grid's tiles, its transformations and colour, for a decoder that
/// feeds libde265 directly (Imaging's HEVCDecoder). Only the common layouts are taken: an `hvc1`
/// item, or a `grid` of `hvc1` tiles, 8-bit or not (the decoder checks), without alpha. Anything
/// else is a `Refusal`, and libheif, which reads every layout, decodes the file instead.
///
/// The bytes are untrusted: the `meta` box is read whole (at most `maximumMetaSize`) and parsed
/// with `ByteCursor`; every count, offset and length is checked before it is used.
public struct HEIFItems: Sendable {
    /// Why this reader does not take a file (an unusual layout, or damage): not shown to users,
    /// since libheif then reads the file and gives its own answer.
    public struct Refusal: Error, CustomStringConvertible, Sendable {
        public var description: String
        init(_ why: String) { description = why }
    }

    /// One coded image: its parameter sets (NAL units each after a 4-byte length) and data (NAL
    /// units each after `lengthSize` bytes of length), as `shoebox_hevc_tile` takes them.
    public struct Coded: Sendable {
        public var parameterSets: [UInt8]
        public var lengthSize: Int
        public var data: [UInt8]
    }

    /// Transformative properties, in the order they apply (the order of the item's `ipma`).
    public enum Transform: Sendable, Equatable {
        /// `clap`: the crop's left and top edges and size, in pixels of the image before it.
        case crop(x: Int, y: Int, width: Int, height: Int)
        /// `irot`: turned anticlockwise by quarter turns (1…3).
        case rotate(quarterTurns: Int)
        /// `imir`: mirrored about a vertical axis (left and right swap) or a horizontal one.
        case mirror(aboutVerticalAxis: Bool)
    }

    /// A `colr` box: an nclx description, an ICC profile, or none.
    public enum Colour: Sendable, Equatable {
        case none
        case nclx(primaries: Int, transfer: Int, matrix: Int, fullRange: Bool)
        case icc([UInt8])
    }

    /// The coded image's size (a grid's output size), before the transformations; each side below 2³¹,
    /// so `width * height` cannot overflow.
    public var width: Int, height: Int
    /// One coded image, or a grid's tiles row by row, `columns` across.
    public var tiles: [Coded]
    public var columns: Int
    public var transforms: [Transform]
    public var colour: Colour
    /// The nclx box's matrix and range when the file has one beside an ICC profile.
    public var nclx: Colour
    /// Long sides of the thumbnails of the primary image.
    public var thumbnailLongSides: [Int]

    public static let maximumMetaSize = 4 << 20

    /// The primary image's description and coded data, read from `source`.
    public static func primary(_ source: ByteSource) throws(Refusal) -> HEIFItems {
        let top = ISOBMFF.topLevel(source)
        guard let meta = top.boxes.first(where: { $0.type == fourCC("meta") }) else { throw Refusal("no 'meta' box") }
        guard meta.payloadSize >= 4, meta.payloadSize <= Int64(maximumMetaSize),
              let bytes = try? source.read(at: meta.payloadStart, length: Int(meta.payloadSize)),
              bytes.count == Int(meta.payloadSize) else { throw Refusal("'meta' box unreadable or over \(maximumMetaSize) bytes") }
        let boxes = try HEIFMeta(bytes)
        return try boxes.primaryItems(source)
    }
}

/// The boxes of a `meta` payload, parsed.
struct HEIFMeta {
    struct Location { var method: Int; var extents: [(offset: Int64, length: Int64)] }

    var handler: UInt32 = 0
    var primaryID: UInt32?
    var types: [UInt32: UInt32] = [:]
    var locations: [UInt32: Location] = [:]
    /// iref: (type, from, to…) in file order.
    var references: [(type: UInt32, from: UInt32, to: [UInt32])] = []
    /// ipco's properties: type and payload (after the box header).
    var properties: [(type: UInt32, payload: ArraySlice<UInt8>)] = []
    /// ipma: an item's property indexes (1-based, in order).
    var associations: [UInt32: [Int]] = [:]
    var idat: ArraySlice<UInt8> = []

    typealias Refusal = HEIFItems.Refusal

    init(_ bytes: [UInt8]) throws(Refusal) {
        do {
            for box in try Self.children(bytes[4...]) {   // after meta's version and flags
                var c = ByteCursor(Array(box.payload))
                switch box.type {
                case fourCC("hdlr"): try c.skip(8); handler = try c.u32()
                case fourCC("pitm"):
                    let version = try c.u8()
                    try c.skip(3)
                    primaryID = version == 0 ? UInt32(try c.u16()) : try c.u32()
                case fourCC("iinf"): try readItemInfo(box.payload)
                case fourCC("iloc"): try readLocations(&c)
                case fourCC("iref"): try readReferences(box.payload)
                case fourCC("iprp"): try readProperties(box.payload)
                case fourCC("idat"): idat = box.payload
                default: break
                }
            }
        } catch let refusal as Refusal {
            throw refusal
        } catch {
            throw Refusal("'meta' box malformed (a box claims more bytes than it holds)")
        }
        guard handler == fourCC("pict") else { throw Refusal("not a picture ('hdlr' is '\(fourCC(handler))')") }
    }

    /// Boxes inside a byte range (size 0: to its end; size 1: a 64-bit size).
    static func children(_ bytes: ArraySlice<UInt8>) throws -> [(type: UInt32, payload: ArraySlice<UInt8>)] {
        var out: [(UInt32, ArraySlice<UInt8>)] = []
        var pos = bytes.startIndex
        while pos < bytes.endIndex {
            guard bytes.endIndex - pos >= 8, out.count < ISOBMFF.maximumBoxesPerLevel else { throw OutOfBytes() }
            var c = ByteCursor(Array(bytes[pos..<min(pos + 16, bytes.endIndex)]))
            let size32 = try c.u32(), type = try c.u32()
            var header = 8, size: UInt64 = UInt64(size32)
            if size32 == 1 { size = try c.u64(); header = 16 } else if size32 == 0 { size = UInt64(bytes.endIndex - pos) }
            guard size >= UInt64(header), size <= UInt64(bytes.endIndex - pos) else { throw OutOfBytes() }
            out.append((type, bytes[(pos + header)..<(pos + Int(size))]))
            pos += Int(size)
        }
        return out
    }

    mutating func readItemInfo(_ payload: ArraySlice<UInt8>) throws {
        var c = ByteCursor(Array(payload))
        let version = try c.u8()
        try c.skip(3)
        try c.skip(version == 0 ? 2 : 4)
        for infe in try Self.children(payload.dropFirst(c.position)) where infe.type == fourCC("infe") {
            var e = ByteCursor(Array(infe.payload))
            let v = try e.u8()
            guard v >= 2 else { continue }   // versions 0 and 1 name no item type
            try e.skip(3)
            let id = v == 2 ? UInt32(try e.u16()) : try e.u32()
            try e.skip(2)
            types[id] = try e.u32()
        }
    }

    mutating func readLocations(_ c: inout ByteCursor) throws {
        let version = try c.u8()
        try c.skip(3)
        guard version <= 2 else { throw Refusal("'iloc' version \(version)") }
        let sizes = try c.u8(), more = try c.u8()
        let offsetSize = Int(sizes >> 4), lengthSize = Int(sizes & 15), baseSize = Int(more >> 4)
        let indexSize = version >= 1 ? Int(more & 15) : 0
        let count = version < 2 ? Int(try c.u16()) : Int(try c.u32())
        func sized(_ n: Int) throws -> Int64 {
            switch n {
            case 0: return 0
            case 4: return Int64(try c.u32())
            case 8:
                let v = try c.u64()
                guard v <= UInt64(Int64.max / 2) else { throw Refusal("'iloc' offset out of range") }
                return Int64(v)
            default: throw Refusal("'iloc' field of \(n) bytes")
            }
        }
        for _ in 0..<count {
            let id = version < 2 ? UInt32(try c.u16()) : try c.u32()
            let method = version >= 1 ? Int(try c.u16() & 15) : 0
            try c.skip(2)   // data_reference_index: 0, this file
            let base = try sized(baseSize)
            let extentCount = Int(try c.u16())
            var extents: [(Int64, Int64)] = []
            for _ in 0..<extentCount {
                _ = try sized(indexSize)
                extents.append((base + (try sized(offsetSize)), try sized(lengthSize)))
            }
            locations[id] = Location(method: method, extents: extents)
        }
    }

    mutating func readReferences(_ payload: ArraySlice<UInt8>) throws {
        var c = ByteCursor(Array(payload))
        let version = try c.u8()
        for ref in try Self.children(payload.dropFirst(4)) {
            var r = ByteCursor(Array(ref.payload))
            let from = version == 0 ? UInt32(try r.u16()) : try r.u32()
            let count = Int(try r.u16())
            var to: [UInt32] = []
            for _ in 0..<count { to.append(version == 0 ? UInt32(try r.u16()) : try r.u32()) }
            references.append((ref.type, from, to))
        }
    }

    mutating func readProperties(_ payload: ArraySlice<UInt8>) throws {
        for box in try Self.children(payload) {
            if box.type == fourCC("ipco") {
                properties = try Self.children(box.payload).map { ($0.type, $0.payload) }
            } else if box.type == fourCC("ipma") {
                var c = ByteCursor(Array(box.payload))
                let version = try c.u8()
                let flags = (try c.u16(), try c.u8()).1
                for _ in 0..<Int(try c.u32()) {
                    let id = version == 0 ? UInt32(try c.u16()) : try c.u32()
                    var list: [Int] = []
                    for _ in 0..<Int(try c.u8()) {
                        list.append(flags & 1 != 0 ? Int(try c.u16() & 0x7FFF) : Int(try c.u8() & 0x7F))
                    }
                    associations[id, default: []] += list
                }
            }
        }
    }
}
