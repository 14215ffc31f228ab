import Foundation
import Testing
import TestSupport
@testable import Faces

/// The models are found where install-deps puts them, and their absence says what to do.
@Suite struct FaceModelsTests {
    static func emptyFolder() throws -> URL {
        let dir = Scratch.root.appendingPathComponent("shoebox-models-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test func missingModelsNameTheFilesTheFoldersAndTheFix() throws {
        let a = try Self.emptyFolder(), b = try Self.emptyFolder()
        defer { try? FileManager.default.removeItem(at: a); try? FileManager.default.removeItem(at: b) }
        let error = #expect(throws: FaceError.self) { try FaceModels.locate(in: [a, b]) }
        let text = error.map(String.init(describing:)) ?? ""
        for name in [FaceModels.detectorNetworkName, FaceModels.shapePredictorName, FaceModels.descriptorNetworkName] {
            #expect(text.contains(name))
        }
        #expect(text.contains(a.path) && text.contains(b.path))
        #expect(text.contains("scripts/install-deps"))
    }

    @Test func oneMissingFileIsTheOneNamed() throws {
        let dir = try Self.emptyFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("x".utf8).write(to: dir.appendingPathComponent(FaceModels.shapePredictorName))
        try Data("x".utf8).write(to: dir.appendingPathComponent(FaceModels.detectorNetworkName))
        #expect(throws: FaceError.modelsMissing(files: [FaceModels.descriptorNetworkName], searched: [dir.path])) {
            try FaceModels.locate(in: [dir])
        }
    }

    @Test func searchOrderStartsWithTheEnvironmentThenTheUsersFolder() {
        let folders = FaceModels.searchFolders(environment: ["SHOEBOX_MODELS": "/opt/m", "HOME": "/home/u"])
        #expect(folders.map(\.path) == ["/opt/m", "/home/u/.local/share/shoebox/models",
                                        "/usr/local/share/shoebox/models", "/usr/share/shoebox/models"])
    }

    @Test func anInvalidModelFileIsAnErrorNamingItNotACrash() throws {
        let dir = try Self.emptyFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        for name in [FaceModels.detectorNetworkName, FaceModels.shapePredictorName, FaceModels.descriptorNetworkName] {
            try Data("not a model".utf8).write(to: dir.appendingPathComponent(name))
        }
        let models = try FaceModels.locate(in: [dir])
        let error = #expect(throws: FaceError.self) { try FaceRecognizer(models: models) }
        #expect(error.map(String.init(describing:))?.contains(models.shapePredictor.path) == true)
        let detector = #expect(throws: FaceError.self) { try FaceDetector(method: .centerFace(network: models.detectorNetwork.path)) }
        #expect(detector.map(String.init(describing:))?.contains(models.detectorNetwork.path) == true)
    }

    @Test func aMissingCascadeIsAnErrorNamingIt() {
        let error = #expect(throws: FaceError.self) { try FaceDetector(method: .haar(cascade: "/nonexistent/cascade.xml")) }
        #expect(error.map(String.init(describing:))?.contains("/nonexistent/cascade.xml") == true)
    }
}
