import Foundation

/// Where dlib's two face models are on this machine: the 5-point shape predictor (alignment) and
/// the ResNet descriptor network. `scripts/install-deps` puts them in
/// `~/.local/share/shoebox/models`; nothing is fetched at run time.
public struct FaceModels: Sendable, Equatable {
    public static let shapePredictorName = "shape_predictor_5_face_landmarks.dat"
    public static let descriptorNetworkName = "dlib_face_recognition_resnet_model_v1.dat"

    public var shapePredictor: URL
    public var descriptorNetwork: URL

    public init(shapePredictor: URL, descriptorNetwork: URL) {
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

    /// The first folder holding both files (one installation, never a mix of two), or an error
    /// naming what is missing and where it was looked for.
    public static func locate(in folders: [URL] = searchFolders()) throws -> FaceModels {
        let fm = FileManager.default
        var missing: Set<String> = []
        for folder in folders {
            let predictor = folder.appendingPathComponent(shapePredictorName)
            let network = folder.appendingPathComponent(descriptorNetworkName)
            let hasPredictor = fm.isReadableFile(atPath: predictor.path)
            let hasNetwork = fm.isReadableFile(atPath: network.path)
            if hasPredictor && hasNetwork {
                return FaceModels(shapePredictor: predictor, descriptorNetwork: network)
            }
            if !hasPredictor { missing.insert(shapePredictorName) }
            if !hasNetwork { missing.insert(descriptorNetworkName) }
        }
        let names = [shapePredictorName, descriptorNetworkName].filter(missing.contains)
        throw FaceError.modelsMissing(files: names.isEmpty ? [shapePredictorName, descriptorNetworkName] : names,
                                      searched: folders.map(\.path))
    }
}
