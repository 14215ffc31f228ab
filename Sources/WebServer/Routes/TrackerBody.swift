import Foundation
import PhotoLibrary
import Tracker

/// What the tracker's routes read from a request before the tracker sees it: the fields of a
/// JSON body by type (what the CLI's parser checks: a string where one is due, a miniature type,
/// a progress stage or an export format among the listed words) and the ids of URLs. Values are
/// the tracker's to judge — an empty name, a game system it does not know — so they pass as
/// given. A refusal names its field (`WebError.field`) for the page to mark that input.
enum TrackerBody {
    /// `key` of `object` as a string; nil when absent (`optional`), else 400.
    static func string(_ object: [String: Any], _ key: String, optional: Bool = false) throws -> String? {
        guard let value = object[key], !(value is NSNull) else {
            if optional { return nil }
            throw WebError(.badRequest, "\"\(key)\" must be a string", code: "invalid_argument", field: key)
        }
        guard let text = value as? String else {
            throw WebError(.badRequest, "\"\(key)\" must be a string", code: "invalid_argument", field: key)
        }
        return text
    }

    /// A list of texts (a recipe's steps, paints, techniques); nil when absent.
    static func list(_ object: [String: Any], _ key: String) throws -> [String]? {
        guard let value = object[key], !(value is NSNull) else { return nil }
        guard let items = value as? [Any], let texts = items as? [String] else {
            throw WebError(.badRequest, "\"\(key)\" must be an array of strings", code: "invalid_argument", field: key)
        }
        return texts
    }

    /// `troop` or `character`.
    static func type(_ text: String, key: String = "type") throws -> MiniatureType {
        guard let type = MiniatureType(rawValue: text) else {
            throw WebError(.badRequest, "\"\(key)\" must be troop or character, not \(String(reflecting: String(text.prefix(40))))",
                           code: "invalid_argument", field: key)
        }
        return type
    }

    /// One of the five painting stages.
    static func stage(_ text: String) throws -> ProgressStage {
        guard let stage = ProgressStage(rawValue: text) else {
            throw WebError(.badRequest, "\"progress\" must be one of \(ProgressStage.allCases.map(\.rawValue).joined(separator: ", "))",
                           code: "invalid_argument", field: "progress")
        }
        return stage
    }

    /// `json` or `csv`.
    static func format(_ text: String?) throws -> TrackerExport.Format {
        guard let text, let format = TrackerExport.Format(rawValue: text) else {
            throw WebError(.badRequest, "an export needs ?format=json or ?format=csv", code: "invalid_argument", field: "format")
        }
        return format
    }

    /// A recipe's change: a type given as null clears it, absent leaves it; a list given
    /// (even empty) replaces that list whole.
    struct RecipeChange {
        var name: String?
        var type: MiniatureType?
        var clearType = false
        var steps: [String]?
        var paints: [String]?
        var techniques: [String]?
    }

    static func recipe(_ object: [String: Any]) throws -> RecipeChange {
        var change = RecipeChange()
        change.name = try string(object, "name", optional: true)
        if let value = object["type"] {
            if value is NSNull { change.clearType = true } else { change.type = try type(try string(object, "type")!) }
        }
        change.steps = try list(object, "steps")
        change.paints = try list(object, "paints")
        change.techniques = try list(object, "techniques")
        return change
    }
}

extension WebID {
    /// A tracker record's id: the UUID the tracker gave it, whole (a page has every id it shows;
    /// the CLI's short prefixes are for typing), lower-cased as the tracker writes it.
    static func tracker(_ text: String, _ kind: String) throws -> String {
        guard (try? asset(text)) != nil else {
            throw WebError(.badRequest, "not a \(kind) id: \(String(reflecting: String(text.prefix(60))))", code: "invalid_argument")
        }
        return text.lowercased()
    }
}
