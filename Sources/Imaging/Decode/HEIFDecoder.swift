import CHeif

/// HEIC/HEIF: the common layouts by libde265 directly (`HEVCDecoder`), the others through
/// libheif, read through the descriptor (`HEIFFileReader`): the primary
/// image's embedded thumbnail when it is large enough, the primary image otherwise (grids and
/// tiles assembled by libheif), taken as YCbCr planes and box-reduced while converted to RGB
/// (`HEIFPlanes`) to the smallest size still ≥ `minLongSide`. libheif 1.15 decodes an image
/// whole (no tile or region API), so its decoder's full-size planes are the peak; no full-size
/// RGB copy is made, by libheif or here. A burst or sequence stored as several images in one
/// file gives its primary image only, and only that image's data is read. libheif applies the
/// `irot`/`imir` transformations itself, so the result is upright and any EXIF orientation
/// inside the file is ignored (ISO/IEC 23008-12: the transformations govern).
enum HEIFDecoder {
    /// - Parameters:
    ///   - libheifRGB: RGB converted by libheif, not from the native planes (for tests that
    ///     compare the two).
    ///   - direct: libde265 fed directly first (`HEVCDecoder`); false decodes through libheif
    ///     only (for tests that compare the two).
    static func decode(fd: Int32, name: String, minLongSide: Int, limits: DecodeLimits,
                       libheifRGB: Bool = false, direct: Bool = true) throws -> DecodedImage {
        if direct, !libheifRGB, let image = try HEVCDecoder.decode(fd: fd, name: name, minLongSide: minLongSide, limits: limits) {
            return image
        }
        // Kept alive until the context is freed (this defer runs after the context's): libheif
        // reads through it while decoding, after its last use in Swift's eyes.
        let file = HEIFFileReader(fd: fd, size: try FileBytes.size(fd, name: name))
        defer { withExtendedLifetime(file) {} }
        guard let ctx = heif_context_alloc() else { throw ImagingError(.corrupt, name, "libheif could not start") }
        defer { heif_context_free(ctx) }
        // libheif's own ceiling stays at its default (32768 per side, checked when the file is
        // read): its setter limits each side, not the area, and would refuse a long panorama.
        // The area limit is ours, checked below before anything is decoded.
        let read = heif_context_read_from_reader(ctx, file.reader, file.userdata, nil)
        try check(read, name, "not a readable HEIF file")
        var primary: OpaquePointer?
        try check(heif_context_get_primary_image_handle(ctx, &primary), name, "no primary image")
        guard let primary else { throw ImagingError(.corrupt, name, "no primary image") }
        defer { heif_image_handle_release(primary) }
        let fullW = Int(heif_image_handle_get_width(primary)), fullH = Int(heif_image_handle_get_height(primary))
        guard fullW > 0, fullH > 0 else { throw ImagingError(.corrupt, name, "HEIF primary image declares no size") }

        if let thumb = thumbnail(of: primary, minLongSide: minLongSide) {
            defer { heif_image_handle_release(thumb) }
            // A thumbnail that fails to decode is no reason to give up: the primary image follows.
            // Taken as it is (Int.max: no reduction): it is small, and chosen as the one nearest
            // `minLongSide` from above already.
            if let (image, _) = try? pixels(of: thumb, name: name, minLongSide: .max, limits: limits) {
                return DecodedImage(image: image, fullWidth: fullW, fullHeight: fullH, damaged: false, source: .embeddedThumbnail)
            }
        }
        guard fullW * fullH <= limits.maxPixels else {
            throw ImagingError(.tooLarge, name, "\(fullW)×\(fullH) HEIF is over the \(limits.maxPixels / 1_000_000)-megapixel limit")
        }
        let (image, factor) = try pixels(of: primary, name: name, minLongSide: minLongSide, limits: limits,
                                         libheifRGB: libheifRGB)
        return DecodedImage(image: image, fullWidth: fullW, fullHeight: fullH, damaged: false,
                            source: factor == 1 ? .full : .boxReduced(factor: factor))
    }

    /// The smallest thumbnail whose long side still reaches `minLongSide`.
    private static func thumbnail(of primary: OpaquePointer, minLongSide: Int) -> OpaquePointer? {
        let count = Int(heif_image_handle_get_number_of_thumbnails(primary))
        guard count > 0 else { return nil }
        var ids = [heif_item_id](repeating: 0, count: count)
        let got = Int(heif_image_handle_get_list_of_thumbnail_IDs(primary, &ids, Int32(count)))
        var best: (handle: OpaquePointer, long: Int)?
        for id in ids.prefix(got) {
            var handle: OpaquePointer?
            guard heif_image_handle_get_thumbnail(primary, id, &handle).code == heif_error_Ok, let handle else { continue }
            let long = max(Int(heif_image_handle_get_width(handle)), Int(heif_image_handle_get_height(handle)))
            if long >= minLongSide, best == nil || long < best!.long {
                if let old = best { heif_image_handle_release(old.handle) }
                best = (handle, long)
            } else {
                heif_image_handle_release(handle)
            }
        }
        return best?.handle
    }

    /// Decodes one image handle, reduces it by the largest factor keeping its long side ≥
    /// `minLongSide` (and the factor used), alpha composited onto white as PNG's is (libheif
    /// composites nothing: its colour planes under a transparent area are whatever the encoder
    /// left there, often black), then its colour converted to sRGB.
    private static func pixels(of handle: OpaquePointer, name: String, minLongSide: Int,
                               limits: DecodeLimits, libheifRGB: Bool = false) throws -> (RGBImage, Int) {
        let w = Int(heif_image_handle_get_width(handle)), h = Int(heif_image_handle_get_height(handle))
        guard w > 0, h > 0, limits.allows(width: w, height: h) else {
            throw ImagingError(.tooLarge, name, "\(w)×\(h) HEIF image is over the \(limits.maxPixels / 1_000_000)-megapixel limit")
        }
        let alpha = heif_image_handle_has_alpha_channel(handle) != 0
        let premultiplied = alpha && heif_image_handle_is_premultiplied_alpha(handle) != 0
        // YCbCr 4:2:0 first (see HEIFPlanes), RGB from libheif for layouts not converted there.
        // 4:2:0 named, not "undefined": libheif 1.15 takes undefined as RGB 4:4:4 planes (it
        // converts, measured). A 4:2:0 stream (every phone's, heif-enc's default) comes as
        // decoded; a rare 4:4:4 or monochrome one is converted by libheif, losing nothing the
        // reduced image keeps.
        if !libheifRGB {
            let native = try decode(handle, heif_colorspace_YCbCr, heif_chroma_420, name)
            defer { heif_image_release(native) }
            let iw = Int(heif_image_get_width(native, heif_channel_Y)), ih = Int(heif_image_get_height(native, heif_channel_Y))
            let factor = BoxReduction.factor(longSide: max(iw, ih), minLongSide: minLongSide)
            if iw > 0, ih > 0, iw * ih <= limits.maxPixels,
               var reduced = HEIFPlanes.reduce(native, handle: handle, alpha: alpha, premultiplied: premultiplied, factor: factor) {
                HEIFColor.toSRGB(&reduced.pixels, handle: handle)
                return (reduced, factor)
            }
        }
        let image = try decode(handle, heif_colorspace_RGB, alpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB, name)
        defer { heif_image_release(image) }
        var stride: Int32 = 0
        guard let plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride) else {
            throw ImagingError(.corrupt, name, "HEIF decoder gave no RGB plane")
        }
        let iw = Int(heif_image_get_width(image, heif_channel_interleaved))
        let ih = Int(heif_image_get_height(image, heif_channel_interleaved))
        guard iw > 0, ih > 0, iw * ih <= limits.maxPixels, Int(stride) >= iw * (alpha ? 4 : 3) else {
            throw ImagingError(.corrupt, name, "HEIF decoder gave a \(iw)×\(ih) image")
        }
        let factor = BoxReduction.factor(longSide: max(iw, ih), minLongSide: minLongSide)
        guard var reduced = BoxReduction.reduce(plane: plane, stride: Int(stride), width: iw, height: ih,
                                                channels: alpha ? 4 : 3, premultiplied: premultiplied, factor: factor) else {
            throw ImagingError(.tooLarge, name, "out of memory reducing a \(iw)×\(ih) HEIF image")
        }
        HEIFColor.toSRGB(&reduced.pixels, handle: handle)
        return (reduced, factor)
    }

    private static func decode(_ handle: OpaquePointer, _ colorspace: heif_colorspace, _ chroma: heif_chroma,
                               _ name: String) throws -> OpaquePointer {
        var image: OpaquePointer?
        // 10-bit HEICs (some Android phones) to 8 bits. libheif 1.15 already reduces them for
        // the 8-bit interleaved layout asked for (measured); the option states it for versions
        // that would keep the input's depth. Native planes keep their depth (HEIFPlanes scales).
        let options = heif_decoding_options_alloc()
        defer { heif_decoding_options_free(options) }
        options?.pointee.convert_hdr_to_8bit = 1
        try check(heif_decode_image(handle, &image, colorspace, chroma, options), name, "HEIF image data not decodable")
        guard let image else { throw ImagingError(.corrupt, name, "HEIF image data not decodable") }
        return image
    }

    private static func check(_ error: heif_error, _ name: String, _ what: String) throws {
        guard error.code != heif_error_Ok else { return }
        let detail = error.message.map { String(cString: $0) } ?? "unknown error"
        let code: ImagingError.Code = error.code == heif_error_Memory_allocation_error
            || (error.code == heif_error_Invalid_input && detail.contains("exceed")) ? .tooLarge
            : error.code == heif_error_Unsupported_feature || error.code == heif_error_Unsupported_filetype ? .unsupported : .corrupt
        // libheif's security limits come back as allocation errors: say "too large", not "unreadable".
        throw ImagingError(code, name, code == .tooLarge ? "too large for libheif's limits: \(detail)" : "\(what): \(detail)")
    }
}
