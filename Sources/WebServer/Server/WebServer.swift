import Foundation
import Hummingbird
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import PhotoLibrary
import ServiceLifecycle
#if canImport(Glibc)
import Glibc
#endif

/// `shoebox serve`: the web app on 127.0.0.1 (and, with `--lan`, on the LAN address for a paired
/// phone), the watcher and background analysis beside it, until SIGINT or SIGTERM.
public enum WebServer {
    /// How `serve` runs.
    public struct Options: Sendable {
        /// 0: a free port, chosen now (the printed URL says which).
        public var port = 8765
        public var lan = false
        public var watch = true
        /// `SHOEBOX_WEB_ROOT`: serve the pages from this folder instead of the embedded copy.
        public var webRoot: String?
        public var uploadLimit: Int64 = 2 << 30
        public init() {}
    }

    /// What `serve` prints when it is listening.
    public struct Listening: Sendable {
        public var url: String
        /// With `--lan`: the one-time pairing URL for a phone.
        public var pairingURL: String?
    }

    /// Runs until a stop signal. `listening` is called once every address is bound.
    public static func run(session: LibrarySession, options: Options, logger: Logger,
                           listening: @escaping @Sendable (Listening) -> Void) async throws {
        let port = options.port == 0 ? try freeLoopbackPort() : options.port
        let lanAddress = options.lan ? try Self.lanAddress() : nil
        let pairing = PairingBook()
        let policy = AccessPolicy(port: port, lanAddress: lanAddress, pairing: pairing, pageToken: PairingBook.randomHex(bytes: 16))
        let events = LiveEvents()
        let files = WebFiles(root: options.webRoot.map { URL(fileURLWithPath: $0, isDirectory: true) })
        let app = WebApp(session: session, files: files, policy: policy, events: events, uploadLimit: options.uploadLimit)
        let responder = HeadAsGet(base: app.router().buildResponder())

        let bound = BindCounter(expected: lanAddress == nil ? 1 : 2) {
            listening(Listening(url: "http://127.0.0.1:\(port)/",
                                pairingURL: lanAddress.map { "http://\($0):\(port)/pair?token=\(pairing.newToken())" }))
        }
        var services: [any Service] = [
            Application(responder: responder, configuration: .init(address: .hostname("127.0.0.1", port: port), serverName: "Shoebox"),
                        onServerRunning: { _ in bound.one() }, logger: logger),
            LibraryUpkeep(session: session, events: events, watching: options.watch, logger: logger) { LibraryRoutes.warm(app) },
        ]
        if let lanAddress {
            services.append(Application(responder: responder, configuration: .init(address: .hostname(lanAddress, port: port), serverName: "Shoebox"),
                                        onServerRunning: { _ in bound.one() }, logger: logger))
        }
        var configuration = ServiceGroupConfiguration(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        // Open event streams end at once (LiveEvents.close); anything else gets two seconds.
        configuration.maximumGracefulShutdownDuration = .seconds(2)
        try await ServiceGroup(configuration: configuration).run()
    }

    /// Calls `done` when the last of the servers is listening.
    final class BindCounter: Sendable {
        private let left: NIOLockedValueBox<Int>
        private let done: @Sendable () -> Void
        init(expected: Int, done: @escaping @Sendable () -> Void) {
            left = NIOLockedValueBox(expected)
            self.done = done
        }
        func one() {
            if left.withLockedValue({ $0 -= 1; return $0 }) == 0 { done() }
        }
    }

    /// A port nobody listens on now: bound to port 0 and closed (another program could take it in
    /// between; the bind that follows would then fail with a clear message).
    static func freeLoopbackPort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ShoeboxError(.io, "cannot open a socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard ok else { throw ShoeboxError(.io, "cannot find a free port on 127.0.0.1: \(String(cString: strerror(errno)))") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// The first IPv4 address of an interface that is up and not loopback (the LAN a phone is on).
    static func lanAddress() throws -> String {
        let devices = (try? System.enumerateDevices()) ?? []
        for device in devices {
            guard let address = device.address, case .v4 = address, let ip = address.ipAddress, !ip.hasPrefix("127.") else { continue }
            return ip
        }
        throw ShoeboxError(.io, "--lan found no network address other than loopback on this machine")
    }
}

/// HEAD answered as GET without the body: Hummingbird's router matches methods exactly, and a
/// route is chosen before any middleware runs.
struct HeadAsGet<Base: HTTPResponder>: HTTPResponder where Base.Context == WebContext {
    typealias Context = WebContext
    let base: Base

    func respond(to request: Request, context: WebContext) async throws -> Response {
        guard request.method == .head else { return try await base.respond(to: request, context: context) }
        var head = request.head
        head.method = .get
        var response = try await base.respond(to: Request(head: head, body: request.body), context: context)
        response.body = ResponseBody()
        return response
    }
}

