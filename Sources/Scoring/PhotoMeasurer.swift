import CScore
import Foundation
import Imaging

/// What the scorer measured of one face (`sc_face_out`).
public struct FaceMeasures: Sendable, Equatable {
    /// Blur index of the face box, 0 sharp … 1 featureless.
    public var blur: Double
    /// Open eyes (0, 1, 2), nil when the face is too small to tell.
    public var eyes: Int?
    /// The wider-open eye's aspect ratio from dlib's 68 landmarks (~0.3 open, < 0.2 closed), nil
    /// when not measured.
    public var eyeRatio: Double?
    public var smile: Bool?
    /// The box touches the frame.
    public var cut: Bool
    /// The box, normalised (x/y the top-left corner).
    public var x: Double, y: Double, w: Double, h: Double
}

/// The raw measurements of one photo (`sc_measures`), by name, and its faces'.
public struct PhotoMeasures: Sendable, Equatable {
    public var values: [String: Double]
    public var faces: [FaceMeasures]
    public subscript(_ key: String) -> Double { values[key] ?? 0 }
}

/// Measures a working image through CScore: one per analysis worker (BRISQUE's SVM, the cascades
/// and Tesseract keep scratch state). Missing model files disable their measurement only.
public final class PhotoMeasurer: @unchecked Sendable {
    private let handle: OpaquePointer

    /// Where opencv-data and Tesseract's English data live on Debian.
    public static let openCVData = "/usr/share/opencv4"
    public static let tessdata = "/usr/share/tesseract-ocr/5/tessdata"
    /// dlib's 68-point shape predictor (Debian's libdlib-data), for the eyes' opening.
    public static let landmarks68 = "/usr/share/dlib/shape_predictor_68_face_landmarks.dat"

    public init(openCVData: String = PhotoMeasurer.openCVData, tessdata: String = PhotoMeasurer.tessdata,
                landmarks68: String = PhotoMeasurer.landmarks68) throws {
        var err = [CChar](repeating: 0, count: 512)
        guard let h = sc_create(openCVData, tessdata, landmarks68, &err, err.count) else {
            throw ScoringError(message: Self.text(err))
        }
        handle = h
    }

    deinit { sc_destroy(handle) }

    /// A C error buffer's text (up to its NUL).
    static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// When to read text: never, on the cheap cues (flat areas, a page, a QR code), or always.
    public enum TextReading: Int32, Sendable { case never = 0, onCues = 1, always = 2 }

    /// `faces` normalised (x/y the top-left corner); `blockPeriod` the JPEG block size in pixels
    /// of `image` (8 × image width / full width), 0 for other formats; `fullLongSide` the file's
    /// own long side in pixels (a picture smaller than a screen is judged as seen enlarged), 0 unknown.
    public func measure(_ image: RGBImage, faces: [(x: Double, y: Double, w: Double, h: Double)],
                        blockPeriod: Double, fullLongSide: Int = 0, text: TextReading = .onCues) throws -> PhotoMeasures {
        var m = sc_measures()
        let input = faces.map { sc_face_in(x: $0.x, y: $0.y, w: $0.w, h: $0.h) }
        var out = [sc_face_out](repeating: sc_face_out(), count: max(1, faces.count))
        var err = [CChar](repeating: 0, count: 512)
        let rc = image.pixels.withUnsafeBufferPointer { px in
            sc_measure(handle, px.baseAddress, Int32(image.width), Int32(image.height), blockPeriod,
                       Int32(clamping: fullLongSide), text.rawValue,
                       input, Int32(input.count), &out, &m, &err, err.count)
        }
        guard rc == 0 else { throw ScoringError(message: Self.text(err)) }
        let values: [String: Double] = [
            "blur_subject": m.blur_subject, "blur_best": m.blur_best, "blur_global": m.blur_global, "motion": m.motion,
            "noise": m.noise, "chroma_noise": m.chroma_noise, "mean_luma": m.mean_luma, "black_point": m.black_point,
            "white_point": m.white_point, "clip_high": m.clip_high, "clip_low": m.clip_low, "contrast": m.contrast,
            "colorfulness": m.colorfulness, "blockiness": m.blockiness, "vignette": m.vignette, "posterize": m.posterize,
            "brisque": m.brisque, "subject_x": m.subject_x, "subject_y": m.subject_y, "thirds": m.thirds, "tilt": m.tilt,
            "has_horizon": Double(m.has_horizon), "flat": m.flat, "text_words": Double(m.text_words),
            "page": Double(m.page), "qr_area": m.qr_area, "pixelation": m.pixelation, "text_area": m.text_area,
            "text_lines": m.text_lines, "long_side": Double(fullLongSide),
        ]
        let found = faces.indices.map { i in
            FaceMeasures(blur: out[i].blur, eyes: out[i].eyes < 0 ? nil : Int(out[i].eyes),
                         eyeRatio: out[i].eye_ratio < 0 ? nil : out[i].eye_ratio,
                         smile: out[i].smile < 0 ? nil : out[i].smile == 1, cut: out[i].cut == 1,
                         x: faces[i].x, y: faces[i].y, w: faces[i].w, h: faces[i].h)
        }
        var all = values
        // The least open of the faces' eyes, shown in `score_detail.measures` (why "eyes closed").
        if let least = found.compactMap(\.eyeRatio).min() { all["eye_ratio"] = least }
        return PhotoMeasures(values: all, faces: found)
    }
}

/// One line saying what went wrong in the scorer.
public struct ScoringError: Error, CustomStringConvertible, Sendable {
    public let message: String
    public var description: String { message }
}
