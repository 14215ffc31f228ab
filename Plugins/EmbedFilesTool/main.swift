import Foundation

// embed-files FOLDER OUTPUT.swift — every regular file below WEB_FOLDER (hidden ones
// left out) as a base64 string literal keyed by its path relative to the folder. Base64 in a
// string literal because the compiler takes a megabyte of it in milliseconds, where an array
// literal of bytes takes minutes. The output is rewritten only when it changes, so an unchanged
// folder compiles nothing again.
let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: embed-files FOLDER OUTPUT.swift\n".utf8))
    exit(2)
}
let folder = URL(fileURLWithPath: arguments[1]).standardizedFileURL
let output = URL(fileURLWithPath: arguments[2])

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

var source = """
    // Generated at build time by the EmbedFiles plugin from \(folder.lastPathComponent)/: do not edit.

    /// The module's data files (path below its folder → base64 of the bytes), embedded into the binary.
    enum EmbeddedFiles {
        /// Changes with any file: what cached URLs carry.
        static let version = "\(String(hash, radix: 16))"

        static let base64: [String: String] = [

    """
for (path, data) in files {
    let key = path.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
    source += "        \"\(key)\": \"\(data.base64EncodedString())\",\n"
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
