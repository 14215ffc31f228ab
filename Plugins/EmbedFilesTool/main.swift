import Foundation

// embed-files [--text] FOLDER OUTPUT.swift — every regular file below FOLDER (hidden ones
// left out) as a base64 string literal keyed by its path relative to the folder. Base64 in a
// string literal because the compiler takes a megabyte of it in milliseconds, where an array
// literal of bytes takes minutes. With --text every file is UTF-8 text and is embedded as it
// is, in a raw string literal (`EmbeddedFiles.text`): its bytes are then read in place, with
// nothing to decode (the gazetteer's 3.3 MB of base64 took ~4 ms of every first scan's CPU).
// The output is rewritten only when it changes, so an unchanged folder compiles nothing again.
var arguments = Array(CommandLine.arguments.dropFirst())
let asText = arguments.first == "--text"
if asText { arguments.removeFirst() }
guard arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: embed-files [--text] FOLDER OUTPUT.swift\n".utf8))
    exit(2)
}
let folder = URL(fileURLWithPath: arguments[0]).standardizedFileURL
let output = URL(fileURLWithPath: arguments[1])

var files: [(String, Data)] = []
if let walk = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey],
                                             options: [.skipsHiddenFiles]) {
    for case let url as URL in walk where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
        let relative = String(url.standardizedFileURL.path.dropFirst(folder.path.count + 1))
        do { files.append((relative, try Data(contentsOf: url))) } catch {
            FileHandle.standardError.write(Data("\(url.path): cannot be read: \(error)\n".utf8))
            exit(1)
        }
    }
}
files.sort { $0.0 < $1.0 }

/// FNV-1a over every path and byte: a version for URLs that may be cached for ever (a new
/// build with any file changed gets a new one). Not a security hash; it needs no library.
var hash: UInt64 = 0xcbf2_9ce4_8422_2325
for (path, data) in files {
    for byte in Array(path.utf8) + [0] + Array(data) {
        hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }
}

/// `text` as a raw multi-line string literal whose value is exactly `text`: the delimiter has
/// more `#` than any `"""#…` or `\#…` inside, and the line after the opening delimiter and the one
/// before the closing one are not part of the value.
func rawLiteral(_ text: String) -> String {
    var hashes = "#"
    while text.contains("\"\"\"" + hashes) || text.contains("\\" + hashes) { hashes += "#" }
    return hashes + "\"\"\"\n" + text + "\n\"\"\"" + hashes
}

/// Whether `data` can be a raw literal's value as it is: UTF-8 with no control character but tab
/// and line feed (a literal's line breaks are read as LF, and other controls are refused).
func isPlainText(_ data: Data) -> Bool {
    String(data: data, encoding: .utf8) != nil && !data.contains { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A || $0 == 0x7F }
}

let kind = asText ? "the bytes, as text" : "base64 of the bytes"
var source = """
    // Generated at build time by the EmbedFiles plugin from \(folder.lastPathComponent)/: do not edit.

    /// The module's data files (path below its folder → \(kind)), embedded into the binary.
    enum EmbeddedFiles {
        /// Changes with any file: what cached URLs carry.
        static let version = "\(String(hash, radix: 16))"

        static let \(asText ? "text: [String: StaticString]" : "base64: [String: String]") = [

    """
for (path, data) in files {
    let key = path.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
    if asText {
        guard isPlainText(data) else {
            FileHandle.standardError.write(Data("\(folder.path)/\(path): not plain UTF-8 text, cannot be embedded as text\n".utf8))
            exit(1)
        }
        source += "        \"\(key)\": \(rawLiteral(String(decoding: data, as: UTF8.self))),\n"
    } else {
        source += "        \"\(key)\": \"\(data.base64EncodedString())\",\n"
    }
}
if files.isEmpty { source += "        :\n" }
source += "    ]\n}\n"

let bytes = Data(source.utf8)
if (try? Data(contentsOf: output)) != bytes {
    do { try bytes.write(to: output, options: .atomic) } catch {
        FileHandle.standardError.write(Data("\(output.path): cannot be written: \(error)\n".utf8))
        exit(1)
    }
}
