import Foundation

/// One file of a generated camera roll, as `make-camera-roll` describes it (ground truth).
public struct RollEntry: Decodable, Sendable {
    public struct Person: Decodable, Sendable {
        public var name: String
        /// Centre x, centre y, width, height, normalised to the upright image (MWG convention).
        public var box: [Double]
    }
    public var path: String
    public var kind: String
    public var format: String
    public var taken_at: String?
    public var gps: [Double]?
    public var city: String?
    public var country: String?
    public var persons: [Person]
    public var orientation: Int
    public var upright_size: [Int]
    public var duplicate_of: String?
    public var near_duplicate_of: String?
    public var is_utility: Bool
    public var burst: String?
    public var live_video: String?
    public var live_photo_of: String?
    public var camera: [String]?
    /// How the photo was spoilt on purpose (`blur`, `noise`, `flat`, `jpeg`…, level 1–3), or nil.
    public struct Degradation: Decodable, Sendable { public var type: String; public var level: Int }
    public var degradation: Degradation?
    /// Where a photo's capture time is written: "exif", "xmp" or "iptc" (nil: EXIF, or no date).
    public var date_source: String?
    public var mtime: Double
    public var size: Int
}

/// Camera rolls made by the repository's `scripts/make-camera-roll` from the photographs in
/// `test-data/photos`. Generating one takes seconds to minutes, so each (seed, options, generator
/// version) is made once per machine into a cache folder and every test gets its own copy to change freely.
public enum TestRoll {
    /// The repository root (this file is Tests/TestSupport/TestRoll.swift).
    public static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `scripts/make-camera-roll` of this repository; `$SHOEBOX_MAKE_CAMERA_ROLL` names another.
    public static var generator: URL {
        if let p = ProcessInfo.processInfo.environment["SHOEBOX_MAKE_CAMERA_ROLL"] { return URL(fileURLWithPath: p) }
        return repositoryRoot.appendingPathComponent("scripts/make-camera-roll")
    }

    /// A fingerprint of the generator's code (the script and its `camera_roll` modules), part of the
    /// cache key: a changed generator makes new rolls instead of reusing ones it would no longer make.
    static let generatorVersion: String = {
        let fm = FileManager.default
        let modules = generator.deletingLastPathComponent().appendingPathComponent("camera_roll")
        let names = ((try? fm.contentsOfDirectory(atPath: modules.path)) ?? []).filter { $0.hasSuffix(".py") }.sorted()
        let files = [generator] + names.map { modules.appendingPathComponent($0) }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a, 64 bits
        for file in files {
            for byte in (try? Data(contentsOf: file)) ?? Data() {
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            }
        }
        return String(hash, radix: 16)
    }()

    static let cacheRoot: URL = {
        let base = ProcessInfo.processInfo.environment["SHOEBOX_TEST_CACHE"] ?? NSTemporaryDirectory()
        return URL(fileURLWithPath: base).appendingPathComponent("shoebox-test-rolls")
    }()

    public struct Made: Sendable {
        /// A private copy of the roll: the test may change it.
        public var root: URL
        public var entries: [RollEntry]
        public init(root: URL, entries: [RollEntry]) { self.root = root; self.entries = entries }
        public func entry(_ path: String) -> RollEntry? { entries.first { $0.path == path } }
    }

    /// A fresh copy of the roll for `seed` and `arguments` (extra make-camera-roll flags).
    public static func make(seed: Int, count: Int = 40, arguments: [String] = []) throws -> Made {
        let key = "seed\(seed)-n\(count)" + (arguments.isEmpty ? "" : "-" + arguments.joined(separator: "_")
            .replacingOccurrences(of: "-", with: "").replacingOccurrences(of: ".", with: "p")) + "-g" + generatorVersion
        let cached = cacheRoot.appendingPathComponent(key)
        let manifest = cacheRoot.appendingPathComponent(key + ".manifest.json")
        let fm = FileManager.default
        try fm.createDirectory(at: cacheRoot, withIntermediateDirectories: true)
        try withLock(cacheRoot.appendingPathComponent(key + ".lock")) {
            if !fm.fileExists(atPath: manifest.path) {
                try? fm.removeItem(at: cached)
                try run(generator.path, [cached.path, "--seed", String(seed), "--count", String(count)] + arguments)
            }
        }
        let copy = Scratch.root.appendingPathComponent("shoebox-test-\(UUID().uuidString)/roll")
        try fm.createDirectory(at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
        try run("/bin/cp", ["-a", cached.path, copy.path])
        let entries = try JSONDecoder().decode([RollEntry].self, from: Data(contentsOf: manifest))
        return Made(root: copy, entries: entries)
    }

    /// The committed sample library and its ground truth (read-only: copy before changing).
    public static func sampleLibrary() throws -> Made {
        let root = repositoryRoot.appendingPathComponent("sample-library")
        let manifest = repositoryRoot.appendingPathComponent("Tests/Fixtures/sample-library.manifest.json")
        return Made(root: root, entries: try JSONDecoder().decode([RollEntry].self, from: Data(contentsOf: manifest)))
    }

    /// A private copy of the sample library (with its ground truth) that the test may change.
    public static func sampleCopy() throws -> Made {
        let sample = try sampleLibrary()
        let dir = Scratch.root.appendingPathComponent("shoebox-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let root = dir.appendingPathComponent("library")
        try run("/bin/cp", ["-a", sample.root.path, root.path])
        return Made(root: root, entries: sample.entries)
    }

    /// The generated roll most end-to-end tests share: dates in many zones, bursts, a duplicate,
    /// Live Photos and portraits of two named people.
    public static func standard() throws -> Made {
        try make(seed: 21, count: 40, arguments: ["--live", "2", "--portraits", "0.4"])
    }

    @discardableResult
    public static func run(_ tool: String, _ args: [String], environment: [String: String]? = nil,
                           allowFailure: Bool = false) throws -> (status: Int32, stdout: String, stderr: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: tool)
        p.arguments = args
        if let environment { p.environment = environment }
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = FileHandle.nullDevice
        try p.run()
        // Drain both pipes concurrently so a chatty child cannot fill one and block.
        nonisolated(unsafe) var errData = Data()
        let t = Thread { errData = err.fileHandleForReading.readDataToEndOfFile() }
        t.start()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        while t.isExecuting || !t.isFinished { usleep(1000) }
        let result = (p.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
        if !allowFailure && p.terminationStatus != 0 {
            throw NSError(domain: "TestRoll", code: Int(p.terminationStatus), userInfo: [
                NSLocalizedDescriptionKey: "\(tool) \(args.joined(separator: " ")) failed (\(p.terminationStatus)): \(result.2)"])
        }
        return result
    }

    private static func withLock(_ url: URL, _ body: () throws -> Void) throws {
        let fd = open(url.path, O_CREAT | O_RDWR, 0o644)
        guard fd >= 0 else { return try body() }
        defer { close(fd) }
        flock(fd, LOCK_EX)
        defer { flock(fd, LOCK_UN) }
        try body()
    }
}
