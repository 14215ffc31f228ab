import Foundation
import Testing
@testable import Metadata
import TestSupport

@Suite("Ground truth")
struct GroundTruthTests {
    @Test("the committed sample library reads as its manifest says")
    func sampleLibrary() throws {
        var fields = 0
        for (url, entry) in try sampleFiles() {
            let m = try readMetadata(url)
            fields += expectMatchesManifest(m, entry)
        }
        print("sample library: \(fields) fields match the manifest")
        #expect(fields > 300)
    }

    @Test("a generated camera roll reads as its manifest says (Live Photos, videos, portraits)")
    func generatedRoll() throws {
        let roll = try TestRoll.make(seed: 11, count: 40, arguments: ["--live", "2", "--videos", "1", "--portraits", "0.4"])
        defer { try? FileManager.default.removeItem(at: roll.root.deletingLastPathComponent()) }
        var fields = 0
        var kinds = Set<String>()
        for entry in roll.entries {
            let m = try readMetadata(roll.root.appendingPathComponent(entry.path))
            fields += expectMatchesManifest(m, entry)
            kinds.insert(entry.format)
            if let photo = entry.live_photo_of, let truth = roll.entry(photo)?.taken_at.flatMap(manifestDate) {
                // A Live Photo's video carries the photo's instant.
                #expect(m.takenAt.map { abs($0.date.timeIntervalSince(truth.date)) < 1 } == true, "\(entry.path): live video date")
            }
        }
        #expect(kinds.isSuperset(of: ["jpeg", "png", "heic", "mp4", "mov"]), "roll lacks a format: \(kinds)")
        #expect(roll.entries.contains { !$0.persons.isEmpty }, "roll has no portraits")
        print("generated roll: \(fields) fields of \(roll.entries.count) files match the manifest")
    }

    @Test("reading fetches headers only, not whole files")
    func readsLittle() throws {
        for (url, entry) in try sampleFiles() where entry.size > 150_000 {
            let source = CountingSource(MemoryByteSource(try bytes(url)))
            _ = try MetadataReader.read(source, fileName: url.lastPathComponent)
            #expect(source.fetched < entry.size / 2 || source.fetched < 140_000,
                    "\(entry.path): fetched \(source.fetched) of \(entry.size) bytes")
        }
    }
}
