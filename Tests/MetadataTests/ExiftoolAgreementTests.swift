import Foundation
import Testing
@testable import Metadata
import TestSupport

/// Our reader against exiftool, an independent implementation, field by field.
@Suite("exiftool agreement")
struct ExiftoolAgreementTests {
    static let exiftool = ["/usr/bin/exiftool", "/usr/local/bin/exiftool"].first { FileManager.default.isExecutableFile(atPath: $0) }

    @Test("metadata agrees with exiftool on a generated camera roll", .enabled(if: exiftool != nil))
    func generatedRoll() throws {
        let roll = try TestRoll.make(seed: 11, count: 40, arguments: ["--live", "2", "--videos", "1", "--portraits", "0.4",
                                                                    "--dated-by", "0.4"])
        defer { try? FileManager.default.removeItem(at: roll.root.deletingLastPathComponent()) }
        let (fields, files) = try compare(root: roll.root)
        print("metadata agrees with exiftool on \(fields) fields of \(files) files (generated roll)")
        #expect(files == roll.entries.count)
        #expect(fields >= files * 5)
    }

    @Test("metadata agrees with exiftool on the sample library", .enabled(if: exiftool != nil))
    func sampleLibrary() throws {
        let lib = try TestRoll.sampleLibrary()
        let (fields, files) = try compare(root: lib.root)
        print("metadata agrees with exiftool on \(fields) fields of \(files) files (sample library)")
        #expect(files == lib.entries.count)
        #expect(fields >= files * 5)
    }

    /// Runs exiftool once over the tree and compares every media file; returns (fields, files).
    func compare(root: URL) throws -> (Int, Int) {
        let out = try TestRoll.run(Self.exiftool!, ["-json", "-n", "-G", "-struct", "-r", "-q", "-q",
                                                    "-ext", "jpg", "-ext", "jpeg", "-ext", "png", "-ext", "heic",
                                                    "-ext", "mov", "-ext", "mp4", root.path],
                                   environment: ["TZ": "UTC", "PATH": "/usr/bin:/bin"])
        let records = try #require(JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [[String: Any]])
        var fields = 0
        for r in records {
            let path = try #require(r["SourceFile"] as? String)
            let name = URL(fileURLWithPath: path).lastPathComponent
            let m = try readMetadata(URL(fileURLWithPath: path))
            func agree(_ label: String, _ ok: Bool, _ detail: @autoclosure () -> String) {
                #expect(ok, "\(name): \(label) disagrees: \(detail())")
                fields += 1
            }
            func int(_ key: String) -> Int? { (r[key] as? NSNumber)?.intValue }
            func double(_ key: String) -> Double? { (r[key] as? NSNumber)?.doubleValue }
            func string(_ key: String) -> String? { r[key].map { "\($0)" } }

            // Size of the stored pixels (HEIC: the displayed size, as libheif and Composite:ImageSize give).
            switch m.format {
            case .jpeg:
                agree("size", m.pixelWidth == int("File:ImageWidth") && m.pixelHeight == int("File:ImageHeight"),
                      "\(m.pixelWidth)×\(m.pixelHeight) vs \(r["File:ImageWidth"] ?? "-")×\(r["File:ImageHeight"] ?? "-")")
            case .png:
                agree("size", m.pixelWidth == int("PNG:ImageWidth") && m.pixelHeight == int("PNG:ImageHeight"),
                      "\(m.pixelWidth)×\(m.pixelHeight) vs \(r["PNG:ImageWidth"] ?? "-")×\(r["PNG:ImageHeight"] ?? "-")")
            case .heic:
                let size = string("Composite:ImageSize") ?? ""
                agree("size", size == "\(m.pixelWidth) \(m.pixelHeight)" || size == "\(m.pixelWidth)x\(m.pixelHeight)",
                      "\(m.pixelWidth)×\(m.pixelHeight) vs \(size)")
            case .raw, .tiff:
                agree("size", m.pixelWidth == int("EXIF:ImageWidth") && m.pixelHeight == int("EXIF:ImageHeight"),
                      "\(m.pixelWidth)×\(m.pixelHeight) vs \(r["EXIF:ImageWidth"] ?? "-")×\(r["EXIF:ImageHeight"] ?? "-")")
            case .mp4, .mov:
                var w = int("QuickTime:ImageWidth") ?? -1, h = int("QuickTime:ImageHeight") ?? -1
                if [90, 270].contains(int("Composite:Rotation") ?? 0) { swap(&w, &h) }
                agree("size", m.pixelWidth == w && m.pixelHeight == h, "\(m.pixelWidth)×\(m.pixelHeight) vs \(w)×\(h)")
                let created = try #require(string("QuickTime:CreateDate"))
                let expected = created.replacingOccurrences(of: " ", with: "T")
                    .replacingOccurrences(of: ":", with: "-", options: [], range: created.startIndex..<created.index(created.startIndex, offsetBy: 8))
                    + "+00:00"
                agree("CreateDate", m.takenAt?.iso8601 == expected, "\(m.takenAt?.iso8601 ?? "nil") vs \(expected)")
                agree("Duration", abs((m.duration ?? -1) - (double("QuickTime:Duration") ?? -2)) < 0.01,
                      "\(m.duration ?? -1) vs \(r["QuickTime:Duration"] ?? "-")")
            }
            if m.format == .jpeg || m.format == .png {
                agree("Orientation", m.orientation == (int("EXIF:Orientation") ?? 1), "\(m.orientation) vs \(r["EXIF:Orientation"] ?? "-")")
            }
            if let dto = string("Composite:SubSecDateTimeOriginal") ?? string("EXIF:DateTimeOriginal") {
                let expected = Self.iso(dto)
                agree("DateTimeOriginal", m.takenAt?.iso8601 == expected && m.takenAt?.source == .exif,
                      "\(m.takenAt?.iso8601 ?? "nil") vs \(expected)")
            } else if !m.format.isVideo, string("EXIF:CreateDate") == nil {
                agreeOnOtherDates(m, r, agree)
            }
            if let modified = string("EXIF:ModifyDate") {
                let expected = Self.iso(modified) + (string("EXIF:OffsetTime") ?? "")
                agree("ModifyDate", m.modifiedAt?.iso8601 == expected && m.modifiedAt?.source == .exifModified,
                      "\(m.modifiedAt?.iso8601 ?? "nil") vs \(expected)")
            }
            if !m.format.isVideo { agreeOnPlaceAndKind(m, r, agree) }
            if let lat = double("Composite:GPSLatitude"), let lon = double("Composite:GPSLongitude") {
                agree("GPSLatitude", abs((m.gps?.lat ?? 999) - lat) < 1e-6, "\(m.gps?.lat ?? 999) vs \(lat)")
                agree("GPSLongitude", abs((m.gps?.lon ?? 999) - lon) < 1e-6, "\(m.gps?.lon ?? 999) vs \(lon)")
            } else if !m.format.isVideo {
                agree("no GPS", m.gps == nil, "\(String(describing: m.gps)) vs none")
            }
            if let make = string("EXIF:Make") { agree("Make", m.make == make, "\(m.make ?? "nil") vs \(make)") }
            if let model = string("EXIF:Model") { agree("Model", m.model == model, "\(m.model ?? "nil") vs \(model)") }
            var people: [String] = []
            if let p = r["XMP:PersonInImage"] {
                people = (p as? [Any] ?? [p]).map { "\($0)" }
                agree("PersonInImage", Array(m.persons.prefix(people.count)) == people, "\(m.persons) vs \(people)")
            }
            let regions = ((r["XMP:RegionInfo"] as? [String: Any])?["RegionList"] as? [[String: Any]]) ?? []
            agree("region count", m.faces.count == regions.count, "\(m.faces.count) vs \(regions.count)")
            for (face, region) in zip(m.faces, regions) {
                let area = region["Area"] as? [String: Any] ?? [:]
                func v(_ k: String) -> Double { (area[k] as? NSNumber)?.doubleValue ?? -9 }
                agree("region name", face.name == region["Name"].map { "\($0)" }, "\(face.name ?? "nil") vs \(region["Name"] ?? "-")")
                agree("region area", abs(face.x + face.w / 2 - v("X")) < 1e-6 && abs(face.y + face.h / 2 - v("Y")) < 1e-6
                      && abs(face.w - v("W")) < 1e-6 && abs(face.h - v("H")) < 1e-6, "\(face) vs \(area)")
                if let n = region["Name"].map({ "\($0)" }) { people.append(n) }
            }
            agree("persons", m.persons == XMP.deduplicated(people), "\(m.persons) vs \(people)")
        }
        return (fields, records.count)
    }

    typealias Agree = (String, Bool, @autoclosure () -> String) -> Void

    /// exiftool's "2019:08:29 11:49:51.905+00:00" as `CaptureDate.iso8601` writes it
    /// ("2019-08-29T11:49:51.905+00:00"; ".000" is omitted).
    static func iso(_ text: String) -> String {
        var s = text.replacingOccurrences(of: " ", with: "T")
        s = s.replacingOccurrences(of: ":", with: "-", options: [], range: s.startIndex..<s.index(s.startIndex, offsetBy: min(8, s.count)))
        return s.replacingOccurrences(of: ".000", with: "")
    }

    /// Without EXIF capture dates: XMP's (exif:DateTimeOriginal, photoshop:DateCreated,
    /// xmp:CreateDate), else IPTC-IIM's DateCreated + TimeCreated, with offset and sub-seconds.
    func agreeOnOtherDates(_ m: MediaMetadata, _ r: [String: Any], _ agree: Agree) {
        func string(_ key: String) -> String? { r[key].map { "\($0)" } }
        if let xmp = ["XMP:DateTimeOriginal", "XMP:DateCreated", "XMP:CreateDate"].lazy.compactMap(string).first {
            let expected = Self.iso(xmp)
            agree("XMP date", m.takenAt?.iso8601 == expected && m.takenAt?.source == .xmp, "\(m.takenAt?.iso8601 ?? "nil") vs \(expected)")
        } else if let day = string("IPTC:DateCreated") {
            let expected = Self.iso(day + (string("IPTC:TimeCreated").map { " " + $0 } ?? " 00:00:00"))
            agree("IPTC date", m.takenAt?.iso8601 == expected && m.takenAt?.source == .iptc, "\(m.takenAt?.iso8601 ?? "nil") vs \(expected)")
        }
    }

    /// City and country as XMP, else IPTC-IIM, states them; and the marks of a camera (make,
    /// model, exposure, an EXIF capture time) that keep a photo from being called a screenshot.
    func agreeOnPlaceAndKind(_ m: MediaMetadata, _ r: [String: Any], _ agree: Agree) {
        func string(_ key: String) -> String? { r[key].map { "\($0)" } }
        let city = string("XMP:City") ?? string("IPTC:City")
        let country = string("XMP:Country") ?? string("IPTC:Country-PrimaryLocationName") ?? string("XMP:CountryCode")
            ?? string("IPTC:Country-PrimaryLocationCode")
        agree("City", m.city == city, "\(m.city ?? "nil") vs \(city ?? "nil")")
        agree("Country", m.country == country, "\(m.country ?? "nil") vs \(country ?? "nil")")
        let marks = ["EXIF:Make", "EXIF:Model", "EXIF:ExposureTime", "EXIF:FNumber", "EXIF:ISO",
                     "EXIF:DateTimeOriginal", "EXIF:CreateDate"].contains { r[$0] != nil }
        agree("camera marks (kind)", m.hasCameraMetadata == marks, "\(m.hasCameraMetadata) vs \(marks)")
    }
}
