import CHeif

/// A HEIF image's colour to sRGB: its ICC profile (`colr` of type `prof`/`rICC`) when there is
/// one, else its nclx box's primaries and transfer (an iPhone's Display P3 says colour_primaries
/// 12 there). No `colr` box at all: sRGB is assumed.
enum HEIFColor {
    static func toSRGB(_ pixels: inout [UInt8], handle: OpaquePointer) {
        let type = heif_image_handle_get_color_profile_type(handle)
        if type == heif_color_profile_type_prof || type == heif_color_profile_type_rICC {
            let size = heif_image_handle_get_raw_color_profile_size(handle)
            guard size > 0 else { return }
            var icc = [UInt8](repeating: 0, count: size)
            guard heif_image_handle_get_raw_color_profile(handle, &icc).code == heif_error_Ok else { return }
            ColorConversion.rgbToSRGB(&pixels, icc: icc)
            return
        }
        var nclx: UnsafeMutablePointer<heif_color_profile_nclx>?
        guard heif_image_handle_get_nclx_color_profile(handle, &nclx).code == heif_error_Ok, let nclx else { return }
        defer { heif_nclx_color_profile_free(nclx) }
        let n = nclx.pointee
        // 2 is "unspecified": libheif then fills in BT.709 chromaticities, which are sRGB's.
        let primaries = Primaries(
            red: (Double(n.color_primary_red_x), Double(n.color_primary_red_y)),
            green: (Double(n.color_primary_green_x), Double(n.color_primary_green_y)),
            blue: (Double(n.color_primary_blue_x), Double(n.color_primary_blue_y)),
            white: (Double(n.color_primary_white_x), Double(n.color_primary_white_y)))
        guard primaries.red.0 > 0, primaries.white.1 > 0 else { return }
        ColorConversion.rgbToSRGB(&pixels, primaries: primaries, transfer: .sRGB)
    }
}
