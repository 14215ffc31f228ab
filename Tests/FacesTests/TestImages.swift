import Foundation
import Imaging
import TestSupport

/// Real photographs as `RGBImage`, decoded by ImageMagick (upright, 8-bit sRGB): these tests do
/// not depend on the pipeline's own decoder.
enum TestImages {
    static let photos = TestRoll.repositoryRoot.appendingPathComponent("test-data/photos")
    static var astronaut: URL { photos.appendingPathComponent("astronaut.jpg") }
    static var camera: URL { photos.appendingPathComponent("camera.jpg") }

    /// The file upright, optionally cut (`-crop` geometry in pixels of the upright photo) and
    /// scaled (percent), as RGB pixels.
    static func decode(_ url: URL, crop: String? = nil, scalePercent: Double? = nil) throws -> RGBImage {
        var args = [url.path, "-auto-orient", "-strip", "-colorspace", "sRGB", "-type", "TrueColor"]
        if let crop { args += ["-crop", crop, "+repage"] }
        if let scalePercent { args += ["-resize", "\(scalePercent)%"] }
        args += ["-depth", "8", "ppm:-"]
        return try parsePPM(run("/usr/bin/convert", args))
    }

    /// A binary PPM (P6, maxval 255) into pixels.
    static func parsePPM(_ data: Data) throws -> RGBImage {
        var fields: [Int] = []
        var index = data.startIndex
        // "P6", width, height, maxval: whitespace-separated, then one whitespace byte.
        var token = ""
        var seen = 0
        while seen < 4, index < data.endIndex {
            let c = data[index]
            index += 1
            if c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 {
                if !token.isEmpty {
                    if seen > 0 { fields.append(Int(token) ?? -1) }
                    seen += 1
                    token = ""
                }
            } else {
                token.append(Character(UnicodeScalar(c)))
            }
        }
        guard fields.count == 3, fields[2] == 255, fields[0] > 0, fields[1] > 0 else {
            throw TestImageError("not an 8-bit PPM from convert: \(fields)")
        }
        let (w, h) = (fields[0], fields[1])
        let pixels = [UInt8](data[index...])
        guard pixels.count >= w * h * 3 else { throw TestImageError("a truncated PPM of \(w)×\(h)") }
        return RGBImage(width: w, height: h, pixels: Array(pixels.prefix(w * h * 3)))
    }

    static func run(_ tool: String, _ args: [String]) throws -> Data {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: tool)
        p.arguments = args
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw TestImageError("\(tool) \(args.joined(separator: " ")) failed") }
        return data
    }
}

struct TestImageError: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}
