import CHeif
import CStreamDecode

/// A HEIF image taken as libheif decodes it natively (YCbCr planes, grids assembled in YCbCr)
/// and converted to RGB here a row at a time while box-reducing, so libheif never makes its
/// full-size RGB copy: at 100 megapixels that copy (302 MB, beside the 151 MB of 4:2:0 planes
/// it is made from) was most of the peak. The conversion is libheif 1.15's: the image's nclx
/// matrix and range (BT.601 full range when it has none), nearest chroma sample.
enum HEIFPlanes {
    /// nil when the planes are not a layout converted here (RGB-coded, an unusual matrix):
    /// the caller then asks libheif for RGB.
    static func reduce(_ image: OpaquePointer, handle: OpaquePointer, alpha: Bool, premultiplied: Bool,
                       factor: Int) -> RGBImage? {
        let colorspace = heif_image_get_colorspace(image), chroma = heif_image_get_chroma_format(image)
        let shifts: (x: Int32, y: Int32)
        switch chroma {
        case heif_chroma_420: shifts = (1, 1)
        case heif_chroma_422: shifts = (1, 0)
        case heif_chroma_444, heif_chroma_monochrome: shifts = (0, 0)
        default: return nil
        }
        guard colorspace == heif_colorspace_YCbCr || colorspace == heif_colorspace_monochrome else { return nil }
        let (matrix, fullRange) = matrixAndRange(image, handle)
        guard shoebox_ycbcr_supported(matrix) != 0 else { return nil }
        let w = Int(heif_image_get_width(image, heif_channel_Y)), h = Int(heif_image_get_height(image, heif_channel_Y))
        guard w > 0, h > 0 else { return nil }
        var src = shoebox_ycbcr()
        src.matrix = matrix
        src.full_range = fullRange ? 1 : 0
        src.chroma_shift_x = shifts.x
        src.chroma_shift_y = shifts.y
        guard let y = plane(image, heif_channel_Y, &src.y_stride, &src.bits) else { return nil }
        src.y = y
        if colorspace == heif_colorspace_YCbCr {
            guard let cb = plane(image, heif_channel_Cb, &src.cb_stride, &src.chroma_bits),
                  let cr = plane(image, heif_channel_Cr, &src.cr_stride, &src.chroma_bits) else { return nil }
            src.cb = cb
            src.cr = cr
        }
        let withAlpha = alpha && heif_image_has_channel(image, heif_channel_Alpha) != 0
        if withAlpha { src.alpha = plane(image, heif_channel_Alpha, &src.alpha_stride, &src.alpha_bits) }

        return reduce(&src, width: w, height: h, alpha: withAlpha, premultiplied: premultiplied, factor: factor)
    }

    /// Planes described by `src` (its tables made and freed here) converted to RGB and reduced by
    /// `factor`, alpha composited onto white. Shared with HEVCDecoder, which hands libde265's planes.
    /// `lead`: pixels missing before the first column and row (see shoebox_box).
    static func reduce(_ src: inout shoebox_ycbcr, width w: Int, height h: Int, alpha withAlpha: Bool,
                       premultiplied: Bool, factor: Int, lead: (x: Int, y: Int) = (0, 0)) -> RGBImage? {
        guard shoebox_ycbcr_prepare(&src) == 0 else { return nil }
        defer { shoebox_ycbcr_free(&src) }
        let rw = (w + factor - 1) / factor, rh = (h + factor - 1) / factor
        var pixels = [UInt8](repeating: 0, count: rw * rh * 3)
        var scratch = [UInt8](repeating: 0, count: w * 4)
        // Opaque, reduced (4 for a 12 MP phone photo at 1008 px, 3 at 1024): averaged in YCbCr,
        // converted reduced.
        if !withAlpha, lead == (0, 0), shoebox_ycbcr_reduce_supported(&src, Int32(factor)) != 0 {
            let ok = pixels.withUnsafeMutableBufferPointer {
                shoebox_ycbcr_reduce(&src, Int32(w), Int32(h), Int32(factor), $0.baseAddress) == 0
            }
            return ok ? RGBImage(width: rw, height: rh, pixels: pixels) : nil
        }
        let ok = pixels.withUnsafeMutableBufferPointer { out -> Bool in
            var box = shoebox_box()
            guard shoebox_box_init(&box, Int32(w + lead.x), Int32(h + lead.y), Int32(factor), withAlpha ? 4 : 3,
                                   premultiplied ? 1 : 0, 1, out.baseAddress) == 0 else { return false }
            defer { shoebox_box_free(&box) }
            box.lead_x = Int32(lead.x)
            box.lead_y = Int32(lead.y)
            scratch.withUnsafeMutableBufferPointer { row in
                for y in 0..<h {
                    shoebox_box_add_ycbcr(&box, &src, Int32(y), row.baseAddress)
                    if (y + 1 + lead.y) % factor == 0 || y + 1 == h { shoebox_box_flush(&box) }
                }
            }
            return true
        }
        return ok ? RGBImage(width: rw, height: rh, pixels: pixels) : nil
    }

    private static func plane(_ image: OpaquePointer, _ channel: heif_channel, _ stride: inout Int32,
                              _ bits: inout Int32) -> UnsafePointer<UInt8>? {
        let depth = heif_image_get_bits_per_pixel_range(image, channel)
        guard depth >= 1, depth <= 16, let p = heif_image_get_plane_readonly(image, channel, &stride) else { return nil }
        bits = depth
        return p
    }

    /// The decoded image's nclx (libheif gives it the file's `colr` box), else the handle's,
    /// else BT.601 full range: what libheif's own conversion assumes.
    private static func matrixAndRange(_ image: OpaquePointer, _ handle: OpaquePointer) -> (Int32, Bool) {
        var nclx: UnsafeMutablePointer<heif_color_profile_nclx>?
        if heif_image_get_nclx_color_profile(image, &nclx).code != heif_error_Ok || nclx == nil {
            nclx = nil
            if heif_image_handle_get_nclx_color_profile(handle, &nclx).code != heif_error_Ok { nclx = nil }
        }
        guard let nclx else { return (6, true) }
        defer { heif_nclx_color_profile_free(nclx) }
        return (Int32(nclx.pointee.matrix_coefficients.rawValue), nclx.pointee.full_range_flag != 0)
    }
}
