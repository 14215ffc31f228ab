import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport

/// `shoebox serve --port 0` running on a library, and plain HTTP to it: what a browser or a
/// script sees, with the CLI beside it to check the library afterwards.
final class ServedLibrary: @unchecked Sendable {
    let cli: ShoeboxCLI
    let process = Process()
    let base: URL
    var origin: String { "http://" + base.host! + ":" + String(base.port!) }

    /// `environment`: variables added to the server's (a fault to inject, a clock).
    init(_ cli: ShoeboxCLI, watch: Bool = false, environment: [String: String] = [:]) throws {
        self.cli = cli
        process.executableURL = URL(fileURLWithPath: ShoeboxCLI.binary)
        process.arguments = ["serve", "--library", cli.library.path, "--port", "0"] + (watch ? [] : ["--no-watch"])
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new } }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        // The first line on stdout is the URL, once the server listens.
        var text = ""
        let deadline = Date().addingTimeInterval(60)
        while !text.contains("\n"), Date() < deadline {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        guard let line = text.split(separator: "\n").first, let url = URL(string: String(line)), line.hasPrefix("http://127.0.0.1:") else {
            process.terminate()
            throw NSError(domain: "serve", code: 1, userInfo: [NSLocalizedDescriptionKey: "serve printed no URL: \(text.debugDescription)"])
        }
        base = url
    }

    deinit { stop() }

    func stop() {
        if process.isRunning { process.terminate(); process.waitUntilExit() }
    }

    struct Reply {
        var status: Int
        var headers: [String: String]
        var body: Data
        var text: String { String(decoding: body, as: UTF8.self) }
        func json() throws -> Any { try JSONSerialization.jsonObject(with: body) }
    }

    /// One request; writes carry this server's Origin unless `origin` says otherwise.
    func request(_ path: String, method: String = "GET", body: Data? = nil, headers: [String: String] = [:],
                 origin: String?? = .none) throws -> Reply {
        var request = URLRequest(url: URL(string: path, relativeTo: base)!)
        request.httpMethod = method
        request.httpBody = body
        let sentOrigin: String? = origin ?? (method == "GET" ? nil : self.origin)
        if let sentOrigin { request.setValue(sentOrigin, forHTTPHeaderField: "Origin") }
        for (k, v) in headers { request.setValue(v, forHTTPHeaderField: k) }
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var reply: Reply?
        nonisolated(unsafe) var failure: (any Error)?
        URLSession.shared.dataTask(with: request) { data, response, error in
            if let http = response as? HTTPURLResponse {
                var headers: [String: String] = [:]
                for (k, v) in http.allHeaderFields { headers[String(describing: k).lowercased()] = String(describing: v) }
                reply = Reply(status: http.statusCode, headers: headers, body: data ?? Data())
            } else { failure = error }
            done.signal()
        }.resume()
        _ = done.wait(timeout: .now() + 60)
        if let failure { throw failure }
        guard let reply else { throw NSError(domain: "serve", code: 2, userInfo: [NSLocalizedDescriptionKey: "no reply to \(method) \(path)"]) }
        return reply
    }

    func json(_ path: String) throws -> Any { try request(path).json() }

    func post(_ path: String, _ object: Any) throws -> Reply {
        try request(path, method: "POST", body: try JSONSerialization.data(withJSONObject: object), headers: ["Content-Type": "application/json"])
    }

    /// The grid's ids, in date order.
    func libraryIDs(_ query: String = "") throws -> [String] {
        let doc = try json("/api/library" + query) as? [String: Any]
        return (doc?["items"] as? [[Any]] ?? []).compactMap { $0.first as? String }
    }
}
