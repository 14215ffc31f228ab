import Foundation
import HTTPTypes
import Testing
@testable import WebServer

/// Who may talk to the server, decided before any route: the rules of the issue, one by one.
@Suite struct AccessPolicyTests {
    let pairing = PairingBook()
    var policy: AccessPolicy { AccessPolicy(port: 8765, lanAddress: "192.168.1.20", pairing: pairing, pageToken: "t0ken") }

    func refusal(_ method: HTTPRequest.Method = .get, host: String? = "127.0.0.1:8765", origin: String? = nil, token: String? = nil,
                 cookie: String? = nil, path: String = "/", lan: Bool = false) -> WebError? {
        policy.refusal(method: method, host: host, origin: origin, token: token, cookie: cookie, path: path, arrivedOnLAN: lan)
    }

    @Test func aPageOfThisServerIsServedByEitherLoopbackName() {
        #expect(refusal() == nil)
        #expect(refusal(host: "localhost:8765") == nil)
        #expect(refusal(host: "LOCALHOST:8765") == nil)
    }

    @Test func aForeignHostIsRefusedAsMisdirected() {
        // DNS rebinding: evil.example resolves to 127.0.0.1 but the browser still sends its name.
        for host in ["evil.example:8765", "127.0.0.1:8766", "127.0.0.1", "192.168.1.20:8765", "", "127.0.0.1:8765.evil"] {
            #expect(refusal(host: host)?.status == .misdirectedRequest, "\(host)")
        }
        #expect(refusal(host: nil)?.status == .misdirectedRequest)
    }

    @Test func aChangeNeedsThisServersOriginOrTheToken() {
        #expect(refusal(.post)?.status == .forbidden)
        #expect(refusal(.post, origin: "http://evil.example")?.status == .forbidden)
        #expect(refusal(.post, origin: "null")?.status == .forbidden)
        #expect(refusal(.delete, origin: "https://127.0.0.1:8765")?.status == .forbidden)
        #expect(refusal(.post, origin: "http://127.0.0.1:8765") == nil)
        #expect(refusal(.post, host: "localhost:8765", origin: "http://localhost:8765") == nil)
        #expect(refusal(.post, host: "localhost:8765", origin: "http://127.0.0.1:8765")?.status == .forbidden)
        #expect(refusal(.post, token: "t0ken") == nil)
        #expect(refusal(.post, token: "t0ke")?.status == .forbidden)
    }

    @Test func theLANNeedsThePairingSessionAndItsOwnHost() throws {
        let lanHost = "192.168.1.20:8765"
        #expect(refusal(host: lanHost, lan: true)?.status == .forbidden)
        #expect(refusal(host: lanHost, cookie: "made-up", lan: true)?.status == .forbidden)
        #expect(refusal(host: "127.0.0.1:8765", lan: true)?.status == .misdirectedRequest)
        // The pairing page itself is open (it checks the token).
        #expect(refusal(host: lanHost, path: "/pair", lan: true) == nil)
        let session = try #require(pairing.redeem(pairing.newToken()))
        #expect(refusal(host: lanHost, cookie: session, lan: true) == nil)
        #expect(refusal(.post, host: lanHost, origin: "http://\(lanHost)", cookie: session, lan: true) == nil)
        #expect(refusal(.post, host: lanHost, origin: "http://evil.example", cookie: session, lan: true)?.status == .forbidden)
    }

    @Test func aPairingTokenBuysOneSessionOnceAndExpires() {
        let book = PairingBook()
        let now = Date()
        let token = book.newToken(now: now)
        let wrong = String(token.first == "0" ? "1" : "0") + token.dropFirst()
        #expect(book.redeem(wrong, now: now) == nil)
        let session = book.redeem(token, now: now)
        #expect(session != nil)
        #expect(book.redeem(token, now: now) == nil, "a token works once")
        #expect(book.isSession(session ?? ""))
        let late = book.newToken(now: now)
        #expect(book.redeem(late, now: now.addingTimeInterval(PairingBook.tokenLifetime + 1)) == nil, "ten minutes, not more")
    }
}

/// Ids from URLs and bodies: nothing but the shapes they have gets through.
@Suite struct WebIDTests {
    @Test func onlyACanonicalUUIDIsAnAssetID() throws {
        let id = "183efe6a-a850-48c2-b278-cae3a19bf27e"
        #expect(try WebID.asset(id).rawValue == id)
        for bad in ["../../etc/passwd", "..%2F..%2Fetc", id + "/..", "183efe6a", "", id.replacingOccurrences(of: "-", with: ""), id + "\0"] {
            #expect(throws: WebError.self, "\(bad.debugDescription)") { try WebID.asset(bad) }
        }
    }

    @Test func personFaceAndAlbumKeysRefuseTraversal() throws {
        #expect(try WebID.person("p12") == "p12")
        for bad in ["p", "../p1", "p1/..", "q1", "p1x"] { #expect(throws: WebError.self) { try WebID.person(bad) } }
        #expect(try WebID.face("183efe6a-a850-48c2-b278-cae3a19bf27e#2") != "")
        for bad in ["183efe6a-a850-48c2-b278-cae3a19bf27e#0", "x#1", "183efe6a-a850-48c2-b278-cae3a19bf27e"] {
            #expect(throws: WebError.self) { try WebID.face(bad) }
        }
        #expect(try AlbumRoutes.key(["Years", "2024"]) == "Years/2024")
        for bad: [Substring] in [[".."], ["Years", ".."], ["."], [""], ["a\0b"]] {
            #expect(throws: WebError.self) { try AlbumRoutes.key(bad) }
        }
    }
}
