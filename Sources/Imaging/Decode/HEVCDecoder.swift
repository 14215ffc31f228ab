// Imported for its link: the C target's calls into libde265 need -lde265 in links made by hand
// (Fuzz/run), which see only Swift modules' autolink entries.
import CDe265
import CStreamDecode
import Foundation
import Metadata

/// A HEIC's primary image decoded by handing its HEVC data (found by `HEIFItems`) to libde265
/// directly: libheif 1.15 spent a quarter of a 12-megapixel decode copying planes, and decoded
/// a grid's tiles one after another. Here a single image is decoded with libde265's wavefront
/// threads and its planes are read where the decoder left them; a grid's tiles are decoded in
/// parallel into one set of planes. The planes are converted and reduced as libheif's are
/// (`HEIFPlanes.reduce`: the nclx matrix and range, else the stream's), then `clap`, `irot` and
/// `imir` are applied and the colour brought to sRGB as `HEIFColor` does.
///
/// nil where libheif decodes instead: a thumbnail serves the size asked for, alpha, 10-bit, a
/// layout `HEIFItems` refuses, an odd crop, or data libde265 does not decode (libheif then gives
/// its own error for a damaged file).
enum HEVCDecoder {
    static let threads = min(4, max(1, ProcessInfo.processInfo.activeProcessorCount))
    /// SHOEBOX_HEIC_LIBHEIF=1: every HEIC through libheif, as before this path (bench/heic.py
    /// measures both in one run).
    static let disabled = ProcessInfo.processInfo.environment["SHOEBOX_HEIC_LIBHEIF"] == "1"

    static func decode(fd: Int32, name: String, minLongSide: Int, limits: DecodeLimits) throws -> DecodedImage? {
        guard !disabled else { return nil }
        let source = FileByteSource(fd: fd, size: try FileBytes.size(fd, name: name))
        guard let items = try? HEIFItems.primary(source),
              !items.thumbnailLongSides.contains(where: { $0 >= minLongSide }),
              limits.allows(width: items.width, height: items.height) else { return nil }
        guard let decoded = planes(items) else { return nil }
        defer { shoebox_hevc_free(decoded) }
        var src = shoebox_ycbcr()
        var w: Int32 = 0, h: Int32 = 0, vuiMatrix: Int32 = 0, vuiFull: Int32 = 0
        shoebox_hevc_planes(decoded, &src, &w, &h, &vuiMatrix, &vuiFull)
        if case .nclx(_, _, let matrix, let fullRange) = items.nclx {
            src.matrix = Int32(matrix)
            src.full_range = fullRange ? 1 : 0
        } else {
            src.matrix = vuiMatrix
            src.full_range = vuiFull
        }
        guard shoebox_ycbcr_supported(src.matrix) != 0 else { return nil }
        // The coded picture may be padded (x265 rounds odd sizes up): cut to `ispe` when it holds
        // it. libheif 1.15 writes a turned image's `ispe` turned (the display size) and does not
        // cut then: neither is it cut here. A grid's planes have its output size already.
        var width = Int(w), height = Int(h)
        if width >= items.width, height >= items.height { (width, height) = (items.width, items.height) }
        var turns = [HEIFItems.Transform]()
        for t in items.transforms {
            guard case .crop(let x, let y, let cw, let ch) = t else { turns.append(t); continue }
            // Only crops on whole chroma samples: the planes are then cut by moving pointers.
            guard x % (1 << Int(src.chroma_shift_x)) == 0, y % (1 << Int(src.chroma_shift_y)) == 0,
                  x + cw <= width, y + ch <= height else { return nil }
            src.y += y * Int(src.y_stride) + x
            if src.cb != nil {
                let cx = x >> Int(src.chroma_shift_x), cy = y >> Int(src.chroma_shift_y)
                src.cb += cy * Int(src.cb_stride) + cx
                src.cr += cy * Int(src.cr_stride) + cx
            }
            (width, height) = (cw, ch)
        }
        let factor = BoxReduction.factor(longSide: max(width, height), minLongSide: minLongSide)
        // Blocks anchored at the corner that ends up top left, as when libheif turns first.
        let corner = Orientation.apply(1, to: RGBImage(width: 2, height: 2, pixels: [0, 0, 0, 1, 0, 0, 2, 0, 0, 3, 0, 0]))
        let upperLeft = turns.reduce(corner) { Orientation.apply(orientation($1), to: $0) }.pixels[0]
        let lead = (x: upperLeft % 2 == 1 ? (factor - width % factor) % factor : 0,
                    y: upperLeft >= 2 ? (factor - height % factor) % factor : 0)
        guard var image = HEIFPlanes.reduce(&src, width: width, height: height, alpha: false, premultiplied: false,
                                            factor: factor, lead: lead) else {
            throw ImagingError(.tooLarge, name, "out of memory reducing a \(width)×\(height) HEIF image")
        }
        for t in turns { image = Orientation.apply(orientation(t), to: image) }
        toSRGB(&image.pixels, items.colour)
        let swaps = turns.filter { if case .rotate(let q) = $0 { return q % 2 == 1 } else { return false } }.count % 2 == 1
        return DecodedImage(image: image, fullWidth: swaps ? height : width, fullHeight: swaps ? width : height,
                            damaged: false, source: factor == 1 ? .full : .boxReduced(factor: factor))
    }

    /// The tiles decoded (nil when libde265 refuses them: libheif then tries).
    private static func planes(_ items: HEIFItems) -> OpaquePointer? {
        // One buffer for every tile's parameter sets and data, so the C side gets stable pointers.
        var blob: [UInt8] = []
        blob.reserveCapacity(items.tiles.reduce(0) { $0 + $1.parameterSets.count + $1.data.count })
        var spans: [(params: Range<Int>, data: Range<Int>, lengthSize: Int)] = []
        for t in items.tiles {
            let p = blob.count
            blob += t.parameterSets
            let d = blob.count
            blob += t.data
            spans.append((p..<d, d..<blob.count, t.lengthSize))
        }
        var message = [CChar](repeating: 0, count: 200)
        var unsupported: Int32 = 0
        return blob.withUnsafeBufferPointer { bytes -> OpaquePointer? in
            let base = bytes.baseAddress!
            let tiles = spans.map {
                shoebox_hevc_tile(params: base + $0.params.lowerBound, params_length: $0.params.count,
                                  data: base + $0.data.lowerBound, data_length: $0.data.count, length_size: Int32($0.lengthSize))
            }
            let single = items.tiles.count == 1
            return shoebox_hevc_decode(tiles, Int32(tiles.count), Int32(items.columns), Int32(single ? 1 : items.width),
                                       Int32(single ? 1 : items.height), Int32(threads), &message, message.count, &unsupported)
        }
    }

    /// EXIF orientation doing the same as a HEIF transformation (irot turns anticlockwise).
    private static func orientation(_ t: HEIFItems.Transform) -> Int {
        switch t {
        case .rotate(let q): return [1, 8, 3, 6][q & 3]
        // The direction libheif 1.15 gives each axis value (HEVCDirectTests compare with it).
        case .mirror(let vertical): return vertical ? 4 : 2
        case .crop: return 1
        }
    }

    /// `HEIFColor`'s conversion from what `HEIFItems` read: the ICC profile, else the nclx
    /// primaries (libheif's chromaticities for each H.273 code), else sRGB as it is.
    private static func toSRGB(_ pixels: inout [UInt8], _ colour: HEIFItems.Colour) {
        switch colour {
        case .icc(let icc): ColorConversion.rgbToSRGB(&pixels, icc: icc)
        case .nclx(let code, _, _, _):
            guard let primaries = Primaries.h273[code] else { return }
            ColorConversion.rgbToSRGB(&pixels, primaries: primaries, transfer: .sRGB)
        case .none: return
        }
    }
}

extension Primaries {
    static let d65 = (0.3127, 0.3290)
    /// ITU-T H.273 colour_primaries (the values libheif fills an nclx profile with).
    static let h273: [Int: Primaries] = [
        1: .sRGB,
        4: Primaries(red: (0.67, 0.33), green: (0.21, 0.71), blue: (0.14, 0.08), white: (0.310, 0.316)),
        5: Primaries(red: (0.64, 0.33), green: (0.29, 0.60), blue: (0.15, 0.06), white: d65),
        6: Primaries(red: (0.630, 0.340), green: (0.310, 0.595), blue: (0.155, 0.070), white: d65),
        7: Primaries(red: (0.630, 0.340), green: (0.310, 0.595), blue: (0.155, 0.070), white: d65),
        8: Primaries(red: (0.681, 0.319), green: (0.243, 0.692), blue: (0.145, 0.049), white: (0.310, 0.316)),
        9: Primaries(red: (0.708, 0.292), green: (0.170, 0.797), blue: (0.131, 0.046), white: d65),
        11: Primaries(red: (0.680, 0.320), green: (0.265, 0.690), blue: (0.150, 0.060), white: (0.314, 0.351)),
        12: Primaries(red: (0.680, 0.320), green: (0.265, 0.690), blue: (0.150, 0.060), white: d65),
        22: Primaries(red: (0.630, 0.340), green: (0.295, 0.605), blue: (0.155, 0.077), white: d65),
    ]
}
