import Foundation
@testable import Imaging
@testable import Metadata

/// A grid HEIC as iPhones write them (a `grid` item whose `dimg` tiles are `hvc1` items of one
/// size, the output cropped from their mosaic), which libheif 1.15 cannot write: each tile is
/// encoded by libheif (HEIFWriter), its `hvcC` and data taken out and put in a new file, with an
/// optional `irot` on the grid.
enum HEIFGridWriter {
    static func write(_ image: RGBImage, tile: Int, to url: URL, quarterTurns: Int = 0) throws {
        let columns = (image.width + tile - 1) / tile, rows = (image.height + tile - 1) / tile
        var hvcC: ArraySlice<UInt8> = []
        var tiles: [[UInt8]] = []
        let scratch = url.deletingLastPathComponent().appendingPathComponent("tile.heic")
        for r in 0..<rows {
            for c in 0..<columns {
                try HEIFWriter.write(crop(image, x: c * tile, y: r * tile, side: tile), to: scratch)
                let bytes = [UInt8](try Data(contentsOf: scratch))
                let source = MemoryByteSource(bytes)
                let meta = ISOBMFF.topLevel(source).boxes.first { $0.type == fourCC("meta") }!
                let parsed = try HEIFMeta(Array(bytes[Int(meta.payloadStart)..<Int(meta.end)]))
                let id = parsed.primaryID!
                hvcC = try parsed.properties(of: id).first { $0.type == fourCC("hvcC") }!.payload
                tiles.append(try parsed.data(of: id, source, limit: bytes.count))
            }
        }
        let descriptor: [UInt8] = [0, 0, UInt8(rows - 1), UInt8(columns - 1)] + be16(image.width) + be16(image.height)
        let ids = (1...tiles.count + 1).map(UInt16.init)   // 1: the grid, then the tiles
        var props = box("hvcC", Array(hvcC)) + box("ispe", [0, 0, 0, 0] + be32(tile) + be32(tile))
        props += box("ispe", [0, 0, 0, 0] + be32(image.width) + be32(image.height))
        if quarterTurns != 0 { props += box("irot", [UInt8(quarterTurns)]) }
        var ipma: [UInt8] = be32(ids.count)
        ipma += be16(1) + (quarterTurns != 0 ? [2, 0x83, 0x84] : [1, 0x83])
        for id in ids.dropFirst() { ipma += be16(Int(id)) + [2, 0x81, 0x82] }
        let infe = ids.map { id in box("infe", [2, 0, 0, 0] + be16(Int(id)) + [0, 0] + Array((id == 1 ? "grid" : "hvc1").utf8) + [0]) }
        let iinf = box("iinf", [0, 0, 0, 0] + be16(ids.count) + infe.joined())
        let iref = box("iref", [0, 0, 0, 0] + box("dimg", be16(1) + be16(tiles.count) + ids.dropFirst().flatMap { be16(Int($0)) }))
        let iprp = box("iprp", box("ipco", props) + box("ipma", [0, 0, 0, 0] + ipma))
        let ftyp = box("ftyp", Array("heic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8))
        let hdlr = box("hdlr", [0, 0, 0, 0, 0, 0, 0, 0] + Array("pict".utf8) + [UInt8](repeating: 0, count: 13))
        let pitm = box("pitm", [0, 0, 0, 0] + be16(1))
        // iloc v0, 4-byte offsets and lengths: its size does not depend on the offsets it holds.
        let payloads = [descriptor] + tiles
        let ilocSize = 8 + 4 + 2 + 2 + payloads.count * (2 + 2 + 2 + 8)
        let metaSize = 12 + hdlr.count + pitm.count + iinf.count + ilocSize + iref.count + iprp.count
        var offset = ftyp.count + metaSize + 8
        var iloc: [UInt8] = [0, 0, 0, 0, 0x44, 0x00] + be16(payloads.count)
        for (id, p) in zip(ids, payloads) {
            iloc += be16(Int(id)) + [0, 0] + be16(1) + be32(offset) + be32(p.count)
            offset += p.count
        }
        let meta = box("meta", [0, 0, 0, 0] + hdlr + pitm + iinf + box("iloc", iloc) + iref + iprp)
        precondition(meta.count == metaSize)
        try Data(ftyp + meta + box("mdat", payloads.flatMap { $0 })).write(to: url)
    }

    static func crop(_ image: RGBImage, x: Int, y: Int, side: Int) -> RGBImage {
        var out = [UInt8](repeating: 0, count: side * side * 3)
        for row in 0..<side {
            for col in 0..<side {
                let sx = min(x + col, image.width - 1), sy = min(y + row, image.height - 1)
                for k in 0..<3 { out[(row * side + col) * 3 + k] = image.pixels[(sy * image.width + sx) * 3 + k] }
            }
        }
        return RGBImage(width: side, height: side, pixels: out)
    }

    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] { be32(payload.count + 8) + Array(type.utf8) + payload }
    static func be16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    static func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
}
