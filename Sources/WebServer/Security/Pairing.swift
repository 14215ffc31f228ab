import Foundation
import NIOConcurrencyHelpers

/// Pairing a phone with `serve --lan`: a one-time token, printed in a URL on the terminal and
/// valid for ten minutes, is traded once for a session cookie (HttpOnly, SameSite=Strict). Every
/// request that arrives on the LAN address must carry a session; loopback needs none.
public final class PairingBook: Sendable {
    public static let tokenLifetime: TimeInterval = 600
    public static let cookieName = "shoebox_session"

    private struct State {
        var token: String?
        var tokenExpires = Date.distantPast
        var sessions: Set<String> = []
    }
    private let state = NIOLockedValueBox(State())

    public init() {}

    /// A new one-time token (the previous one stops working), valid from `now` for ten minutes.
    public func newToken(now: Date = Date()) -> String {
        let token = Self.randomHex(bytes: 16)
        state.withLockedValue { $0.token = token; $0.tokenExpires = now.addingTimeInterval(Self.tokenLifetime) }
        return token
    }

    /// The session the token buys, once: nil when it is wrong, used already or expired.
    public func redeem(_ token: String, now: Date = Date()) -> String? {
        state.withLockedValue { s in
            guard let expected = s.token, Self.constantTimeEqual(expected, token), now < s.tokenExpires else { return nil }
            s.token = nil
            let session = Self.randomHex(bytes: 32)
            s.sessions.insert(session)
            return session
        }
    }

    public func isSession(_ value: String) -> Bool {
        state.withLockedValue { s in s.sessions.contains { Self.constantTimeEqual($0, value) } }
    }

    static func randomHex(bytes: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<bytes).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }

    /// No early exit on the first differing byte: how long a wrong guess takes says nothing.
    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var diff: UInt8 = 0
        for i in x.indices { diff |= x[i] ^ y[i] }
        return diff == 0
    }
}
