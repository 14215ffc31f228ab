import ArgumentParser
import Foundation
import MetadataCore
import PhotoLibrary

extension AssetQuery.Sort: ExpressibleByArgument {}
extension AssetKind: ExpressibleByArgument {}

package struct List: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the library's photos and videos.",
        discussion: "Dates sort oldest first, sizes largest first, scores best first; --reverse turns any order around.")

    @OptionGroup var options: LibraryOptions

    @Option(help: "Order: score, date, size or name.")
    var sort: AssetQuery.Sort = .date

    @Flag(help: "Reverse the order.")
    var reverse = false

    @Option(help: "Only photos taken in this year.")
    var year: Int?

    @Option(help: "Only photos taken at this place (city, country, or \"City, Country\").")
    var place: String?

    @Option(help: ArgumentHelp("Only photos of this person: a name, or an id as `people list` prints it (p3).", valueName: "name|id"))
    var person: String?

    @Option(help: "Only this kind: photo, screenshot or video.")
    var kind: AssetKind?

    @Flag(help: "List the trashed assets instead.")
    var trashed = false

    @Flag(help: "List the missing assets (vanished files whose ids wait for their content) instead.")
    var missing = false

    @Option(help: "At most this many.")
    var limit: Int?

    @OptionGroup var output: JSONOutput

    package func validate() throws {
        if trashed && missing { throw ValidationError("--trashed and --missing cannot be combined") }
        if let limit, limit < 0 { throw ValidationError("--limit must be 0 or more") }
    }

    package func run() throws {
        try reportingErrors {
            let index = try options.session(forReading: true).index
            var q = AssetQuery()
            q.sort = sort
            q.reverse = reverse
            q.year = year
            q.place = place
            q.person = person
            q.kind = kind
            q.limit = limit
            q.states = trashed ? [.trashed] : (missing ? [.missing] : [.present])
            // Streamed: a listing of the whole library never holds all its assets, lines or JSON at once.
            // A page (up to 500) has its own companions looked up; a whole listing reads them all.
            let page = try limit.flatMap { $0 <= 500 ? try index.assets(matching: q) : nil }
            let live = try index.companions(of: page)
            func forEach(_ body: (Asset) throws -> Void) throws {
                if let page { try page.forEach(body) } else { try index.forEachAsset(matching: q, body) }
            }
            if output.json && JSONOutput.reference {
                var all: [AssetJSON] = []
                try forEach { a in all.append(AssetJSON(a, liveVideo: a.format == .heic || a.format == .jpeg ? live[a.id] : nil)) }
                return try output.print(all)
            }
            if output.json {
                let writer = JSONListWriter(live: live)
                var batch: [Asset] = []
                do {
                    try forEach { a in
                        batch.append(a)
                        if batch.count == 256 { try writer.add(batch); batch.removeAll(keepingCapacity: true) }
                    }
                    try writer.add(batch)
                } catch {
                    writer.abandon()
                    throw error
                }
                try writer.finish()
                return
            }
            var text: [UInt8] = []
            var count = 0
            try forEach { a in
                count += 1
                let date = a.takenAt.map { String($0.iso8601.prefix(16)).replacingOccurrences(of: "T", with: " ") } ?? "—"
                let dims = "\(a.width)×\(a.height)"
                let companion = Companion.canHave(a) ? live[a.id].map { Companion(path: $0) == .rawFile ? " [raw+jpeg]" : " [live]" } : nil
                let extra = (companion ?? "") + (a.duplicateOf != nil ? " [duplicate]" : "")
                text += [String(a.id.rawValue.prefix(13)), date.padding(toLength: 16, withPad: " ", startingAt: 0),
                         a.kind.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0),
                         formatBytes(a.size).leftPadded(8), dims.leftPadded(11), " " + displayPath(a.path) + extra]
                    .joined(separator: " ").utf8
                text.append(0x0A)
                if text.count >= 1 << 16 { FileHandle.standardOutput.write(Data(text)); text.removeAll(keepingCapacity: true) }
            }
            if count == 0 {
                Terminal.message(try index.count() == 0
                    ? "The library is empty or not scanned yet; run `shoebox scan`."
                    : "No assets match.")
                return
            }
            FileHandle.standardOutput.write(Data(text))
        }
    }

    package init() {}
}

/// `list --json` made on a second thread: the assets come out of the index on the calling thread
/// while this one makes and prints their JSON (`JSONStreamWriter`, as `JSONOutput.print` would print
/// them), a few batches behind at most, so memory stays flat.
final class JSONListWriter: @unchecked Sendable {
    private let condition = NSCondition()
    private var batches: [[Asset]] = []
    private var finished = false
    private var abandoned = false
    private var failure: (any Error)?
    private let done = DispatchSemaphore(value: 0)
    private let live: [AssetID: String]

    init(live: [AssetID: String]) {
        self.live = live
        let thread = Thread { [self] in run() }
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// Hands over a batch; waits while four are waiting. Throws what the writing thread met.
    func add(_ batch: [Asset]) throws {
        condition.lock()
        defer { condition.unlock() }
        while batches.count >= 4 && failure == nil { condition.wait() }
        if let failure { throw failure }
        batches.append(batch)
        condition.broadcast()
    }

    /// Closes the array once every batch is written.
    func finish() throws {
        condition.lock()
        finished = true
        condition.broadcast()
        condition.unlock()
        done.wait()
        if let failure { throw failure }
    }

    /// Stops after the batch in hand, without closing the array (the listing failed).
    func abandon() {
        condition.lock()
        abandoned = true
        condition.broadcast()
        condition.unlock()
        done.wait()
    }

    private func run() {
        defer { done.signal() }
        let writer = JSONStreamWriter { FileHandle.standardOutput.write(Data($0)) }
        writer.beginArray()
        var complete = false
        while true {
            condition.lock()
            while batches.isEmpty && !finished && !abandoned { condition.wait() }
            if abandoned || batches.isEmpty {
                complete = !abandoned
                condition.unlock()
                break
            }
            let batch = batches.removeFirst()
            condition.broadcast()
            condition.unlock()
            do {
                for a in batch {
                    try writer.append(AssetJSON(a, liveVideo: a.format == .heic || a.format == .jpeg ? live[a.id] : nil))
                }
            } catch {
                condition.lock()
                failure = error
                condition.broadcast()
                condition.unlock()
                return
            }
        }
        if complete {
            writer.endArray()
            writer.raw("\n")
            writer.flush()
        }
    }
}

package struct Show: ParsableCommand {
    /// What the analysis found, in words: each face with its key and person, the damage.
    static func analysisRows(_ a: Asset) -> [(String, String)] {
        var rows: [(String, String)] = []
        guard let analysis = a.analysis, analysis.sha256 == a.sha256 else {
            if !a.metadata.faces.isEmpty { rows.append(("faces", "\(a.metadata.faces.count) tagged in the file's XMP")) }
            if a.state == .present { rows.append(("analysis", "not yet (`shoebox analyze`)")) }
            return rows
        }
        for (i, f) in analysis.faces.enumerated() where !f.isForgotten {
            let who = [f.name, f.person.map { "person \($0)" }].compactMap { $0 }.joined(separator: ", ")
            rows.append(("face #\(i + 1)", String(format: "%@ at x %.2f y %.2f, %.0f%% × %.0f%%", who.isEmpty ? "unknown" : who,
                                                   f.x, f.y, f.w * 100, f.h * 100) + " (\(a.id.rawValue.prefix(8))#\(i + 1))"))
        }
        if analysis.faces.isEmpty { rows.append(("faces", "none found")) }
        if analysis.damaged { rows.append(("damaged", analysis.problem ?? "the image data could not be decoded whole")) }
        else if let p = analysis.problem { rows.append(("analysis", p)) }
        return rows
    }

    package static let configuration = CommandConfiguration(commandName: "show", abstract: "Show one asset by id, id prefix or path.")

    @OptionGroup var options: LibraryOptions

    @Argument(help: "An id, a unique id prefix, or a path.")
    var asset: String

    @OptionGroup var output: JSONOutput

    package func run() throws {
        try reportingErrors {
            let index = try options.session(forReading: true).index
            let a = try index.resolve(asset)
            let live = try index.liveVideos(for: [a.id])[a.id]
            if output.json { return try output.print(AssetJSON(a, liveVideo: live)) }
            var rows: [(String, String)] = [
                ("id", a.id.rawValue),
                ("path", displayPath(a.path)),
                ("state", a.state.rawValue),
                ("kind", "\(a.kind.rawValue)\(a.isUtility ? " (utility)" : ""), \(a.format.rawValue), \(a.width)×\(a.height)"
                    + (a.metadata.orientation != 1 ? ", EXIF orientation \(a.metadata.orientation)" : "")),
                ("taken", a.takenAt.map { "\($0.iso8601) (from \($0.source.rawValue))" } ?? "unknown"),
            ]
            if let gps = a.metadata.gps { rows.append(("gps", String(format: "%.5f, %.5f", gps.lat, gps.lon))) }
            if let place = a.place { rows.append(("place", place.label)) }
            if !a.persons.isEmpty { rows.append(("persons", a.persons.joined(separator: ", "))) }
            rows += Self.analysisRows(a)
            let camera = [a.metadata.make, a.metadata.model].compactMap { $0 }.joined(separator: " ")
            if !camera.isEmpty { rows.append(("camera", camera)) }
            if let d = a.metadata.duration { rows.append(("duration", String(format: "%.1f s", d))) }
            if let t = a.trash {
                rows.append(("trashed", "\(RecentlyDeleted.folderName)/files/\(t.name) since \(ShoeboxClock.localISO8601(t.deletedAt))"))
            }
            rows.append(("size", "\(formatBytes(a.size)) (\(a.size) bytes)"))
            rows.append(("sha256", a.sha256))
            if let d = a.duplicateOf { rows.append(("duplicate of", d.rawValue)) }
            if let live { rows.append((Companion(path: live) == .rawFile ? "raw file" : "live video", displayPath(live))) }
            if let p = a.livePhotoOf { rows.append((a.format == .raw ? "raw file of" : "live photo of", p.rawValue)) }
            if let s = a.metadata.xmpSidecar {
                rows.append(("xmp sidecar", displayPath(s.path)))
                if let r = s.rating { rows.append(("rating", "\(r)")) }
            }
            if !a.keywords.isEmpty { rows.append(("keywords", a.keywords.joined(separator: ", "))) }
            if let s = a.score {
                // The score with its reasons.
                let why = ScoreWords.sentence(of: a).map { " — " + $0 } ?? ""
                rows.append(("score", String(format: "%.3f", s) + why))
            }
            Terminal.out(rows.map { $0.0.padding(toLength: 13, withPad: " ", startingAt: 0) + $0.1 }.joined(separator: "\n"))
        }
    }

    package init() {}
}

extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
