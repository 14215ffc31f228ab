import Foundation
import PhotoLibrary

/// `Tracker/tracker.json`, the store of record: one file holding every project, miniature,
/// recipe and photo record, so that every change (a cascade included) is one atomic replace.
///
/// Versions (`schema_version`, required in every file):
/// - 1: miniatures carry `progress` and `progress_updated_at` only (no history); recipes carry
///   no type and hold their links as `miniature_ids`; miniatures list no recipes or photos.
/// - 2 (current): the shapes of the public JSON contract — a miniature's `history`,
///   `recipe_ids` and `photo_ids`, a recipe's `type`.
/// A file of version 1 is read through `migrateV1` and written back as version 2 by the next
/// change; a newer version is refused (one line: upgrade Shoebox), never half-read.
///
/// The file is untrusted input (a user, a sync client or a crash may have touched it): `decode`
/// reads it or throws one `TrackerError.damaged` line, never traps (fuzzed by `Fuzz/Targets/Tracker.swift`).
package enum TrackerFile {
    package static let currentVersion = 2

    struct Version: Decodable { var schema_version: Int }

    struct V2: Codable {
        var schema_version: Int
        var projects: [Project]
        var miniatures: [Miniature]
        var recipes: [Recipe]
        var photos: [TrackerPhoto]
    }

    struct V1: Decodable {
        struct Mini: Decodable {
            var id: String, project_id: String, name: String, type: MiniatureType
            var progress: ProgressStage
            var progress_updated_at: String
        }
        struct V1Recipe: Decodable {
            var id: String, name: String
            var steps: [String], paints: [String], techniques: [String]
            var miniature_ids: [String]
        }
        var projects: [Project]
        var miniatures: [Mini]
        var recipes: [V1Recipe]
        var photos: [TrackerPhoto]
    }

    /// The bytes of `data` at the current version: pretty, keys sorted (readable and diffable).
    package static func encode(_ data: TrackerData) -> Data {
        let file = V2(schema_version: currentVersion, projects: data.projects, miniatures: data.miniatures,
                      recipes: data.recipes, photos: data.photos)
        let e = JSONEncoder()
        e.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Strings, arrays and enums only: encoding cannot fail.
        return (try? e.encode(file)) ?? Data()
    }

    /// Reads a file of any known version; `version` is the one it was written at.
    package static func decode(_ bytes: Data) throws -> (data: TrackerData, version: Int) {
        // As for sidecars: bytes that are not UTF-8 never reach Foundation's decoder.
        guard String(validating: bytes, as: UTF8.self) != nil else { throw TrackerError.damaged("it is not UTF-8 text") }
        let decoder = JSONDecoder()
        let version: Int
        do { version = try decoder.decode(Version.self, from: bytes).schema_version } catch {
            throw TrackerError.damaged("it is not a tracker file (\(describe(error)))")
        }
        guard version >= 1 else { throw TrackerError.damaged("its schema_version \(version) is not one Shoebox wrote") }
        guard version <= currentVersion else { throw TrackerError.newerSchema(version) }
        let data: TrackerData
        do {
            if version == 1 {
                data = migrateV1(try decoder.decode(V1.self, from: bytes))
            } else {
                let f = try decoder.decode(V2.self, from: bytes)
                data = TrackerData(projects: f.projects, miniatures: f.miniatures, recipes: f.recipes, photos: f.photos)
            }
        } catch {
            throw TrackerError.damaged("\(describe(error))")
        }
        try checkShape(data)
        return (data, version)
    }

    /// Version 1 → 2: the progress becomes the first step of the history, the recipes' links
    /// move onto the miniatures, each miniature lists its photos in the order they were added.
    static func migrateV1(_ f: V1) -> TrackerData {
        let minis = f.miniatures.map { m in
            Miniature(id: m.id, project_id: m.project_id, name: m.name, type: m.type, progress: m.progress,
                      history: [ProgressStep(progress: m.progress, at: m.progress_updated_at)],
                      recipe_ids: f.recipes.filter { $0.miniature_ids.contains(m.id) }.map(\.id),
                      photo_ids: f.photos.filter { $0.mini_id == m.id }.map(\.id))
        }
        let recipes = f.recipes.map {
            Recipe(id: $0.id, name: $0.name, type: nil, steps: $0.steps, paints: $0.paints, techniques: $0.techniques)
        }
        return TrackerData(projects: f.projects, miniatures: minis, recipes: recipes, photos: f.photos)
    }

    /// What no file Shoebox wrote can hold: an id given twice, an empty required field, a
    /// miniature with no history. (References between records are `TrackerIntegrity`'s.)
    static func checkShape(_ d: TrackerData) throws {
        for (kind, ids) in [("project", d.projects.map(\.id)), ("miniature", d.miniatures.map(\.id)),
                            ("recipe", d.recipes.map(\.id)), ("photo", d.photos.map(\.id))] {
            var seen = Set<String>()
            for id in ids {
                guard !id.isEmpty else { throw TrackerError.damaged("a \(kind) has an empty id") }
                guard seen.insert(id).inserted else { throw TrackerError.damaged("the \(kind) id \(String(reflecting: String(id.prefix(40)))) is given twice") }
            }
        }
        if let p = d.projects.first(where: { $0.army.trimmingCharacters(in: .whitespaces).isEmpty }) {
            throw TrackerError.damaged("the project \(p.id) has an empty army")
        }
        if let m = d.miniatures.first(where: { $0.name.trimmingCharacters(in: .whitespaces).isEmpty || $0.history.isEmpty }) {
            throw TrackerError.damaged("the miniature \(m.id) has an empty name or no progress history")
        }
        if let r = d.recipes.first(where: { $0.name.trimmingCharacters(in: .whitespaces).isEmpty }) {
            throw TrackerError.damaged("the recipe \(r.id) has an empty name")
        }
    }

    /// A decoding error in a few words (Foundation's descriptions run to paragraphs).
    static func describe(_ error: any Error) -> String {
        func path(_ c: DecodingError.Context) -> String {
            c.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case DecodingError.keyNotFound(let key, let c):
            return "no \"\(key.stringValue)\"" + (c.codingPath.isEmpty ? "" : " at \(path(c))")
        case DecodingError.typeMismatch(_, let c), DecodingError.valueNotFound(_, let c):
            return "a wrong value at \(path(c))"
        case DecodingError.dataCorrupted(let c) where !c.codingPath.isEmpty:
            return "a value not allowed at \(path(c))"
        default: return "not valid JSON"
        }
    }
}
