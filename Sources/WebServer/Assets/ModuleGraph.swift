import Foundation
import NIOConcurrencyHelpers

/// The script modules a page needs before it can draw: `js/app.js` and the page's screen, with
/// everything they import statically, breadth first (the order the browser would find them). The
/// shell preloads exactly these, so a first visit asks for them in one round and nothing another
/// page needs competes with the page's own data (HTTP/1.1 gives a host six connections).
struct ModuleGraph: Sendable {
    let files: WebFiles
    private let cache = NIOLockedValueBox<[String: [String]]>([:])

    init(files: WebFiles) { self.files = files }

    /// Paths below Web/ (`js/…`), app.js first.
    func modules(forPage page: String) -> [String] {
        if files.version != nil, let hit = cache.withLockedValue({ $0[page] }) { return hit }
        var order: [String] = []
        var queue = ["js/app.js", "js/screens/\(page).js"]
        var seen = Set(queue)
        while !queue.isEmpty {
            let path = queue.removeFirst()
            guard let file = files.file(path) else { continue }
            order.append(path)
            for next in Self.imports(of: String(decoding: file.bytes, as: UTF8.self), at: path) where seen.insert(next).inserted {
                queue.append(next)
            }
        }
        cache.withLockedValue { $0[page] = order }
        return order
    }

    /// `import … from "./x.js"`, `import "./x.js"` and `export … from "./x.js"` (relative ones:
    /// the app imports nothing else), resolved against the importing file's folder. Dynamic
    /// `import()` is left to load when it runs.
    static func imports(of source: String, at path: String) -> [String] {
        let pattern = #"(?m)^\s*(?:import|export)\s*(?:[^;"'()]*?\sfrom\s*)?["'](\.{1,2}/[^"']+)["']"#
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
        let folder = path.split(separator: "/").dropLast().map(String.init)
        return regex.matches(in: source, range: NSRange(source.startIndex..., in: source)).compactMap { match in
            guard let range = Range(match.range(at: 1), in: source) else { return nil }
            var parts = folder
            for part in source[range].split(separator: "/") {
                if part == "." { continue }
                if part == ".." { guard !parts.isEmpty else { return nil }; parts.removeLast(); continue }
                parts.append(String(part))
            }
            return parts.joined(separator: "/")
        }
    }
}
