import Foundation
import PhotoLibrary

/// `tracker export` (requirement 8): everything, or one project with its miniatures, their
/// photos and the recipes linked to them, as JSON (one file) or CSV (one file per entity),
/// human-readable, photos referenced by id and path relative to the library — never embedded.
public enum TrackerExport {
    /// What `export --format` writes: one JSON document, or one CSV file per entity.
    public enum Format: String, CaseIterable, Sendable { case json, csv }

    /// The part of `data` an export holds: one project (an id or id prefix), or everything.
    public static func selection(_ data: TrackerData, project: String?) throws -> TrackerData {
        guard let project else { return data }
        let p = data.projects[try data.projectIndex(project)]
        let minis = data.miniatures.filter { $0.project_id == p.id }
        let ids = Set(minis.map(\.id))
        let recipes = Set(minis.flatMap(\.recipe_ids))
        return TrackerData(projects: [p], miniatures: minis, recipes: data.recipes.filter { recipes.contains($0.id) },
                           photos: data.photos.filter { ids.contains($0.mini_id) })
    }

    /// The JSON export: `schema_version`, `exported_at`, `library` (absolute, so the photos'
    /// relative `file`s can be found), and the four lists in the shapes of the JSON contract.
    public static func json(_ d: TrackerData, library: Library, at now: String) -> Data {
        struct Document: Encodable {
            var schema_version: Int
            var exported_at: String
            var library: String
            var projects: [Project]
            var miniatures: [Miniature]
            var recipes: [Recipe]
            var photos: [TrackerPhoto]
        }
        let doc = Document(schema_version: TrackerFile.currentVersion, exported_at: now, library: library.root.path,
                           projects: d.projectsInOrder, miniatures: d.miniatures, recipes: d.recipes, photos: d.photos)
        let e = JSONEncoder()
        e.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return ((try? e.encode(doc)) ?? Data()) + Data("\n".utf8)
    }

    /// The CSV export: one table per entity, lists as rows of their own (a cell never holds a
    /// list), so each file opens as a plain table in a spreadsheet and reads back losslessly.
    public static func csv(_ d: TrackerData) -> [(name: String, data: Data)] {
        var history: [[String]] = [], items: [[String]] = [], links: [[String]] = []
        for m in d.miniatures {
            for (i, s) in m.history.enumerated() { history.append([m.id, String(i + 1), s.progress.rawValue, s.at]) }
            for (i, r) in m.recipe_ids.enumerated() { links.append([r, m.id, String(i + 1)]) }
        }
        for r in d.recipes {
            for (kind, list) in [("step", r.steps), ("paint", r.paints), ("technique", r.techniques)] {
                for (i, text) in list.enumerated() { items.append([r.id, kind, String(i + 1), text]) }
            }
        }
        let tables: [(String, [String], [[String]])] = [
            ("projects.csv", ["id", "game_system", "army", "name", "created_at"],
             d.projectsInOrder.map { [$0.id, $0.game_system.rawValue, $0.army, $0.name ?? "", $0.created_at] }),
            ("miniatures.csv", ["id", "project_id", "name", "type", "progress"],
             d.miniatures.map { [$0.id, $0.project_id, $0.name, $0.type.rawValue, $0.progress.rawValue] }),
            ("progress_history.csv", ["mini_id", "position", "progress", "at"], history),
            ("recipes.csv", ["id", "name", "type"], d.recipes.map { [$0.id, $0.name, $0.type?.rawValue ?? ""] }),
            ("recipe_items.csv", ["recipe_id", "kind", "position", "text"], items),
            ("recipe_links.csv", ["recipe_id", "mini_id", "position"], links),
            ("photos.csv", ["id", "mini_id", "file", "taken_at", "added_at", "sha256"],
             d.photos.map { [$0.id, $0.mini_id, $0.file, $0.taken_at ?? "", $0.added_at, $0.sha256] }),
        ]
        return tables.map { (name, header, rows) in (name, Data(CSV.table([header] + rows).utf8)) }
    }
}

/// RFC 4180 text: fields with a comma, a quote, CR or LF are quoted, quotes doubled, lines end
/// with CRLF. Written here because it is these dozen lines; no CSV library is in the stack.
public enum CSV {
    public static func field(_ text: String) -> String {
        // By scalar: "\r\n" is one Character, equal to neither "\r" nor "\n".
        guard text.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    public static func table(_ rows: [[String]]) -> String {
        rows.map { $0.map(field).joined(separator: ",") + "\r\n" }.joined()
    }

    /// Parses RFC 4180 text back into rows (for reading an export back, and the tests).
    public static func parse(_ text: String) -> [[String]] {
        var rows: [[String]] = [], row: [String] = [], field = ""
        var quoted = false, i = text.unicodeScalars.startIndex
        let s = text.unicodeScalars
        while i < s.endIndex {
            let c = s[i]
            if quoted {
                if c == "\"" {
                    let next = s.index(after: i)
                    if next < s.endIndex && s[next] == "\"" { field.unicodeScalars.append("\""); i = next } else { quoted = false }
                } else { field.unicodeScalars.append(c) }
            } else if c == "\"" { quoted = true
            } else if c == "," { row.append(field); field = ""
            } else if c == "\r" {  // part of CRLF
            } else if c == "\n" { row.append(field); rows.append(row); row = []; field = ""
            } else { field.unicodeScalars.append(c) }
            i = s.index(after: i)
        }
        if !field.isEmpty || !row.isEmpty { row.append(field); rows.append(row) }
        return rows
    }
}
