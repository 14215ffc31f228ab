import Foundation
import CHeif
@testable import Imaging

/// HEIC files written through libheif's encoder, for what heif-enc 1.15 cannot be asked for:
/// `irot`/`imir` from an orientation (heif-enc keeps a JPEG's EXIF tag instead) and an nclx box
/// with chosen primaries.
enum HEIFWriter {
    struct Failure: Error, CustomStringConvertible { var description: String }

    static func write(_ image: RGBImage, to url: URL, orientation: Int = 1, nclxPrimaries: UInt16? = nil,
                      thumbnail: Int? = nil, tenBit: Bool = false) throws {
        let ctx = heif_context_alloc()
        defer { heif_context_free(ctx) }
        var img: OpaquePointer?
        let chroma = tenBit ? heif_chroma_interleaved_RRGGBB_LE : heif_chroma_interleaved_RGB
        try check(heif_image_create(Int32(image.width), Int32(image.height), heif_colorspace_RGB, chroma, &img))
        defer { heif_image_release(img) }
        try check(heif_image_add_plane(img, heif_channel_interleaved, Int32(image.width), Int32(image.height), tenBit ? 10 : 8))
        var stride: Int32 = 0
        let plane = heif_image_get_plane(img, heif_channel_interleaved, &stride)!
        for y in 0..<image.height {
            for i in 0..<(image.width * 3) {
                let v = image.pixels[y * image.width * 3 + i]
                if tenBit {
                    let v10 = UInt16(v) << 2 | UInt16(v) >> 6   // 8 to 10 bits, full scale
                    plane[y * Int(stride) + i * 2] = UInt8(v10 & 0xFF)
                    plane[y * Int(stride) + i * 2 + 1] = UInt8(v10 >> 8)
                } else {
                    plane[y * Int(stride) + i] = v
                }
            }
        }
        let nclx = heif_nclx_color_profile_alloc()!
        defer { heif_nclx_color_profile_free(nclx) }
        if let nclxPrimaries {
            try check(heif_nclx_color_profile_set_color_primaries(nclx, nclxPrimaries))
            try check(heif_nclx_color_profile_set_transfer_characteristics(nclx, 13))
            try check(heif_nclx_color_profile_set_matrix_coefficients(nclx, 6))
            nclx.pointee.full_range_flag = 1
            try check(heif_image_set_nclx_color_profile(img, nclx))
        }
        var encoder: OpaquePointer?
        try check(heif_context_get_encoder_for_format(ctx, heif_compression_HEVC, &encoder))
        defer { heif_encoder_release(encoder) }
        try check(heif_encoder_set_lossy_quality(encoder, 92))
        let options = heif_encoding_options_alloc()!
        defer { heif_encoding_options_free(options) }
        options.pointee.image_orientation = heif_orientation(rawValue: UInt32(orientation))
        // libheif 1.15 writes a colr box only from the options, not from the image's own nclx.
        // and by default leaves the nclx box out for old macOS readers.
        if nclxPrimaries != nil {
            options.pointee.output_nclx_profile = nclx
            options.pointee.macOS_compatibility_workaround_no_nclx_profile = 0
        }
        var handle: OpaquePointer?
        try check(heif_context_encode_image(ctx, img, encoder, options, &handle))
        defer { heif_image_handle_release(handle) }
        if let thumbnail {
            try check(heif_context_encode_thumbnail(ctx, img, handle, encoder, options, Int32(thumbnail), nil))
        }
        try check(heif_context_write_to_file(ctx, url.path))
    }

    private static func check(_ e: heif_error) throws {
        guard e.code != heif_error_Ok else { return }
        throw Failure(description: e.message.map { String(cString: $0) } ?? "libheif error \(e.code)")
    }
}
