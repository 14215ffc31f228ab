import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// Who may talk to the server, decided before any route runs:
/// - the `Host` must name the address the request arrived on (`127.0.0.1:PORT`, `localhost:PORT`,
///   or with `--lan` the LAN `IP:PORT`): a page of another site whose name resolves to 127.0.0.1
///   (DNS rebinding) is refused;
/// - a request that changes anything (not GET/HEAD) needs an `Origin` of this server, or the
///   page's token in `X-Shoebox-Token`: a form or script of another site cannot write;
/// - a request on the LAN address needs the session cookie a pairing URL grants.
public struct AccessPolicy: Sendable {
    public let port: Int
    /// The LAN address `--lan` listens on, nil without it.
    public let lanAddress: String?
    public let pairing: PairingBook
    /// The token of `X-Shoebox-Token` (in each page's `<meta name="shoebox-token">`).
    public let pageToken: String

    public init(port: Int, lanAddress: String?, pairing: PairingBook, pageToken: String) {
        self.port = port
        self.lanAddress = lanAddress
        self.pairing = pairing
        self.pageToken = pageToken
    }

    /// Why the request is refused (status and one line), or nil when it may go on.
    func refusal(method: HTTPRequest.Method, host: String?, origin: String?, token: String?, cookie: String?,
                 path: String, arrivedOnLAN: Bool) -> WebError? {
        guard let host, allowedHosts(lan: arrivedOnLAN).contains(host.lowercased()) else {
            return WebError(.misdirectedRequest, "this Shoebox answers only to \(allowedHosts(lan: arrivedOnLAN).sorted().joined(separator: " or "))", code: "foreign_host")
        }
        if arrivedOnLAN, path != "/pair", !(cookie.map(pairing.isSession) ?? false) {
            return WebError(.forbidden, "pair this device first: open the pairing URL `shoebox serve --lan` printed", code: "not_paired")
        }
        let reads: Set<HTTPRequest.Method> = [.get, .head]
        if !reads.contains(method) {
            let sameOrigin = origin.map { $0.lowercased() == "http://\(host.lowercased())" } ?? false
            let tokened = token.map { PairingBook.constantTimeEqual($0, pageToken) } ?? false
            guard sameOrigin || tokened else {
                return WebError(.forbidden, "a change must come from a Shoebox page (Origin \(origin ?? "missing"))", code: "cross_origin")
            }
        }
        return nil
    }

    func allowedHosts(lan: Bool) -> Set<String> {
        if lan, let lanAddress { return ["\(lanAddress):\(port)"] }
        return ["127.0.0.1:\(port)", "localhost:\(port)"]
    }
}

/// `AccessPolicy` in front of every route, and the headers every response carries: a
/// Content-Security-Policy that allows this server's own files only (no inline script), no
/// MIME sniffing, no framing, no referrer to anywhere else.
struct AccessMiddleware: RouterMiddleware {
    typealias Context = WebContext
    let policy: AccessPolicy

    static let securityHeaders: [(HTTPField.Name, String)] = [
        (.contentSecurityPolicy, "default-src 'self'; img-src 'self' blob: data:; media-src 'self' blob:; object-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"),
        (HTTPField.Name("X-Content-Type-Options")!, "nosniff"),
        (HTTPField.Name("Referrer-Policy")!, "same-origin"),
        (HTTPField.Name("X-Frame-Options")!, "DENY"),
        (HTTPField.Name("Cross-Origin-Resource-Policy")!, "same-origin"),
    ]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let lan = context.localAddress.map { !Self.isLoopback($0) } ?? false
        var response: Response
        if let refusal = policy.refusal(method: request.method, host: request.head.authority,
                                        origin: request.headers[.origin],
                                        token: request.headers[HTTPField.Name("X-Shoebox-Token")!],
                                        cookie: request.cookies[PairingBook.cookieName]?.value,
                                        path: request.uri.path, arrivedOnLAN: lan) {
            response = try refusal.response(from: request, context: context)
        } else {
            do { response = try await next(request, context) } catch {
                response = try WebError.from(error).response(from: request, context: context)
            }
        }
        for (name, value) in Self.securityHeaders where response.headers[name] == nil { response.headers[name] = value }
        return response
    }

    static func isLoopback(_ address: SocketAddress) -> Bool {
        switch address {
        case .v4: return address.ipAddress?.hasPrefix("127.") ?? false
        case .v6: return address.ipAddress == "::1"
        default: return true
        }
    }
}
