import ArgumentParser
import Foundation
import Metadata
import PhotoLibrary

extension AssetQuery.Sort: ExpressibleByArgument {}
extension AssetKind: ExpressibleByArgument {}

struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
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

    @Option(help: "Only photos of this person.")
    var person: String?

    @Option(help: "Only this kind: photo, screenshot or video.")
    var kind: AssetKind?

    @Flag(help: "List the trashed assets instead.")
    var trashed = false

    @Flag(help: "List the missing assets (vanished files whose ids wait for their content) instead.")
    var missing = false

    @Option(help: "At most this many.")
    var limit: Int?

    @Flag(help: "Print one JSON array of assets.")
    var json = false

    func validate() throws {
        if trashed && missing { throw ValidationError("--trashed and --missing cannot be combined") }
        if let limit, limit < 0 { throw ValidationError("--limit must be 0 or more") }
    }

    func run() throws {
        try reportingErrors {
            let library = try options.open()
            let index = try Index(library: library)
            var q = AssetQuery()
            q.sort = sort
            q.reverse = reverse
            q.year = year
            q.place = place
            q.person = person
            q.kind = kind
            q.limit = limit
            q.states = trashed ? [.trashed] : (missing ? [.missing] : [.present])
            let assets = try index.assets(matching: q)
            let live = try index.liveVideos(for: assets.filter { $0.format == .heic || $0.format == .jpeg }.map(\.id))
            if json {
                try Terminal.json(assets.map { AssetJSON($0, liveVideo: live[$0.id]) })
                return
            }
            if assets.isEmpty {
                Terminal.message(try index.count() == 0
                    ? "The library is empty or not scanned yet; run `shoebox scan`."
                    : "No assets match.")
                return
            }
            var lines: [String] = []
            lines.reserveCapacity(assets.count)
            for a in assets {
                let date = a.takenAt.map { String($0.iso8601.prefix(16)).replacingOccurrences(of: "T", with: " ") } ?? "—"
                let dims = "\(a.width)×\(a.height)"
                let extra = (live[a.id] != nil ? " [live]" : "") + (a.duplicateOf != nil ? " [duplicate]" : "")
                lines.append([String(a.id.rawValue.prefix(13)), date.padding(toLength: 16, withPad: " ", startingAt: 0),
                              a.kind.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0),
                              formatBytes(a.size).leftPadded(8), dims.leftPadded(11), " " + displayPath(a.path) + extra]
                    .joined(separator: " "))
            }
            Terminal.out(lines.joined(separator: "\n"))
        }
    }
}

struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Show one asset by id, id prefix or path.")

    @OptionGroup var options: LibraryOptions

    @Argument(help: "An id, a unique id prefix, or a path.")
    var asset: String

    @Flag(help: "Print the asset as JSON.")
    var json = false

    func run() throws {
        try reportingErrors {
            let library = try options.open()
            let index = try Index(library: library)
            let a = try index.resolve(asset)
            let live = try index.liveVideos(for: [a.id])[a.id]
            if json {
                try Terminal.json(AssetJSON(a, liveVideo: live))
                return
            }
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
            if !a.metadata.faces.isEmpty { rows.append(("faces", "\(a.metadata.faces.count)")) }
            let camera = [a.metadata.make, a.metadata.model].compactMap { $0 }.joined(separator: " ")
            if !camera.isEmpty { rows.append(("camera", camera)) }
            if let d = a.metadata.duration { rows.append(("duration", String(format: "%.1f s", d))) }
            if let t = a.trash {
                rows.append(("trashed", "\(RecentlyDeleted.folderName)/files/\(t.name) since \(ShoeboxClock.localISO8601(t.deletedAt))"))
            }
            rows.append(("size", "\(formatBytes(a.size)) (\(a.size) bytes)"))
            rows.append(("sha256", a.sha256))
            if let d = a.duplicateOf { rows.append(("duplicate of", d.rawValue)) }
            if let live { rows.append(("live video", displayPath(live))) }
            if let p = a.livePhotoOf { rows.append(("live photo of", p.rawValue)) }
            if let s = a.score { rows.append(("score", String(format: "%.3f", s))) }
            Terminal.out(rows.map { $0.0.padding(toLength: 13, withPad: " ", startingAt: 0) + $0.1 }.joined(separator: "\n"))
        }
    }
}

extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
