import CLCMS2

/// Embedded colour profiles to sRGB through lcms2, so a Display P3 or Adobe RGB photo keeps its
/// saturation instead of coming out dull (its numbers read as sRGB).
enum ColorConversion {
    /// Perceptual intent: for the matrix-shaper profiles cameras and phones embed it is the same
    /// as relative colorimetric, and for a LUT profile (a printer's CMYK) it maps out-of-gamut
    /// colours smoothly; `jpgicc`/`tificc` default to it as well, so the tests' references agree.
    static let intent = cmsUInt32Number(INTENT_PERCEPTUAL)

    /// Converts interleaved RGB in place from the ICC profile `icc` to sRGB. Does nothing when
    /// the profile is missing, unreadable, not RGB, or sRGB already (a profile lcms2 cannot
    /// parse is treated as absent: a photo with a broken profile still shows, as sRGB).
    static func rgbToSRGB(_ pixels: inout [UInt8], icc: [UInt8]) {
        guard !icc.isEmpty, let profile = icc.withUnsafeBytes({
            cmsOpenProfileFromMem($0.baseAddress, cmsUInt32Number($0.count))
        }) else { return }
        defer { cmsCloseProfile(profile) }
        guard cmsGetColorSpace(profile) == cmsSigRgbData, !isSRGB(profile) else { return }
        transform(&pixels, from: profile, inputFormat: SHOEBOX_TYPE_RGB_8)
    }

    /// Converts RGB whose primaries, white point and transfer are given (a HEIF nclx box) to sRGB.
    static func rgbToSRGB(_ pixels: inout [UInt8], primaries: Primaries, transfer: Transfer) {
        if primaries.isSRGB && transfer == .sRGB { return }
        var white = cmsCIExyY(x: primaries.white.0, y: primaries.white.1, Y: 1)
        var triple = cmsCIExyYTRIPLE(
            Red: cmsCIExyY(x: primaries.red.0, y: primaries.red.1, Y: 1),
            Green: cmsCIExyY(x: primaries.green.0, y: primaries.green.1, Y: 1),
            Blue: cmsCIExyY(x: primaries.blue.0, y: primaries.blue.1, Y: 1))
        var params = transfer.parameters
        guard let curve = cmsBuildParametricToneCurve(nil, 4, &params) else { return }
        defer { cmsFreeToneCurve(curve) }
        var curves: [OpaquePointer?] = [curve, curve, curve]
        guard let profile = cmsCreateRGBProfile(&white, &triple, &curves) else { return }
        defer { cmsCloseProfile(profile) }
        transform(&pixels, from: profile, inputFormat: SHOEBOX_TYPE_RGB_8)
    }

    /// CMYK (4 bytes a pixel) to RGB: through the embedded CMYK profile when there is one,
    /// else the naive complement (colours approximate, but the picture is recognisable).
    /// `inverted`: Adobe's CMYK JPEGs store 255 for no ink.
    static func cmykToSRGB(_ cmyk: [UInt8], pixelCount: Int, icc: [UInt8], inverted: Bool) -> [UInt8] {
        var rgb = [UInt8](repeating: 0, count: pixelCount * 3)
        if !icc.isEmpty, let profile = icc.withUnsafeBytes({
            cmsOpenProfileFromMem($0.baseAddress, cmsUInt32Number($0.count))
        }) {
            defer { cmsCloseProfile(profile) }
            if cmsGetColorSpace(profile) == cmsSigCmykData, let srgb = cmsCreate_sRGBProfile() {
                defer { cmsCloseProfile(srgb) }
                let format = inverted ? SHOEBOX_TYPE_CMYK_8_REV : SHOEBOX_TYPE_CMYK_8
                if let t = cmsCreateTransform(profile, format, srgb, SHOEBOX_TYPE_RGB_8, intent, 0) {
                    defer { cmsDeleteTransform(t) }
                    cmyk.withUnsafeBytes { src in
                        rgb.withUnsafeMutableBytes { dst in
                            cmsDoTransform(t, src.baseAddress, dst.baseAddress, cmsUInt32Number(pixelCount))
                        }
                    }
                    return rgb
                }
            }
        }
        for i in 0..<pixelCount {
            var c = Int(cmyk[i * 4]), m = Int(cmyk[i * 4 + 1]), y = Int(cmyk[i * 4 + 2]), k = Int(cmyk[i * 4 + 3])
            if !inverted { c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k }
            rgb[i * 3] = UInt8(c * k / 255)
            rgb[i * 3 + 1] = UInt8(m * k / 255)
            rgb[i * 3 + 2] = UInt8(y * k / 255)
        }
        return rgb
    }

    private static func transform(_ pixels: inout [UInt8], from profile: cmsHPROFILE, inputFormat: cmsUInt32Number) {
        guard let srgb = cmsCreate_sRGBProfile() else { return }
        defer { cmsCloseProfile(srgb) }
        guard let t = cmsCreateTransform(profile, inputFormat, srgb, SHOEBOX_TYPE_RGB_8, intent, 0) else { return }
        defer { cmsDeleteTransform(t) }
        let count = cmsUInt32Number(pixels.count / 3)
        // In place: lcms2 allows the same buffer for input and output when the formats match.
        pixels.withUnsafeMutableBytes { buf in
            cmsDoTransform(t, buf.baseAddress, buf.baseAddress, count)
        }
    }

    /// sRGB already (by its colorants, not its name): an identity transform would only cost time
    /// and round twice.
    private static func isSRGB(_ profile: cmsHPROFILE) -> Bool {
        guard let srgb = cmsCreate_sRGBProfile() else { return false }
        defer { cmsCloseProfile(srgb) }
        for tag in [cmsSigRedColorantTag, cmsSigGreenColorantTag, cmsSigBlueColorantTag] {
            guard let a = cmsReadTag(profile, tag)?.assumingMemoryBound(to: cmsCIEXYZ.self).pointee,
                  let b = cmsReadTag(srgb, tag)?.assumingMemoryBound(to: cmsCIEXYZ.self).pointee,
                  abs(a.X - b.X) < 0.002, abs(a.Y - b.Y) < 0.002, abs(a.Z - b.Z) < 0.002 else { return false }
        }
        // Same primaries: sRGB's curve or a close one (γ 2.2 would darken shadows a little,
        // which is what a display without management shows anyway).
        guard let trc = cmsReadTag(profile, cmsSigRedTRCTag) else { return false }
        let curve = OpaquePointer(trc)
        let g = cmsEstimateGamma(curve, 0.01)
        return g > 2.1 && g < 2.35
    }
}

/// A colour space's chromaticities (CIE xy) as a HEIF nclx box states them.
struct Primaries: Equatable {
    var red: (Double, Double), green: (Double, Double), blue: (Double, Double), white: (Double, Double)

    static func == (a: Primaries, b: Primaries) -> Bool {
        let x = [a.red.0, a.red.1, a.green.0, a.green.1, a.blue.0, a.blue.1, a.white.0, a.white.1]
        let y = [b.red.0, b.red.1, b.green.0, b.green.1, b.blue.0, b.blue.1, b.white.0, b.white.1]
        return zip(x, y).allSatisfy { abs($0 - $1) < 0.002 }
    }

    static let sRGB = Primaries(red: (0.64, 0.33), green: (0.30, 0.60), blue: (0.15, 0.06), white: (0.3127, 0.3290))
    var isSRGB: Bool { self == .sRGB }
}

/// Transfer functions of nclx boxes, as lcms2 parametric curves of type 4
/// (Y = (aX + b)^γ above d, cX below).
enum Transfer: Equatable {
    /// IEC 61966-2-1. Also used for BT.709's curve (transfer 1, 6, 14, 15): still-image encoders
    /// that write it encoded sRGB-gamma pixels, and viewers show them as sRGB. PQ and HLG (16, 18)
    /// are HDR with no faithful SDR rendering by a curve: read as sRGB too (left for later).
    case sRGB

    var parameters: [Double] { [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045] }
}
