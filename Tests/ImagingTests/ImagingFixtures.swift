import Foundation
import CLCMS2
@testable import Imaging
import Metadata
import TestSupport

/// Inputs made at test time the way users' tools make them (ImageMagick, exiftool, heif-enc,
/// ffmpeg, lcms2's jpgicc), and the measures the tests compare decodes with.
enum Fixtures {
    static let photos = TestRoll.repositoryRoot.appendingPathComponent("test-data/photos")
    static func photo(_ name: String) -> String { photos.appendingPathComponent(name).path }

    static func tool(_ name: String) -> String? {
        ["/usr/bin/", "/usr/local/bin/"].map { $0 + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
    static var available: Bool { ["convert", "exiftool", "heif-enc", "ffmpeg", "jpgicc"].allSatisfy { tool($0) != nil } }

    @discardableResult
    static func run(_ name: String, _ args: [String]) throws -> String {
        try TestRoll.run(tool(name)!, args, environment: ["PATH": "/usr/bin:/bin", "TZ": "UTC"]).stdout
    }

    static func folder() throws -> URL {
        let dir = Scratch.root.appendingPathComponent("shoebox-imaging-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// Decodes through the public entry point, from an open descriptor as the pipeline does.
    static func decode(_ url: URL, _ format: MediaFormat, minLongSide: Int = 100_000, orientation: Int? = nil,
                       limits: DecodeLimits = .default) throws -> DecodedImage {
        let fd = open(url.path, O_RDONLY)
        guard fd >= 0 else { throw ImagingError(.io, url.lastPathComponent, "cannot open") }
        defer { close(fd) }
        return try ImageDecoder.decode(fileDescriptor: fd, name: url.lastPathComponent, format: format,
                                       minLongSide: minLongSide, orientation: orientation, limits: limits)
    }

    struct Probe { var width, height: Int; var source: String; var peakMiB: Int }

    /// Decodes `url` in a process of its own (`imaging-probe`, built beside the test bundle) at
    /// the pipeline's minLongSide: its peak RSS is that one decode's, where this process's peak
    /// is every test's so far and could hide a full-size buffer.
    /// The `imaging-probe` built beside the running test bundle.
    static func probeBinary() throws -> String {
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        var binary = dir.appendingPathComponent("imaging-probe")
        for _ in 0..<3 where !FileManager.default.isExecutableFile(atPath: binary.path) {
            dir = dir.deletingLastPathComponent()
            binary = dir.appendingPathComponent("imaging-probe")
        }
        return binary.path
    }

    static func probe(_ url: URL, _ format: MediaFormat, minLongSide: Int = 960) throws -> Probe {
        let out = try TestRoll.run(try probeBinary(), [url.path, format.rawValue, String(minLongSide)]).stdout
        let f = out.split(separator: " ").map(String.init)
        guard f.count == 6, let w = Int(f[0]), let h = Int(f[1]), let kib = Int(f[5].trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw ImagingError(.io, url.lastPathComponent, "imaging-probe said: \(out)")
        }
        return Probe(width: w, height: h, source: f[4], peakMiB: kib >> 10)
    }

    /// Any image ImageMagick reads, as 8-bit RGB through a binary PPM (no decoder of ours involved).
    static func reference(_ url: URL, _ extra: [String] = []) throws -> RGBImage {
        // In a temporary file of its own: never beside the input (which may be in test-data/).
        let ppm = Scratch.root.appendingPathComponent("shoebox-imaging-ref-\(UUID().uuidString).ppm")
        defer { try? FileManager.default.removeItem(at: ppm) }
        try run("convert", [url.path] + extra + ["-depth", "8", "ppm:" + ppm.path])
        return try readPPM(ppm)
    }

    static func readPPM(_ url: URL) throws -> RGBImage {
        let data = [UInt8](try Data(contentsOf: url))
        var fields: [String] = [], i = 0
        while fields.count < 4 {
            while i < data.count, data[i] == 0x20 || data[i] == 0x0A || data[i] == 0x0D || data[i] == 0x09 { i += 1 }
            if i < data.count, data[i] == UInt8(ascii: "#") {   // ImageMagick writes a comment line
                while i < data.count, data[i] != 0x0A { i += 1 }
                continue
            }
            var field = ""
            while i < data.count, !(data[i] == 0x20 || data[i] == 0x0A || data[i] == 0x0D || data[i] == 0x09) {
                field.append(Character(UnicodeScalar(data[i]))); i += 1
            }
            fields.append(field)
        }
        i += 1
        let w = Int(fields[1])!, h = Int(fields[2])!
        return RGBImage(width: w, height: h, pixels: Array(data[i..<(i + w * h * 3)]))
    }

    /// Mean absolute difference per channel value (0…255); infinity when the sizes differ.
    static func mad(_ a: RGBImage, _ b: RGBImage) -> Double {
        guard a.width == b.width, a.height == b.height else { return .infinity }
        var sum = 0
        for i in 0..<a.pixels.count { sum += abs(Int(a.pixels[i]) - Int(b.pixels[i])) }
        return Double(sum) / Double(a.pixels.count)
    }

    /// Mean saturation proxy: the average of max(R,G,B) − min(R,G,B).
    static func chroma(_ a: RGBImage) -> Double {
        var sum = 0
        for p in stride(from: 0, to: a.pixels.count, by: 3) {
            let r = Int(a.pixels[p]), g = Int(a.pixels[p + 1]), b = Int(a.pixels[p + 2])
            sum += max(r, g, b) - min(r, g, b)
        }
        return Double(sum) / Double(a.pixels.count / 3)
    }

    /// An RGB matrix-shaper ICC profile written by lcms2 (Debian ships no Display P3 or Adobe
    /// RGB profile): D65 white, the given primaries, and sRGB's curve (P3) or a pure gamma.
    static func iccProfile(_ url: URL, primaries: [(Double, Double)], gamma: Double?) throws {
        var white = cmsCIExyY(x: 0.3127, y: 0.3290, Y: 1)
        var triple = cmsCIExyYTRIPLE(Red: cmsCIExyY(x: primaries[0].0, y: primaries[0].1, Y: 1),
                                     Green: cmsCIExyY(x: primaries[1].0, y: primaries[1].1, Y: 1),
                                     Blue: cmsCIExyY(x: primaries[2].0, y: primaries[2].1, Y: 1))
        var params: [Double] = gamma.map { [$0] } ?? [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]
        let curve = cmsBuildParametricToneCurve(nil, gamma == nil ? 4 : 1, &params)
        defer { cmsFreeToneCurve(curve) }
        var curves: [OpaquePointer?] = [curve, curve, curve]
        let profile = cmsCreateRGBProfile(&white, &triple, &curves)
        defer { cmsCloseProfile(profile) }
        guard cmsSaveProfileToFile(profile, url.path) != 0 else { throw ImagingError(.io, url.path, "cannot save profile") }
    }

    static let displayP3: [(Double, Double)] = [(0.680, 0.320), (0.265, 0.690), (0.150, 0.060)]
    static let adobeRGB: [(Double, Double)] = [(0.640, 0.330), (0.210, 0.710), (0.150, 0.060)]

    /// The stored pixels for EXIF orientation `o` of an upright picture: ImageMagick's inverse
    /// of the turn a viewer applies (6 is stored turned 90° anticlockwise, and so on).
    static let inverseTurn: [Int: [String]] = [
        1: [], 2: ["-flop"], 3: ["-rotate", "180"], 4: ["-flip"],
        5: ["-transpose"], 6: ["-rotate", "270"], 7: ["-transverse"], 8: ["-rotate", "90"],
    ]
}
