import Foundation
import TestSupport
import XCTest

/// Brief 004: "100% offline … auditable". Scan, analyze, watch and a tidy session run without a
/// network (a network namespace with no interface, when the machine allows one) under strace:
/// no AF_INET or AF_INET6 socket is ever opened, by any thread or child.
final class TidyPrivacyTests: XCTestCase {
    func testNoInternetSocketInScanAnalyzeWatchOrATidySession() throws {
        let t = try Tidying.roll()
        guard let strace = ["/usr/bin/strace", "/bin/strace"].first(where: FileManager.default.isExecutableFile(atPath:)) else {
            return XCTFail("strace is missing: scripts/install-deps installs it")
        }
        // `unshare -n` needs CAP_SYS_ADMIN (root, or a user namespace the kernel allows).
        let isolated = (try? TestRoll.run("/usr/bin/unshare", ["-n", "true"], allowFailure: true).status) == 0
        let log = t.root.deletingLastPathComponent().appendingPathComponent("strace.log")
        let steps: [[String]] = [["scan"], ["analyze"], ["tidy", "filter", "all"], ["tidy", "next"], ["tidy", "delete"],
                                 ["tidy", "undo"], ["tidy", "keep"], ["tidy", "similar"], ["tidy", "status"]]
        var script = "set -e\n"
        for step in steps {
            script += "\(ShoeboxCLI.binary) \(step[0]) --library '\(t.root.path)' \(step.dropFirst().joined(separator: " ")) >/dev/null\n"
        }
        // The watcher: started, sees a new file, stopped.
        script += """
            \(ShoeboxCLI.binary) watch --library '\(t.root.path)' > /dev/null 2>&1 &
            w=$!; sleep 1; cp '\(t.root.path)/\(t.items.first { $0.format == "jpeg" }!.path)' '\(t.root.path)/offline.jpg'
            for i in $(seq 1 150); do
              \(ShoeboxCLI.binary) list --library '\(t.root.path)' 2>/dev/null | grep -q offline.jpg && break; sleep 0.2
            done
            kill -INT $w; wait $w || true
            """
        var command = [strace, "-f", "-e", "trace=socket,connect", "-o", log.path, "/bin/sh", "-c", script]
        if isolated { command = ["/usr/bin/unshare", "-n"] + command }
        var env = ProcessInfo.processInfo.environment
        env["SHOEBOX_NOW"] = "2026-11-26T12:00:00Z"
        let r = try TestRoll.run(command[0], Array(command.dropFirst()), environment: env, allowFailure: true)
        XCTAssertEqual(r.status, 0, r.stderr)
        let trace = try String(contentsOf: log, encoding: .utf8)
        XCTAssertTrue(trace.contains("exited with") || trace.contains("+++"), "strace followed the processes")
        let internet = trace.split(separator: "\n").filter { $0.contains("AF_INET") || $0.contains("AF_INET6") }
        XCTAssertEqual(internet, [], "sockets opened: \(internet.prefix(5))")
        print("privacy: \(steps.count + 1) commands traced\(isolated ? " in a network namespace without interfaces" : ""); no AF_INET/AF_INET6 socket")
        // The offline library still works: the watcher indexed the new file.
        XCTAssertNotNil(try t.cli.assetsByPath()["offline.jpg"])
    }

    func testNoNetworkClientInTheSourcesOrTheBinary() throws {
        let sources = TestRoll.repositoryRoot.appendingPathComponent("Sources")
        let forbidden = ["FoundationNetworking", "URLSession", "URLRequest", "libcurl", "curl_easy", "NWConnection", "AsyncHTTPClient"]
        var hits: [String] = []
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)!
        for case let url as URL in files where ["swift", "c", "cpp", "h"].contains(url.pathExtension) {
            let text = try String(contentsOf: url, encoding: .utf8)
            for word in forbidden where text.contains(word) { hits.append("\(url.lastPathComponent): \(word)") }
        }
        XCTAssertEqual(hits, [])
        // What Shoebox's own code links and calls: no HTTP client library among the libraries it
        // names, and no socket, connect or name lookup among the functions it imports. (Debian's
        // Tesseract and FFmpeg bring libcurl and network protocols along; Shoebox never calls
        // them — the trace above shows no socket is opened.)
        let needed = try TestRoll.run("/usr/bin/readelf", ["-d", ShoeboxCLI.binary]).stdout
            .split(separator: "\n").filter { $0.contains("(NEEDED)") }
        XCTAssertGreaterThan(needed.count, 10)
        for library in ["libcurl", "FoundationNetworking", "libssl", "libgnutls"] {
            XCTAssertFalse(needed.contains { $0.contains(library) }, "shoebox links \(library)")
        }
        let imported = try TestRoll.run("/usr/bin/nm", ["-D", "--undefined-only", ShoeboxCLI.binary]).stdout
            .split(separator: "\n").compactMap { $0.split(separator: " ").last.map(String.init) }
        XCTAssertGreaterThan(imported.count, 100)
        let network = imported.filter { ["socket", "connect", "getaddrinfo", "gethostbyname", "sendto", "sendmsg"].contains($0) || $0.hasPrefix("curl_") }
        XCTAssertEqual(network, [])
    }
}
