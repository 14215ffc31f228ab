import Foundation
import Testing
import TestSupport
import PhotoLibrary
@testable import WebServer

/// The byte ranges a video element asks for, and the static files a page loads.
@Suite struct MediaRulesTests {
    @Test func rangesInsideTheFileAreAnsweredAndOthersRefused() {
        #expect(OriginalResponse.parseRange("bytes=0-99", size: 1000) == .some(0..<100))
        #expect(OriginalResponse.parseRange("bytes=900-", size: 1000) == .some(900..<1000))
        #expect(OriginalResponse.parseRange("bytes=-100", size: 1000) == .some(900..<1000))
        #expect(OriginalResponse.parseRange("bytes=-5000", size: 1000) == .some(0..<1000))
        #expect(OriginalResponse.parseRange("bytes=990-2000", size: 1000) == .some(990..<1000), "an end past the file is cut")
        // Not satisfiable: 416.
        #expect(OriginalResponse.parseRange("bytes=1000-", size: 1000) == nil)
        #expect(OriginalResponse.parseRange("bytes=5-4", size: 1000) == nil)
        #expect(OriginalResponse.parseRange("bytes=-0", size: 1000) == nil)
        // Answered whole: several ranges, other units, nonsense.
        #expect(OriginalResponse.parseRange("bytes=0-1,5-6", size: 1000) == .some(nil))
        #expect(OriginalResponse.parseRange("items=0-1", size: 1000) == .some(nil))
    }

    @Test func theEmbeddedFilesAreThereAndNoPathLeavesThem() throws {
        let files = WebFiles()
        let shell = try #require(files.file("app.html"))
        #expect(String(decoding: shell.bytes, as: UTF8.self).contains("{{page}}"))
        #expect(shell.contentType.hasPrefix("text/html"))
        for bad in ["../Package.swift", "/etc/passwd", "css/../../x", "./app.html", ".hidden", "a//b", "a\\b", ""] {
            #expect(files.file(bad) == nil, "\(bad.debugDescription)")
        }
    }

    @Test func aFolderGivenForDevelopmentServesItsOwnFiles() throws {
        let dir = Scratch.root.appendingPathComponent("web-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("js"), withIntermediateDirectories: true)
        try Data("export {}".utf8).write(to: dir.appendingPathComponent("js/a.js"))
        let files = WebFiles(root: dir)
        #expect(files.file("js/a.js")?.contentType == "text/javascript; charset=utf-8")
        #expect(files.file("js/../js/a.js") == nil)
    }

    /// A static file's entity tag is the first 24 hex digits of its SHA-256, as `sha256sum` prints
    /// it: the tags browsers already hold stay valid across builds that do not change the file.
    @Test func aStaticFilesTagIsThePrefixOfItsSHA256() throws {
        let dir = Scratch.root.appendingPathComponent("web-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("css"), withIntermediateDirectories: true)
        let css = dir.appendingPathComponent("css/a.css")
        try Data("body { margin: 0 }\n".utf8).write(to: css)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        p.arguments = [css.path]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let printed = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(WebFiles(root: dir).file("css/a.css")?.etag == "\"\(printed.prefix(24))\"")
    }

    @Test func theGridDocumentIsJSONWithOneRowPerAsset() throws {
        var rows: [GridRow] = []
        for i in 0..<3 {
            let taken: Double? = i == 2 ? nil : 1_600_000_000 + Double(i)
            let kind: AssetKind = i == 1 ? .video : .photo
            let duration: Double? = i == 1 ? 12.5 : nil
            rows.append(GridRow(id: AssetID(), takenEpoch: taken, kind: kind, width: 4000, height: 3000, version: "0123abcd", duration: duration))
        }
        let object = try JSONSerialization.jsonObject(with: LibraryRoutes.gridDocument(generation: "7", rows: rows)) as? [String: Any]
        let items = try #require(object?["items"] as? [[Any]])
        #expect(object?["count"] as? Int == 3)
        #expect(items.count == 3)
        #expect(items[1][2] as? String == "v")
        #expect(items[2][1] is NSNull)
        #expect((items[1][6] as? Double) == 12.5)
    }

    @Test func aQueryIsReadAsAFormWritesIt() {
        // URLSearchParams writes a space as "+"; a literal plus comes as %2B.
        let q = FormQuery.parse("place=Reykjav%C3%ADk%2C+Iceland&person=Ann+Lee&tag=a%2Bb&empty=&place=second")
        #expect(q["place"] == "Reykjavík, Iceland", "the first of a repeated key")
        #expect(q["person"] == "Ann Lee")
        #expect(q["tag"] == "a+b")
        #expect(q["empty"] == "")
        #expect(FormQuery.parse(nil).isEmpty)
    }
}
