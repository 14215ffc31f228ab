import CHeif
#if canImport(Glibc)
import Glibc
#endif

/// HEIC through libheif's HEVC encoder (x265 on Debian: libheif 1.15 carries it built in; from
/// 1.16 the `libheif-plugin-x265` package). The pixels are tagged sRGB with an nclx colour box
/// (BT.709 primaries, the sRGB transfer curve, BT.601 matrix, full range: what libheif and Apple
/// write for sRGB), which is what Imaging's decoders give.
public enum HEICEncoder {
    /// Encoder settings. `quality` is libheif's 0–100 (x265's CRF underneath); `preset` is
    /// x265's speed preset ("ultrafast" … "placebo").
    public struct Settings: Sendable {
        public var quality: Int
        public var preset: String
        public init(quality: Int = 60, preset: String = "fast") {
            self.quality = quality
            self.preset = preset
        }
    }

    /// Whether libheif has an HEVC encoder here (x265).
    public static var isAvailable: Bool { heif_have_encoder_for_format(heif_compression_HEVC) != 0 }

    /// The HEIC file's bytes for `image` (one primary image, no thumbnail). `name` is only for
    /// messages. Throws an `ImagingError` naming what failed (no encoder, libheif's message).
    public static func encode(_ image: RGBImage, settings: Settings = Settings(), name: String) throws -> [UInt8] {
        guard let context = heif_context_alloc() else { throw ImagingError(.io, name, "libheif could not start (out of memory)") }
        defer { heif_context_free(context) }
        var encoder: OpaquePointer?
        let found = heif_context_get_encoder_for_format(context, heif_compression_HEVC, &encoder)
        guard found.code == heif_error_Ok, let encoder else {
            throw ImagingError(.unsupported, name, "libheif has no HEVC encoder here (install libheif with x265: Debian 12's libheif1, or libheif-plugin-x265 with libheif ≥ 1.16)")
        }
        defer { heif_encoder_release(encoder) }
        try check(heif_encoder_set_lossy_quality(encoder, Int32(min(100, max(0, settings.quality)))), name, "setting the quality")
        // Best effort: an encoder without the parameter still encodes, at its default speed.
        _ = heif_encoder_set_parameter_string(encoder, "preset", settings.preset)

        let picture = try heifImage(image, name: name)
        defer { heif_image_release(picture) }
        guard let nclx = heif_nclx_color_profile_alloc() else { throw ImagingError(.io, name, "libheif could not allocate a colour profile") }
        defer { heif_nclx_color_profile_free(nclx) }
        nclx.pointee.color_primaries = heif_color_primaries_ITU_R_BT_709_5
        nclx.pointee.transfer_characteristics = heif_transfer_characteristic_IEC_61966_2_1
        nclx.pointee.matrix_coefficients = heif_matrix_coefficients_ITU_R_BT_601_6
        nclx.pointee.full_range_flag = 1
        try check(heif_image_set_nclx_color_profile(picture, nclx), name, "tagging the colours")
        guard let options = heif_encoding_options_alloc() else { throw ImagingError(.io, name, "libheif could not allocate its options") }
        defer { heif_encoding_options_free(options) }
        options.pointee.save_alpha_channel = 0
        options.pointee.output_nclx_profile = nclx
        // libheif leaves the nclx box out by default (Preview on old macOS misread it); the tag is
        // what says the pixels are sRGB, so it is written.
        options.pointee.macOS_compatibility_workaround_no_nclx_profile = 0
        var handle: OpaquePointer?
        try check(heif_context_encode_image(context, picture, encoder, options, &handle), name, "encoding")
        if let handle { heif_image_handle_release(handle) }
        return try bytes(of: context, name: name)
    }

    /// `image` as a libheif interleaved RGB picture (the caller releases it).
    private static func heifImage(_ image: RGBImage, name: String) throws -> OpaquePointer {
        var picture: OpaquePointer?
        try check(heif_image_create(Int32(image.width), Int32(image.height), heif_colorspace_RGB, heif_chroma_interleaved_RGB, &picture),
                  name, "allocating the picture")
        guard let picture else { throw ImagingError(.io, name, "libheif could not allocate the picture") }
        do {
            try check(heif_image_add_plane(picture, heif_channel_interleaved, Int32(image.width), Int32(image.height), 8), name, "allocating the picture")
            var stride: Int32 = 0
            guard let plane = heif_image_get_plane(picture, heif_channel_interleaved, &stride) else {
                throw ImagingError(.io, name, "libheif gave no picture plane")
            }
            let row = image.width * 3
            image.pixels.withUnsafeBufferPointer { src in
                for y in 0..<image.height {
                    (plane + y * Int(stride)).update(from: src.baseAddress! + y * row, count: row)
                }
            }
            return picture
        } catch {
            heif_image_release(picture)
            throw error
        }
    }

    /// The file libheif writes for `context`, collected in memory.
    private static func bytes(of context: OpaquePointer, name: String) throws -> [UInt8] {
        final class Sink { var bytes: [UInt8] = [] }
        let sink = Sink()
        var writer = heif_writer()
        writer.writer_api_version = 1
        writer.write = { _, data, size, userdata in
            let sink = Unmanaged<Sink>.fromOpaque(userdata!).takeUnretainedValue()
            if let data, size > 0 {
                sink.bytes.append(contentsOf: UnsafeRawBufferPointer(start: data, count: size))
            }
            return heif_error(code: heif_error_Ok, subcode: heif_suberror_Unspecified, message: heifSuccess)
        }
        try withExtendedLifetime(sink) {
            try check(heif_context_write(context, &writer, Unmanaged.passUnretained(sink).toOpaque()), name, "writing")
        }
        return sink.bytes
    }

    private static func check(_ error: heif_error, _ name: String, _ what: String) throws {
        guard error.code != heif_error_Ok else { return }
        let detail = error.message.map { String(cString: $0) } ?? "error \(error.code.rawValue)"
        throw ImagingError(error.code == heif_error_Memory_allocation_error ? .tooLarge : .io, name, "HEIC \(what) failed: \(detail)")
    }
}

/// libheif's own "Success" message for a writer callback's result (a C string that lives as long
/// as the process, as libheif expects of error messages).
nonisolated(unsafe) private let heifSuccess: UnsafePointer<CChar> = UnsafePointer(strdup("Success")!)
