import Foundation
import PhotoLibrary
#if canImport(Glibc)
import Glibc
#endif

/// Everything the CLI prints goes through here (JSON through `JSONOutput`): results on stdout,
/// messages on stderr, a progress bar only when stderr is a terminal.
package enum Terminal {
    package static let stderrIsTerminal = isatty(STDERR_FILENO) != 0

    package static func out(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    package static func message(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    package static func error(_ text: String) {
        message("shoebox: error: \(text)")
    }

    package static func problem(_ p: FileProblem, label: String = "") {
        message("shoebox: \(label)\(displayPath(p.path)): \(p.reason)")
    }

    /// A one-line progress bar redrawn in place, at most ten times a second.
    package final class ProgressBar: @unchecked Sendable {
        private var last = Date.distantPast
        private let label: String
        private var drawn = false

        package init(label: String) { self.label = label }

        /// `bytes`: what the done files weigh, shown when known.
        package func update(done: Int, total: Int, bytes: Int64?) {
            guard Terminal.stderrIsTerminal, total > 0 else { return }
            let now = Date()
            guard done == total || now.timeIntervalSince(last) > 0.1 else { return }
            last = now
            let width = 30
            let filled = Int(Double(width) * Double(done) / Double(total))
            let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
            FileHandle.standardError.write(Data("\r\(label) \(bar) \(done)/\(total) files\(bytes.map { ", " + formatBytes($0) } ?? "")\u{1B}[K".utf8))
            drawn = true
        }

        package func finish() {
            if drawn { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        }
    }
}
