import CVision
import Imaging

/// Finds faces in upright RGB pixels. Holds a CenterFace network, a dlib or an OpenCV detector,
/// which keeps scratch state between calls: not thread-safe, make one per thread.
public final class FaceDetector {
    /// Which detector finds the faces.
    public enum Method: Sendable, Equatable {
        /// CenterFace, a network trained on WIDER FACE's small and crowded faces, from its ONNX
        /// file through OpenCV's dnn module: the default. On the hand-boxed group photos it finds
        /// 24 of 24 faces (HOG: 19–20), with no false face on scenery (docs/faces.md).
        case centerFace(network: String)
        /// dlib's frontal HOG detector: kept for comparison (and where the network is absent
        /// in a test); misses faces under ~80 px even enlarged.
        case hog
        /// OpenCV's Haar cascade at the given XML file, kept so both can be measured.
        case haar(cascade: String)

        /// Debian opencv-data's frontal cascade.
        public static let defaultHaarCascade = "/usr/share/opencv4/haarcascades/haarcascade_frontalface_alt2.xml"
    }

    /// How a photo is resized before detection. HOG and Haar look for faces of about 80 px and
    /// larger, so for them a photo is brought to a size where the small faces of a group photo
    /// reach that; CenterFace finds faces of ~10 px, so it runs at the photo's own size, reduced
    /// only to bound its time (which grows with the pixels). Measured in docs/faces.md.
    public struct Scaling: Sendable, Equatable {
        /// The long side detection runs at. At 1400 px a face of a twentieth of the photo's long
        /// side (a row of people) is ~70 px: on the hand-boxed group photos recall 0.79, against
        /// 0.58 at 1024 px; a camera-size photo is reduced to it.
        public var longSide: Int
        /// A photo is enlarged at most this much: a 500-px photo of a dozen people (faces of
        /// 25–50 px) needs ×3.
        public var maxUpsample: Double
        /// Photos whose long side is under `smallSide` are enlarged at most `smallMaxUpsample`: in
        /// so few pixels the faces that matter fill much of the frame, and the blur of a larger
        /// enlargement lost more faces than it found (a generated roll's 170–300 px portraits:
        /// 22 of 33 profile faces at ×3, 29 at ×2).
        public var smallSide: Int
        public var smallMaxUpsample: Double

        public init(longSide: Int = 1400, maxUpsample: Double = 3, smallSide: Int = 400, smallMaxUpsample: Double = 2) {
            self.longSide = longSide
            self.maxUpsample = maxUpsample
            self.smallSide = smallSide
            self.smallMaxUpsample = smallMaxUpsample
        }

        /// CenterFace's: a photo at its own size up to 768 px, larger ones reduced to it (its net
        /// for 768×576 holds ~100 MB while it runs, ~185 MB at 1024×768; a 22-px face of an
        /// 800-px group photo is still 21 px at 768).
        public static let centerFace = Scaling(longSide: 768, maxUpsample: 1, smallSide: 0, smallMaxUpsample: 1)
        /// CenterFace's for camera-size photos in the analysis pipeline, whose whole budget is
        /// ~80 ms of CPU a photo (25 photos/s on two cores): 512 px long side (~55 ms and a ~55 MB
        /// net; ~200 ms and ~185 MB at 1024). A face of a fortieth of the photo's width, a row of
        /// a dozen people, is still ~13 px there, which it finds: the hand-boxed group photos at
        /// camera size, 24 of 24 (`GroupPhotoTests`).
        public static let cameraSize = Scaling(longSide: 512, maxUpsample: 1, smallSide: 0, smallMaxUpsample: 1)

        /// The factor for an image of this long side: > 1 enlarges, < 1 reduces.
        public func factor(forLongSide side: Int) -> Double {
            let cap = side < smallSide ? smallMaxUpsample : maxUpsample
            return min(Double(longSide) / Double(max(1, side)), cap)
        }
    }

    public let method: Method
    public let scaling: Scaling
    /// Added to dlib's decision threshold: negative finds more faces, fewer of them real (HOG only).
    /// The default -0.2 finds faces turned towards a profile that dlib's own threshold misses:
    /// recall 0.71 → 0.94 on three generated rolls (62 faces, 158 photos), 0.58 → 0.79 on the
    /// hand-boxed group photos, with no false face on either; at -0.3 scenery starts to give some.
    public let adjustThreshold: Double
    /// OpenCV's grouping threshold: how many overlapping windows make a face (Haar only).
    public let minNeighbors: Int
    /// The face-centre score a face needs (CenterFace only, 0…1): at 0.5 every hand-boxed group
    /// face is found and no false face appears on scenery; at 0.3 enlarged photos give some.
    public let minScore: Double

    private let centerFace: OpaquePointer?
    private let hog: OpaquePointer?
    private let haar: OpaquePointer?

    /// Most faces reported for one photo (the best first).
    static let maxFaces = 256

    /// A detector; by default CenterFace with the network `FaceModels.locate()` finds, at
    /// `Scaling.centerFace` (HOG and Haar at `Scaling()`).
    public init(method: Method? = nil, scaling: Scaling? = nil, adjustThreshold: Double = -0.2,
                minNeighbors: Int = 3, minScore: Double = 0.5) throws {
        let method = try method ?? .centerFace(network: FaceModels.locate().detectorNetwork.path)
        self.method = method
        self.adjustThreshold = adjustThreshold
        self.minNeighbors = minNeighbors
        self.minScore = minScore
        var handles: (OpaquePointer?, OpaquePointer?, OpaquePointer?) = (nil, nil, nil)
        var failure = ""
        switch method {
        case .centerFace(let network):
            (handles.0, failure) = withErrorBuffer { cv_centerface_create(network, $0, $1) }
            self.scaling = scaling ?? .centerFace
        case .hog:
            (handles.1, failure) = withErrorBuffer { cv_hog_create($0, $1) }
            self.scaling = scaling ?? Scaling()
        case .haar(let cascade):
            (handles.2, failure) = withErrorBuffer { cv_haar_create(cascade, $0, $1) }
            self.scaling = scaling ?? Scaling()
        }
        guard handles.0 != nil || handles.1 != nil || handles.2 != nil else { throw FaceError.vision(failure) }
        (centerFace, hog, haar) = handles
    }

    deinit {
        if let centerFace { cv_centerface_destroy(centerFace) }
        if let hog { cv_hog_destroy(hog) }
        if let haar { cv_haar_destroy(haar) }
    }

    /// The faces in `image`, best first, normalised to it; resized as `scaling` says (by
    /// default this detector's own), so that one detector, and its network's memory, serves
    /// photos of every size.
    public func detect(in image: RGBImage, scaling: Scaling? = nil) throws -> [FaceBox] {
        let scale = (scaling ?? self.scaling).factor(forLongSide: image.longSide)
        var found = [cv_face_box](repeating: cv_face_box(), count: Self.maxFaces)
        let (count, error) = image.pixels.withUnsafeBufferPointer { pixels in
            found.withUnsafeMutableBufferPointer { out in
                withErrorBuffer { err, len -> Int32 in
                    if let centerFace {
                        return cv_centerface_detect(centerFace, pixels.baseAddress, Int32(image.width), Int32(image.height), scale,
                                                    minScore, out.baseAddress, Int32(out.count), err, len)
                    }
                    if let hog {
                        return cv_hog_detect(hog, pixels.baseAddress, Int32(image.width), Int32(image.height), scale,
                                             adjustThreshold, out.baseAddress, Int32(out.count), err, len)
                    }
                    return cv_haar_detect(haar, pixels.baseAddress, Int32(image.width), Int32(image.height), scale,
                                          Int32(minNeighbors), out.baseAddress, Int32(out.count), err, len)
                }
            }
        }
        guard count >= 0 else { throw FaceError.vision(error) }
        let w = Double(image.width), h = Double(image.height)
        return found.prefix(min(Int(count), Self.maxFaces)).map { b in
            // Clipped to the image: a detector may report a face cut by the frame as reaching past it.
            let x0 = max(0, b.x), y0 = max(0, b.y)
            let x1 = min(w, b.x + b.w), y1 = min(h, b.y + b.h)
            return FaceBox(x: x0 / w, y: y0 / h, w: max(0, x1 - x0) / w, h: max(0, y1 - y0) / h,
                           confidence: b.confidence)
        }
    }
}
