import CVision
import Imaging

/// Describes faces as 128 numbers (dlib's ResNet after 5-point alignment): two photos of one
/// person are less than 0.6 apart, two people more. Holds the network's scratch buffers: not
/// thread-safe, make one per thread (each holds ~30 MB of model).
public final class FaceRecognizer {
    /// The descriptor's length.
    public static let dimensions = 128
    /// Below this distance two faces are taken for one person (dlib's published operating point:
    /// 99.38 % on LFW).
    public static let samePersonThreshold: Float = 0.6

    private let handle: OpaquePointer

    public init(models: FaceModels) throws {
        let (handle, error) = withErrorBuffer {
            cv_recognizer_create(models.shapePredictor.path, models.descriptorNetwork.path, $0, $1)
        }
        guard let handle else { throw FaceError.vision(error) }
        self.handle = handle
    }

    /// The models `FaceModels.locate()` finds.
    public convenience init() throws {
        try self.init(models: FaceModels.locate())
    }

    deinit { cv_recognizer_destroy(handle) }

    /// A face described: its descriptor and what says how far to trust it.
    public struct Description: Sendable {
        public var descriptor: [Float]
        /// How far the face is turned from the camera: the nose's offset from between the eyes,
        /// in eye distances (5-point landmarks); ~0 frontal, 0.5 and more towards a profile.
        public var turn: Float
        /// Fine detail in the aligned 150-px chip (variance of its grey Laplacian): low for a face
        /// found small and enlarged into the chip, or out of focus.
        public var sharpness: Float
    }

    /// One descriptor per box (normalised to `image`, as `FaceDetector` gives them), in order.
    public func descriptors(for boxes: [FaceBox], in image: RGBImage) throws -> [[Float]] {
        try describe(boxes, in: image).map(\.descriptor)
    }

    /// One description per box (normalised to `image`, as `FaceDetector` gives them), in order.
    public func describe(_ boxes: [FaceBox], in image: RGBImage) throws -> [Description] {
        if boxes.isEmpty { return [] }
        let w = Double(image.width), h = Double(image.height)
        let pixelBoxes = boxes.map {
            cv_face_box(x: $0.x * w, y: $0.y * h, w: $0.w * w, h: $0.h * h, confidence: $0.confidence)
        }
        var out = [Float](repeating: 0, count: boxes.count * Self.dimensions)
        var quality = [Float](repeating: 0, count: boxes.count * 2)
        let (status, error) = image.pixels.withUnsafeBufferPointer { pixels in
            out.withUnsafeMutableBufferPointer { out in
                quality.withUnsafeMutableBufferPointer { quality in
                    withErrorBuffer { err, len in
                        cv_face_descriptors(handle, pixels.baseAddress, Int32(image.width), Int32(image.height),
                                            pixelBoxes, Int32(pixelBoxes.count), out.baseAddress, quality.baseAddress, err, len)
                    }
                }
            }
        }
        guard status == 0 else { throw FaceError.vision(error) }
        return (0..<boxes.count).map {
            Description(descriptor: Array(out[$0 * Self.dimensions ..< ($0 + 1) * Self.dimensions]),
                        turn: quality[$0 * 2], sharpness: quality[$0 * 2 + 1])
        }
    }

    /// Euclidean distance between two descriptors.
    public static func distance(_ a: [Float], _ b: [Float]) -> Float {
        precondition(a.count == b.count, "descriptors of different lengths")
        var sum: Float = 0
        for i in a.indices {
            let d = a[i] - b[i]
            sum += d * d
        }
        return sum.squareRoot()
    }
}
