import Faces
import Foundation
import Imaging
import Metadata
import PhotoLibrary
import Scoring

/// The analyser `analyze` and `watch` use: one decode per file, at the size the largest
/// consumer needs (DCT-scaled JPEG, a HEIC's own thumbnail when big enough), then every consumer
/// from that one image — the two thumbnails, the perceptual hash, face detection and the faces'
/// descriptors, then the score (`Scoring`: measured on the same image, with the faces just
/// found). One per worker thread (the detector network, dlib's and the scorer keep scratch state).
public final class PixelAnalyzer: FileAnalyzing {
    /// The long side of the working image: the larger thumbnail (faces are searched on it).
    public static let workingSide = 1024
    /// The smallest decode accepted for it: a 4032-px camera JPEG then decodes at 1/4 of its
    /// size by the DCT (1008 px) instead of 1/2 (2016 px), twice as fast, for a thumbnail 1.6 %
    /// smaller.
    static let minimumDecodeSide = 960

    /// Which parts run (all for `analyze`; `--stages thumbnails` for the benchmark's like-for-like
    /// comparison with vipsthumbnail).
    public struct Stages: OptionSet, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        public static let thumbnails = Stages(rawValue: 1)
        public static let hash = Stages(rawValue: 2)
        public static let faces = Stages(rawValue: 4)
        /// The score (docs/SCORING.md); with `.faces`, the faces found are judged too.
        public static let score = Stages(rawValue: 8)
        public static let all: Stages = [.thumbnails, .hash, .faces, .score]
    }

    private let stages: Stages
    /// CenterFace: photos up to 768 px (a shared group shot, a download) at their own size
    /// (`Scaling.centerFace`), where it finds faces of 20–40 px; camera-size photos on their
    /// working image reduced to 512 px (`Scaling.cameraSize`: the pipeline's budget is ~80 ms of
    /// CPU a photo). One detector for both, so one set of networks in memory per worker.
    private let detector: FaceDetector?
    private let recognizer: FaceRecognizer?
    private let measurer: PhotoMeasurer?

    /// Fails with one clear line when the face models are not installed.
    public init(stages: Stages = .all) throws {
        self.stages = stages
        do {
            measurer = try stages.contains(.score) ? PhotoMeasurer() : nil
        } catch let e as ScoringError {
            throw ShoeboxError(.notFound, e.description)
        }
        guard stages.contains(.faces) else { detector = nil; recognizer = nil; return }
        do {
            let models = try FaceModels.locate()
            detector = try FaceDetector(method: .centerFace(network: models.detectorNetwork.path))
            recognizer = try FaceRecognizer(models: models)
        } catch let e as FaceError {
            throw ShoeboxError(.notFound, e.description)
        }
    }

    public func analyze(_ asset: Asset, fileDescriptor fd: Int32) -> FileAnalysis {
        var analysis = AssetAnalysis(version: AssetAnalysis.currentVersion, sha256: asset.sha256)
        let decoded: DecodedImage
        do {
            decoded = try ImageDecoder.decode(fileDescriptor: fd, name: asset.path, format: asset.format,
                                              minLongSide: Self.minimumDecodeSide, orientation: asset.metadata.orientation)
        } catch let e as ImagingError {
            // Damage is what the file's bytes are; a format or a size Shoebox does not decode is not.
            analysis.damaged = e.code == .corrupt
            analysis.problem = e.problem
            return FileAnalysis(analysis: analysis)
        } catch {
            analysis.problem = String(describing: error)
            return FileAnalysis(analysis: analysis)
        }
        if decoded.damaged {
            analysis.damaged = true
            analysis.problem = "the image data is damaged: part of the picture could not be decoded"
        }
        let working = Downsample.area(decoded.image, longSide: Self.workingSide)
        let small = Downsample.area(working, longSide: ThumbnailStore.sizes[0])
        var thumbnails: [Int: [UInt8]] = [:]
        if stages.contains(.thumbnails) {
            thumbnails[ThumbnailStore.sizes[1]] = try? ThumbnailEncoder.jpeg(working, quality: 82)
            thumbnails[ThumbnailStore.sizes[0]] = try? ThumbnailEncoder.jpeg(small, quality: 80)
        }
        if stages.contains(.hash) { analysis.perceptualHash = Self.hex(PerceptualHash.of(small)) }
        do {
            if stages.contains(.faces) {
                let large = max(decoded.fullWidth, decoded.fullHeight) > Self.workingSide
                analysis.faces = try faces(in: working, large: large)
            }
        } catch {
            analysis.problem = (analysis.problem.map { $0 + "; " } ?? "") + "faces: \(error)"
        }
        if let measurer {
            do {
                analysis.score = try score(working, decoded: decoded, faces: analysis.faces, asset: asset, measurer: measurer)
            } catch {
                analysis.problem = (analysis.problem.map { $0 + "; " } ?? "") + "score: \(error)"
            }
        }
        return FileAnalysis(analysis: analysis, thumbnails: thumbnails)
    }

    /// Faces with their descriptors, in reading order (top to bottom, then left to right by rows
    /// of about a face's height), so that `#1`, `#2`… name them the way a person reads the photo.
    func faces(in image: RGBImage, large: Bool) throws -> [DetectedFace] {
        guard let detector, let recognizer else { return [] }
        let boxes = try detector.detect(in: image, scaling: large ? .cameraSize : .centerFace)
        guard !boxes.isEmpty else { return [] }
        let described = try recognizer.describe(boxes, in: image)
        let found = zip(boxes, described).map { b, d in
            let size = min(b.w * Double(image.width), b.h * Double(image.height))
            return DetectedFace(x: b.x, y: b.y, w: b.w, h: b.h, descriptor: FaceDescriptor(d.descriptor),
                                quality: FaceQuality(size: size.rounded(), confidence: b.confidence,
                                                     sharpness: Double(d.sharpness).rounded(), turn: (Double(d.turn) * 1000).rounded() / 1000))
        }
        let row = (found.map(\.h).max() ?? 0.1) / 2
        return found.sorted { a, b in
            let ra = Int(a.y / row), rb = Int(b.y / row)
            return ra != rb ? ra < rb : a.x < b.x
        }
    }

    /// The score of the working image, with the faces found on it and what the file's metadata
    /// says (camera data, a screenshot's name or size) for the utility rule.
    func score(_ working: RGBImage, decoded: DecodedImage, faces: [DetectedFace], asset: Asset,
               measurer: PhotoMeasurer) throws -> AssetScore {
        // JPEG blocks are 8 pixels of the full-size image: this many of the working image.
        let period = asset.format == .jpeg ? 8 * Double(working.width) / Double(max(1, decoded.fullWidth)) : 0
        let measures = try measurer.measure(working, faces: faces.map { ($0.x, $0.y, $0.w, $0.h) }, blockPeriod: period,
                                            fullLongSide: max(decoded.fullWidth, decoded.fullHeight))
        let context = ScoreModel.Context(hasCameraMetadata: asset.metadata.hasCameraMetadata,
                                         isScreenshotKind: asset.kind == .screenshot)
        return ScoreModel.score(measures, context: context)
    }

    static func hex(_ v: UInt64) -> String {
        let s = String(v, radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }
}
