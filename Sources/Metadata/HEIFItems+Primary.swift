/// The primary image picked out of the parsed `meta` boxes: its coded data read, its properties
/// interpreted.
extension HEIFMeta {
    /// Properties a decoder of the primary image may leave aside: pixel depth (the stream says
    /// it), aspect ratio (libheif ignores it too), the tile's place in an overlay, layer selection
    /// of a single-layer stream. Any other, unknown, property makes the reader refuse.
    static let ignoredProperties: Set<UInt32> = [fourCC("pixi"), fourCC("pasp"), fourCC("rloc"), fourCC("lsel")]

    func primaryItems(_ source: ByteSource) throws(Refusal) -> HEIFItems {
        guard let id = primaryID, let type = types[id] else { throw Refusal("no primary item") }
        if references.contains(where: { $0.type == fourCC("auxl") && $0.to.contains(id) && isAlpha($0.from) }) {
            throw Refusal("the primary image has alpha")
        }
        var items: HEIFItems
        switch type {
        case fourCC("hvc1"):
            let (w, h) = try size(of: id)
            items = HEIFItems(width: w, height: h, tiles: [try coded(id, source)], columns: 1, transforms: [],
                              colour: .none, nclx: .none, thumbnailLongSides: [])
        case fourCC("grid"):
            items = try grid(id, source)
        default:
            throw Refusal("primary item of type '\(fourCC(type))'")
        }
        try describe(id, into: &items)
        items.thumbnailLongSides = references.filter { $0.type == fourCC("thmb") && $0.to.contains(id) }
            .compactMap { try? size(of: $0.from) }.map { max($0.0, $0.1) }
        return items
    }

    /// Transformations and colour from the item's properties, in `ipma` order.
    func describe(_ id: UInt32, into items: inout HEIFItems) throws(Refusal) {
        do {
            for p in try properties(of: id) {
                var c = ByteCursor(Array(p.payload))
                switch p.type {
                case fourCC("irot"): items.transforms.append(.rotate(quarterTurns: Int(try c.u8() & 3)))
                case fourCC("imir"): items.transforms.append(.mirror(aboutVerticalAxis: try c.u8() & 1 == 0))
                case fourCC("clap"):
                    // After a turn the crop would be in turned coordinates: left to libheif.
                    guard items.transforms.isEmpty else { throw Refusal("'clap' after another transformation") }
                    items.transforms.append(try crop(&c, width: items.width, height: items.height))
                case fourCC("colr"):
                    let kind = try c.u32()
                    if kind == fourCC("nclx"), items.nclx == .none {
                        items.nclx = .nclx(primaries: Int(try c.u16()), transfer: Int(try c.u16()), matrix: Int(try c.u16()),
                                           fullRange: try c.u8() & 0x80 != 0)
                    } else if kind == fourCC("prof") || kind == fourCC("rICC"), case .none = items.colour {
                        items.colour = .icc(Array(p.payload.dropFirst(4)))
                    }
                case fourCC("hvcC"), fourCC("ispe"), fourCC("auxC"): break
                default:
                    guard Self.ignoredProperties.contains(p.type) else { throw Refusal("property '\(fourCC(p.type))'") }
                }
            }
        } catch let refusal as Refusal {
            throw refusal
        } catch {
            throw Refusal("a property of the primary image is malformed")
        }
        // libheif's choice: the ICC profile governs the colours when there is one, else the nclx box.
        if case .none = items.colour { items.colour = items.nclx }
    }

    /// `clap` resolved as libheif 1.15 does: centred on the image's centre moved by the offset,
    /// the left and top edges rounded down.
    func crop(_ c: inout ByteCursor, width: Int, height: Int) throws -> HEIFItems.Transform {
        var v: [Double] = []
        for i in 0..<8 {
            let raw = try c.u32()
            v.append(i == 4 || i == 6 ? Double(Int32(bitPattern: raw)) : Double(raw))
        }
        guard v[1] > 0, v[3] > 0, v[5] > 0, v[7] > 0 else { throw Refusal("'clap' with a zero denominator") }
        let cw = v[0] / v[1], ch = v[2] / v[3]
        let left = Int((v[4] / v[5] + Double(width - 1) / 2 - (cw - 1) / 2).rounded(.down))
        let top = Int((v[6] / v[7] + Double(height - 1) / 2 - (ch - 1) / 2).rounded(.down))
        let w = Int(cw.rounded()), h = Int(ch.rounded())
        guard left >= 0, top >= 0, w > 0, h > 0, left + w <= width, top + h <= height else {
            throw Refusal("'clap' outside the image")
        }
        return .crop(x: left, y: top, width: w, height: h)
    }

    func properties(of id: UInt32) throws(Refusal) -> [(type: UInt32, payload: ArraySlice<UInt8>)] {
        try (associations[id] ?? []).filter { $0 != 0 }.map { (index: Int) throws(Refusal) in
            guard index <= properties.count else { throw Refusal("'ipma' names property \(index) of \(properties.count)") }
            return properties[index - 1]
        }
    }

    func size(of id: UInt32) throws(Refusal) -> (Int, Int) {
        guard let ispe = try properties(of: id).first(where: { $0.type == fourCC("ispe") }) else {
            throw Refusal("item \(id) has no size ('ispe')")
        }
        var c = ByteCursor(Array(ispe.payload))
        guard (try? c.skip(4)) != nil, let w = try? c.u32(), let h = try? c.u32(), w > 0, h > 0 else {
            throw Refusal("item \(id) has a malformed size")
        }
        return try Self.checked(Int(w), Int(h))
    }

    /// A size whose sides stay below 2³¹, libheif's own limit: its area then fits in an `Int`
    /// (two sides of 2³² would overflow the product every caller compares with its pixel limit).
    static func checked(_ width: Int, _ height: Int) throws(Refusal) -> (Int, Int) {
        guard width <= Int(Int32.max), height <= Int(Int32.max) else { throw Refusal("image size \(width)×\(height) beyond 2³¹ − 1") }
        return (width, height)
    }

    func isAlpha(_ id: UInt32) -> Bool {
        guard let auxC = try? properties(of: id).first(where: { $0.type == fourCC("auxC") }) else { return false }
        // "urn:mpeg:hevc:2015:auxid:1" (heif-enc's), the AVC one, or MPEG-B's "…:auxiliary:alpha".
        let type = String(decoding: auxC.payload.dropFirst(4).prefix { $0 != 0 }, as: UTF8.self)
        return type.hasSuffix("auxid:1") || type.contains("alpha")
    }

    /// A `grid` item: its descriptor (ISO/IEC 23008-12 6.6.2.3.2) and its `dimg` tiles in order.
    func grid(_ id: UInt32, _ source: ByteSource) throws(Refusal) -> HEIFItems {
        var c = ByteCursor(try data(of: id, source, limit: 64))
        guard let version = try? c.u8(), version == 0, let flags = try? c.u8(), let rows = try? c.u8(),
              let columns = try? c.u8() else { throw Refusal("grid descriptor malformed") }
        let w: Int?, h: Int?
        if flags & 1 == 0 { w = (try? c.u16()).map(Int.init); h = (try? c.u16()).map(Int.init) }
        else { w = (try? c.u32()).map(Int.init); h = (try? c.u32()).map(Int.init) }
        guard let w, let h, w > 0, h > 0 else { throw Refusal("grid descriptor malformed") }
        _ = try Self.checked(w, h)
        guard let tileIDs = references.first(where: { $0.type == fourCC("dimg") && $0.from == id })?.to,
              tileIDs.count == (Int(rows) + 1) * (Int(columns) + 1) else { throw Refusal("grid without its tiles") }
        var tiles: [HEIFItems.Coded] = []
        for tile in tileIDs {
            guard types[tile] == fourCC("hvc1") else { throw Refusal("grid tile not HEVC") }
            tiles.append(try coded(tile, source))
        }
        return HEIFItems(width: w, height: h, tiles: tiles, columns: Int(columns) + 1, transforms: [],
                         colour: .none, nclx: .none, thumbnailLongSides: [])
    }

    /// An `hvc1` item: its `hvcC` parameter sets and its data.
    func coded(_ id: UInt32, _ source: ByteSource) throws(Refusal) -> HEIFItems.Coded {
        guard let hvcC = try properties(of: id).first(where: { $0.type == fourCC("hvcC") }) else {
            throw Refusal("HEVC item without 'hvcC'")
        }
        var c = ByteCursor(Array(hvcC.payload))
        var params: [UInt8] = []
        var lengthSize = 4
        do {
            try c.skip(21)
            lengthSize = Int(try c.u8() & 3) + 1
            for _ in 0..<Int(try c.u8()) {
                try c.skip(1)
                for _ in 0..<Int(try c.u16()) {
                    let n = Int(try c.u16())
                    params += [0, 0, UInt8(n >> 8), UInt8(n & 0xFF)] + (try c.take(n))
                }
            }
        } catch {
            throw Refusal("'hvcC' malformed")
        }
        return HEIFItems.Coded(parameterSets: params, lengthSize: lengthSize, data: try data(of: id, source, limit: Int(source.count)))
    }

    /// An item's bytes: its extents in the file, or in `idat`.
    func data(of id: UInt32, _ source: ByteSource, limit: Int) throws(Refusal) -> [UInt8] {
        guard let location = locations[id], !location.extents.isEmpty else { throw Refusal("item \(id) has no location") }
        var out: [UInt8] = []
        for (offset, length) in location.extents {
            guard length > 0, length <= Int64(limit - out.count) else { throw Refusal("item \(id) has an extent of \(length) bytes") }
            switch location.method {
            case 0:
                guard offset <= source.count - length else { throw Refusal("item \(id)'s data lies past the end of the file") }
                guard let bytes = try? source.read(at: offset, length: Int(length)), bytes.count == Int(length) else {
                    throw Refusal("item \(id)'s data unreadable")
                }
                out += bytes
            case 1:
                guard offset <= Int64(idat.count) - length else { throw Refusal("item \(id)'s data lies past 'idat'") }
                let start = idat.startIndex + Int(offset)
                out += idat[start..<(start + Int(length))]
            default:
                throw Refusal("item \(id) built from other items")
            }
        }
        return out
    }
}
