import Foundation
import Testing
import TestSupport
@testable import PhotoLibrary

/// What a `kill -9` in the middle of a whole-file write leaves behind is cleaned up by the next
/// start, and nothing else is touched.
struct AtomicFileTests {
    /// The PID of a process that has exited and been reaped.
    static func deadPID() throws -> pid_t {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/true")
        try p.run()
        p.waitUntilExit()
        return p.processIdentifier
    }

    @Test func temporariesOfDeadWritersGoAndEverythingElseStays() throws {
        let dir = Scratch.root.appendingPathComponent("shoebox-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let dead = try Self.deadPID()
        let names = [
            ".01J9Z.json.\(dead).3141592653.tmp",        // a killed writer's sidecar: goes
            ".lock.\(getpid()).7.tmp",                   // this process is writing it: stays
            ".01J9Z.json.1.7.tmp",                       // PID 1 is alive: stays
            ".backup.tmp",                               // not ours: stays
            "01J9Z.json",                                // the sidecar itself: stays
            ".photo.jpg.\(dead).x.tmp",                  // not our pattern: stays
        ]
        for n in names { try Data("x".utf8).write(to: dir.appendingPathComponent(n)) }
        let removed = AtomicFile.removeTemporariesOfDeadWriters(in: dir.path)
        #expect(removed == [names[0]])
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: dir.path))
        #expect(left == Set(names.dropFirst()))
    }

    @Test func aWriteReplacesTheFileWhole() throws {
        let dir = Scratch.root.appendingPathComponent("shoebox-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let target = dir.appendingPathComponent("config.toml")
        try AtomicFile.write(Data("old".utf8), to: target)
        try AtomicFile.write(Data("new contents".utf8), to: target)
        #expect(try String(contentsOf: target, encoding: .utf8) == "new contents")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["config.toml"])
    }
}
