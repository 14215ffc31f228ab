import Foundation
import Testing
import TestSupport

/// Every `--json` of a listing is printed by the streaming writer (issue 33); the reference is
/// what JSONEncoder printed before it (`SHOEBOX_JSON_REFERENCE=1` makes the binary print that).
/// On one real library — the sample library scanned and analysed, with a trash, a curation list,
/// marks and a maybe in a tidy session — each command's two outputs are the same bytes and parse
/// to the same object: a field dropped, renamed, reordered or formatted otherwise fails here.
@Suite(.serialized)
struct JSONStreamEndToEndTests {
    /// The library, made once for every command below.
    static let library: Result<(ShoeboxCLI, [String: String]), any Error> = Result {
        let made = try TestRoll.sampleCopy()
        let cli = try ShoeboxCLI.scanned(made)
        for step in [["analyze"], ["tidy", "filter", "all"], ["tidy", "delete"], ["tidy", "maybe"], ["tidy", "keep"]] {
            let r = try cli.run(step)
            guard r.status == 0 else { throw CLIError(step: step, stderr: r.stderr) }
        }
        let photos = made.entries.filter { $0.live_photo_of == nil && $0.live_video == nil && $0.format == "jpeg" }.map(\.path)
        for step in [["trash", photos[0]], ["curate", "add", photos[1], photos[2], photos[3]], ["curate", "top", "1"]] {
            let r = try cli.run(step)
            guard r.status == 0 else { throw CLIError(step: step, stderr: r.stderr) }
        }
        let albums = try #require(try cli.json(["album", "list"]) as? [[String: Any]])
        let yearPath = try #require(albums.first { $0["kind"] as? String == "year" }?["path"] as? String)
        let year = String(yearPath.dropFirst("Albums/".count))  // `Years/2017`
        let person = try #require((try cli.json(["people", "list"]) as? [[String: Any]])?.first?["id"] as? String)
        return (cli, ["YEAR": year, "PERSON": person, "PHOTO": photos[4]])
    }

    struct CLIError: Error, CustomStringConvertible {
        var step: [String]
        var stderr: String
        var description: String { "\(step.joined(separator: " ")) failed: \(stderr)" }
    }

    /// The commands whose `--json` grows with the library, and a few small ones of each shape.
    static let commands: [[String]] = [
        ["list"], ["list", "--trashed"], ["show", "PHOTO"],
        ["tidy", "similar"], ["tidy", "list"], ["tidy", "list", "--all"], ["tidy", "trash"], ["tidy", "maybes"],
        ["tidy", "status"], ["tidy", "next"],
        ["album", "list"], ["album", "show", "YEAR"],
        ["people", "list"], ["people", "show", "PERSON"],
        ["trash", "list"], ["curate", "list"], ["memories", "sources"],
        ["doctor"], ["scan", "--verbose"], ["analyze"],
    ]

    /// The parsed document written again with sorted keys: two documents with the same objects,
    /// arrays, strings and numbers give the same text. `seconds` of a scan differs between two
    /// runs: the only field left out.
    static func canonical(_ text: String) throws -> String {
        var object = try JSONSerialization.jsonObject(with: Data(text.utf8))
        if var o = object as? [String: Any] {
            o["seconds"] = nil
            object = o
        }
        return String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }

    @Test(arguments: commands)
    func theStreamedOutputIsTheEncodersOutput(_ command: [String]) throws {
        let (cli, names) = try Self.library.get()
        let args = command.map { names[$0] ?? $0 } + ["--json"]
        let streamed = try cli.run(args)
        let reference = try cli.run(args, extraEnvironment: ["SHOEBOX_JSON_REFERENCE": "1"])
        #expect(streamed.status == 0 && reference.status == 0, "\(streamed.stderr) \(reference.stderr)")
        #expect(try Self.canonical(streamed.stdout) == Self.canonical(reference.stdout), "\(args): the objects differ")
        if command[0] != "scan" {
            #expect(streamed.stdout == reference.stdout, "\(args): the bytes differ")
        }
        // Something to compare: the listings of this library are not empty.
        let listing = ["list", "tidy", "trash", "curate", "album", "people"].contains(command[0])
        if listing, let list = try JSONSerialization.jsonObject(with: Data(streamed.stdout.utf8)) as? [Any] {
            #expect(!list.isEmpty, "\(args) printed an empty list")
        }
    }
}
