import Foundation

/// The settings of `.shoebox/config.toml` that the running code reads, with their defaults.
///
/// The file is parsed by a small TOML reader for the part of TOML this file uses: `[table]`
/// headers, `key = value` with integers, floats, booleans and basic strings, and comments.
/// Anything else is a clear error naming the line. A full parser (LebJe/TOMLKit) was weighed
/// and left out: it compiles the 17,000-line toml++ C++ header in five translation units on
/// every clean build (CI included), and pulls a test-only dependency that is not in the offline
/// package mirror — a lot to carry for a file of a handful of scalar settings.
public struct LibrarySettings: Equatable, Sendable {
    /// Minutes between safety scans while `watch` runs; 0 turns them off.
    public var safetyScanMinutes: Double = 60
    /// Share of the library that, vanishing at once, pauses the watcher instead of marking files missing.
    public var massDisappearanceShare: Double = 0.5
    /// Days an item waits in `Recently Deleted/`.
    public var trashRetentionDays: Int = 30

    public init() {}

    /// The library's settings; the defaults when it has no config file.
    public static func load(_ library: Library) throws -> LibrarySettings {
        // Through the confined files: never through a link, and a fifo there is refused, not waited on.
        guard let data = try library.files.contents(of: LibraryLayout.statePath("config.toml"), limit: 1 << 20) else {
            return LibrarySettings()
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ShoeboxError(.invalidArgument, "\(library.configURL.path) is not UTF-8 text")
        }
        return try parse(text, source: library.configURL.path)
    }

    /// Every key the file may set, as `table.key`. Anything else is an error: a misspelt
    /// `retention_day = 365` silently ignored would purge photos after 30 days, not 365.
    public static let knownKeys = ["trash.retention_days", "watch.safety_scan_minutes", "watch.mass_disappearance_share"]

    public static func parse(_ text: String, source: String = "config.toml") throws -> LibrarySettings {
        var settings = LibrarySettings()
        let values = try TOMLSubset.parse(text, source: source)
        for (key, entry) in values.sorted(by: { $0.value.line < $1.value.line }) where !knownKeys.contains(key) {
            let nearest = knownKeys.min { editDistance(key, $0) < editDistance(key, $1) }!
            let hint = editDistance(key, nearest) <= max(3, key.count / 3) ? "; did you mean \(nearest)?" : ""
            throw ShoeboxError(.invalidArgument, "\(source) line \(entry.line): unknown setting \(key)\(hint) (known: \(knownKeys.joined(separator: ", ")))")
        }
        func number(_ key: String) throws -> Double? {
            guard let v = values[key] else { return nil }
            switch v.value {
            case .integer(let i): return Double(i)
            case .float(let f): return f
            default: throw ShoeboxError(.invalidArgument, "\(source) line \(v.line): \(key) must be a number")
            }
        }
        // Upper bounds keep dates computed from these within what Foundation and time_t handle
        // (NSCondition.wait(until:) traps past the year 2262; Int(Double) traps past Int.max).
        if let m = try number("watch.safety_scan_minutes") {
            // A tiny interval (1e-9) would rescan without a pause: 0 (off) or at least a minute.
            guard m == 0 || (m >= 1 && m <= 525_600) else {
                throw ShoeboxError(.invalidArgument, "\(source) line \(values["watch.safety_scan_minutes"]!.line): watch.safety_scan_minutes must be 0 (off) or from 1 to 525600 (a year)")
            }
            settings.safetyScanMinutes = m
        }
        if let s = try number("watch.mass_disappearance_share") {
            guard s >= 0.01, s <= 1 else {
                throw ShoeboxError(.invalidArgument, "\(source) line \(values["watch.mass_disappearance_share"]!.line): watch.mass_disappearance_share must be from 0.01 to 1 (a share, e.g. 0.5)")
            }
            settings.massDisappearanceShare = s
        }
        if let d = try number("trash.retention_days") {
            guard d >= 1, d == d.rounded(), d <= 36_500 else {
                throw ShoeboxError(.invalidArgument, "\(source) line \(values["trash.retention_days"]!.line): trash.retention_days must be a whole number of days from 1 to 36500 (100 years)")
            }
            settings.trashRetentionDays = Int(d)
        }
        return settings
    }

    /// Levenshtein distance, for "did you mean" (a handful of short keys: no library needed).
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var row = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var previous = row[0]
            row[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let current = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                previous = current
            }
        }
        return a.isEmpty ? b.count : row[b.count]
    }
}

/// Reads the subset of TOML that `config.toml` uses into `table.key → value`.
enum TOMLSubset {
    enum Value: Equatable {
        case integer(Int64), float(Double), bool(Bool), string(String)
    }

    struct Entry: Equatable {
        var value: Value
        var line: Int
    }

    static func parse(_ text: String, source: String) throws -> [String: Entry] {
        var out: [String: Entry] = [:]
        var table = ""
        // `isNewline`: in Swift "\r\n" is one Character, which a split on "\n" never finds.
        for (i, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let lineNumber = i + 1
            func fail(_ what: String) -> ShoeboxError {
                ShoeboxError(.invalidArgument, "\(source) line \(lineNumber): \(what)")
            }
            // `.whitespacesAndNewlines`: a file saved with CRLF line ends keeps a "\r" on each line.
            let line = stripComment(String(raw)).trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty { continue }
            if line.hasPrefix("[") {
                guard line.hasSuffix("]"), !line.hasPrefix("[["), line.count > 2 else { throw fail("expected a table header such as [watch]") }
                table = String(line.dropFirst().dropLast()).trimmingCharacters(in: .whitespaces)
                guard isBareKey(table) else { throw fail("table name \(table) is not a plain name") }
                continue
            }
            guard let eq = line.firstIndex(of: "=") else { throw fail("expected `key = value`") }
            let key = line[..<eq].trimmingCharacters(in: .whitespaces)
            let valueText = line[line.index(after: eq)...].trimmingCharacters(in: .whitespaces)
            guard isBareKey(key) else { throw fail("key \(key) is not a plain name") }
            let full = table.isEmpty ? key : table + "." + key
            guard out[full] == nil else { throw fail("\(full) is set twice") }
            guard let value = parseValue(valueText) else { throw fail("\(valueText) is not a number, true/false or a \"string\"") }
            out[full] = Entry(value: value, line: lineNumber)
        }
        return out
    }

    /// The line without its `# comment` (a `#` inside a string is kept).
    static func stripComment(_ line: String) -> String {
        var inString = false, escaped = false
        for (offset, c) in line.enumerated() {
            if escaped { escaped = false; continue }
            if c == "\\" && inString { escaped = true; continue }
            if c == "\"" { inString.toggle() }
            if c == "#" && !inString { return String(line.prefix(offset)) }
        }
        return line
    }

    static func isBareKey(_ s: String) -> Bool {
        !s.isEmpty && s.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }
    }

    static func parseValue(_ s: String) -> Value? {
        if s == "true" { return .bool(true) }
        if s == "false" { return .bool(false) }
        if s.count >= 2, s.hasPrefix("\""), s.hasSuffix("\"") {
            let body = s.dropFirst().dropLast()
            guard !body.contains("\"") || body.contains("\\\"") else { return nil }
            return .string(body.replacingOccurrences(of: "\\\"", with: "\"").replacingOccurrences(of: "\\\\", with: "\\"))
        }
        let digits = s.replacingOccurrences(of: "_", with: "")
        if let i = Int64(digits) { return .integer(i) }
        if digits.contains(where: { $0.isNumber }), let f = Double(digits), f.isFinite { return .float(f) }
        return nil
    }
}
