import Foundation
import Testing
@testable import Metadata
import TestSupport

/// Reads a file the way Shoebox does: through a pread ByteSource, never the whole file.
func readMetadata(_ url: URL) throws -> MediaMetadata {
    let fd = open(url.path, O_RDONLY)
    guard fd >= 0 else { throw CocoaError(.fileReadNoPermission) }
    defer { close(fd) }
    let size = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as! Int
    return try MetadataReader.read(FileByteSource(fd: fd, size: Int64(size)), fileName: url.lastPathComponent)
}

func bytes(_ url: URL) throws -> [UInt8] { [UInt8](try Data(contentsOf: url)) }

/// All files of the sample library with their manifest entries.
func sampleFiles() throws -> [(URL, RollEntry)] {
    let lib = try TestRoll.sampleLibrary()
    return lib.entries.map { (lib.root.appendingPathComponent($0.path), $0) }
}

/// The first sample file of a format (optionally with a predicate on its manifest entry).
func sampleFile(_ format: String, where predicate: (RollEntry) -> Bool = { _ in true }) throws -> URL {
    let hit = try sampleFiles().first { $0.1.format == format && predicate($0.1) }
    return try #require(hit?.0, "no \(format) in the sample library")
}

/// Parses the manifest's ISO 8601 ("2019-08-29T11:49:51+00:00") into instant and offset.
func manifestDate(_ iso: String) -> (date: Date, offset: Int)? {
    guard let d = DateText.iso8601(iso, source: .exif), let o = d.utcOffsetSeconds else { return nil }
    return (d.date, o)
}

/// A ByteSource that records how many bytes were fetched (to show nothing reads whole files).
final class CountingSource: ByteSource, @unchecked Sendable {
    let inner: ByteSource
    private(set) var fetched = 0
    private(set) var calls = 0
    init(_ inner: ByteSource) { self.inner = inner }
    var count: Int64 { inner.count }
    func read(at offset: Int64, length: Int) throws -> [UInt8] {
        let out = try inner.read(at: offset, length: length)
        fetched += out.count
        calls += 1
        return out
    }
}

/// Compares one file's metadata to its ground truth; returns the number of fields compared.
@discardableResult
func expectMatchesManifest(_ m: MediaMetadata, _ e: RollEntry, sourceLocation: SourceLocation = #_sourceLocation) -> Int {
    var compared = 0
    let what = e.path
    #expect(m.format.rawValue == e.format, "\(what): format", sourceLocation: sourceLocation)
    #expect([m.uprightWidth, m.uprightHeight] == e.upright_size, "\(what): upright size \(m.uprightWidth)×\(m.uprightHeight)",
            sourceLocation: sourceLocation)
    compared += 2
    if e.format != "heic" && e.kind != "video" {
        #expect(m.orientation == e.orientation, "\(what): orientation", sourceLocation: sourceLocation)
        compared += 1
    }
    if let iso = e.taken_at, let truth = manifestDate(iso) {
        if m.takenAt == nil { Issue.record("\(what): no capture date", sourceLocation: sourceLocation) }
        if let got = m.takenAt {
            // The manifest has whole seconds; the file may carry milliseconds.
            #expect(got.date.timeIntervalSince1970.rounded(.down) == truth.date.timeIntervalSince1970,
                    "\(what): taken \(got.iso8601), expected \(iso)", sourceLocation: sourceLocation)
            if e.kind == "video" {
                // Containers store UTC only (mvhd): the instant is right, the zone unknown.
                #expect(got.source == .container, "\(what): date source", sourceLocation: sourceLocation)
            } else {
                #expect(got.utcOffsetSeconds == truth.offset, "\(what): offset of \(got.iso8601)", sourceLocation: sourceLocation)
                #expect(got.source.rawValue == (e.date_source ?? "exif"), "\(what): date source \(got.source)",
                        sourceLocation: sourceLocation)
            }
            compared += 2
        }
    } else {
        // No date in the file: only a file-name date may appear.
        #expect(m.takenAt == nil || m.takenAt?.source == .filename, "\(what): unexpected date \(m.takenAt?.iso8601 ?? "")",
                sourceLocation: sourceLocation)
    }
    if e.kind != "video" {  // the generator records the photo's place for a Live Photo's video, not written to it
        if let g = e.gps {
            #expect(m.gps.map { abs($0.lat - g[0]) < 1e-4 && abs($0.lon - g[1]) < 1e-4 } == true,
                    "\(what): gps \(String(describing: m.gps)) expected \(g)", sourceLocation: sourceLocation)
        } else {
            #expect(m.gps == nil, "\(what): unexpected gps", sourceLocation: sourceLocation)
        }
        compared += 1
    }
    if e.date_source == "xmp" || e.date_source == "iptc" {  // the place is written as text, not as GPS
        #expect(m.city == e.city && m.country == e.country, "\(what): place \(m.city ?? "-"), \(m.country ?? "-")",
                sourceLocation: sourceLocation)
        compared += 1
    }
    #expect(m.persons == e.persons.map(\.name), "\(what): persons \(m.persons)", sourceLocation: sourceLocation)
    compared += 1
    #expect(m.faces.count == e.persons.count, "\(what): \(m.faces.count) faces", sourceLocation: sourceLocation)
    for (face, person) in zip(m.faces, e.persons) {
        let b = person.box
        let ok = abs(face.x + face.w / 2 - b[0]) < 0.01 && abs(face.y + face.h / 2 - b[1]) < 0.01
            && abs(face.w - b[2]) < 0.01 && abs(face.h - b[3]) < 0.01 && face.name == person.name
        #expect(ok, "\(what): face \(face) expected centre box \(b)", sourceLocation: sourceLocation)
        compared += 1
    }
    if let camera = e.camera {
        #expect(m.make == camera[0] && m.model == camera[1], "\(what): camera \(m.make ?? "-") \(m.model ?? "-")",
                sourceLocation: sourceLocation)
        compared += 1
    }
    if e.kind == "video" {
        #expect((m.duration ?? 0) > 0, "\(what): duration", sourceLocation: sourceLocation)
        compared += 1
    }
    return compared
}
