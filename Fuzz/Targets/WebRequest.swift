// What the web server (`shoebox serve`, Sources/WebServer) reads from a request before anything
// looks it up: the first byte picks the parser, the rest is the untrusted text or body.
//   0 `Range` header (`OriginalResponse.parseRange`)      4 a /static/ path (`WebFiles.file`)
//   1 Host/Origin/token/cookie (`AccessPolicy.refusal`)  5 /api/library's query (`LibraryRoutes.query`)
//   2 ids from URLs (`WebID.asset/person/face`, a     6 an upload's name and first bytes
//     render's `TOKEN.EXT`)                              7 a JSON body (`JSONBody`: ids, strings,
//   3 an album key from a URL (`AlbumRoutes.key`)          Tidy's decision and filter, Curation's
//                                                           count, the tracker's fields (`TrackerBody`),
//                                                           the composer's positions and render token,
//                                                           a memory's source, range and seed)
// Checked besides "no crash": a range lies inside the file and is not empty; a request is let
// through only with an allowed Host (and Origin/token for a change, the pairing cookie on the
// LAN), and every such request is; an accepted id is written one way only (canonical); an album
// key or static path has no empty, `.` or `..` part and no NUL, and a static path never reaches
// a file outside the folder or a hidden one; the query's free text never changes the SQL; an
// upload's name keeps SafeName's promises (no `/`, no leading dot, ≤ 200 bytes, stable) and an
// upload accepted is one a scan indexes.
import Analysis
import Foundation
import HTTPTypes
import Memories
import Tidy
import Tracker
@testable import Metadata
@testable import PhotoLibrary
@testable import WebServer

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size > 0 else { return 0 }
    let rest = Data(UnsafeBufferPointer(start: data + 1, count: size - 1))
    switch data[0] % 8 {
    case 0: range(rest)
    case 1: access(rest)
    case 2: ids(String(decoding: rest, as: UTF8.self))
    case 3: albumKey(String(decoding: rest, as: UTF8.self))
    case 4: staticPath(String(decoding: rest, as: UTF8.self))
    case 5: query(String(decoding: rest, as: UTF8.self))
    case 6: upload(rest)
    default: body(rest)
    }
    return 0
}

/// `Range: …` against a file of one of a few sizes (the byte after the selector picks it).
func range(_ bytes: Data) {
    guard let first = bytes.first else { return }
    let sizes = [0, 1, 2, 100, 65_536, 1 << 31, 1 << 40]
    let size = sizes[Int(first) % sizes.count]
    let header = String(decoding: bytes.dropFirst(), as: UTF8.self)
    guard let answer = OriginalResponse.parseRange(header, size: size) else {
        precondition(header.hasPrefix("bytes="), "416 for a header that is not a byte range: \(header.debugDescription)")
        return
    }
    guard let r = answer else { return }  // answered whole
    precondition(r.lowerBound >= 0 && r.lowerBound < r.upperBound && r.upperBound <= size,
                 "range \(r) of a \(size)-byte file from \(header.debugDescription)")
}

let port = 8765
let lanAddress = "192.168.1.20"
let pageToken = "0123456789abcdef0123456789abcdef"
let pairing = PairingBook()
let paired: String = { let book = pairing; return book.redeem(book.newToken())! }()
let policy = AccessPolicy(port: port, lanAddress: lanAddress, pairing: pairing, pageToken: pageToken)
let methods: [HTTPRequest.Method] = [.get, .head, .post, .put, .delete, .patch, .options, .connect]

/// A flags byte (method, LAN, and which fields to make valid, so the later checks are reached),
/// then host, origin, token, cookie and path separated by NUL; a missing field is a missing header.
func access(_ bytes: Data) {
    guard let flags = bytes.first else { return }
    var fields = bytes.dropFirst().split(separator: 0, maxSplits: 4, omittingEmptySubsequences: false)
        .map { Optional(String(decoding: $0, as: UTF8.self)) }
    while fields.count < 5 { fields.append(nil) }
    let method = methods[Int(flags & 7)]
    let lan = flags & 8 != 0
    let allowed: Set<String> = lan ? ["\(lanAddress):\(port)"] : ["127.0.0.1:\(port)", "localhost:\(port)"]
    var host = fields[0]
    if flags & 16 != 0 { host = flags & 32 != 0 ? allowed.sorted().last : allowed.sorted().first }
    var origin = fields[1]
    if flags & 64 != 0, let host { origin = "http://" + host }
    var cookie = fields[3]
    if flags & 128 != 0 { cookie = paired }
    let (token, path) = (fields[2], fields[4] ?? "/")
    let refusal = policy.refusal(method: method, host: host, origin: origin, token: token, cookie: cookie,
                                 path: path, arrivedOnLAN: lan)

    let hostOK = host.map { allowed.contains($0.lowercased()) } ?? false
    let pairedOK = !lan || path == "/pair" || cookie == paired
    let isRead = method == .get || method == .head
    let originOK = host.map { h in origin?.lowercased() == "http://" + h.lowercased() } ?? false
    let writeOK = isRead || originOK || token == pageToken
    let what = "\(method) host \(host.debugDescription) origin \(origin.debugDescription) token \(token.debugDescription) lan \(lan)"
    if hostOK && pairedOK && writeOK {
        precondition(refusal == nil, "refused a request it must let through: \(what): \(refusal!.message)")
    } else {
        precondition(refusal != nil, "let through a request it must refuse: \(what)")
        if !hostOK { precondition(refusal!.status == .misdirectedRequest, "a foreign Host got \(refusal!.status): \(what)") }
    }
}

/// Asset, person and face ids as routes and bodies take them: what is accepted is written one way.
func ids(_ text: String) {
    // /media/render/TOKEN.EXT: 32 lower-case hex digits and a short lower-case extension, nothing else.
    if let (token, ext) = try? RenderRoutes.parse(text) {
        precondition(text == "\(token).\(ext)" && isRenderToken(token) && (1...5).contains(ext.utf8.count)
                     && ext.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) },
                     "a render accepted from \(text.debugDescription)")
    }
    if let id = try? WebID.asset(text) {
        precondition(isCanonicalUUID(id.rawValue) && text.lowercased() == id.rawValue,
                     "an asset id accepted from \(text.debugDescription): \(id.rawValue.debugDescription)")
    }
    if let person = try? WebID.person(text) {
        let digits = person.utf8.dropFirst()
        precondition(person.utf8.first == UInt8(ascii: "p") && !digits.isEmpty && digits.count <= 39
                     && digits.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") },
                     "a person id accepted that is not p and ASCII digits: \(text.debugDescription)")
    }
    if let face = try? WebID.face(text) {
        // What `people forget` then resolves: the whole id (no prefix guessing) and a face number.
        guard let (assetPart, index) = FaceKey.parse(face) else {
            preconditionFailure("a face id accepted that FaceKey cannot read: \(text.debugDescription)")
        }
        precondition(isCanonicalUUID(assetPart.lowercased()) && index >= 0 && index < 9_999,
                     "a face id accepted from \(text.debugDescription)")
    }
}

func isRenderToken(_ s: String) -> Bool {
    s.utf8.count == 32 && s.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
}

func isCanonicalUUID(_ s: String) -> Bool {
    let u = Array(s.utf8)
    guard u.count == 36 else { return false }
    return u.indices.allSatisfy { i in
        [8, 13, 18, 23].contains(i) ? u[i] == UInt8(ascii: "-")
            : (u[i] >= UInt8(ascii: "0") && u[i] <= UInt8(ascii: "9")) || (u[i] >= UInt8(ascii: "a") && u[i] <= UInt8(ascii: "f"))
    }
}

/// The path after /albums/ or /api/albums/, as the router hands it (split on "/", empty parts
/// dropped): a key is folder names only, and survives being written in a URL again.
func albumKey(_ path: String) {
    let parts = path.split(separator: "/", omittingEmptySubsequences: true)
    guard let key = try? AlbumRoutes.key(parts) else { return }
    checkComponents(key, "album key")
    let again = key.split(separator: "/").map { String($0).addingPercentEncoding(withAllowedCharacters: .alphanumerics)! }
    precondition((try? AlbumRoutes.key(again.map { Substring($0) })) == key,
                 "the album key \(key.debugDescription) does not survive being put in a URL")
}

func checkComponents(_ path: String, _ what: String) {
    let parts = path.split(separator: "/", omittingEmptySubsequences: false)
    precondition(!parts.isEmpty && parts.allSatisfy { !$0.isEmpty && $0 != "." && $0 != ".." } && !path.contains("\0"),
                 "\(what) accepted with an empty, . or .. part or a NUL: \(path.debugDescription)")
}

/// A folder of page files (`SHOEBOX_WEB_ROOT`, read at each request) with a hidden file in it and
/// a secret beside it: no path reaches either.
let webRoot: URL = {
    let base = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-web-\(getpid())")
    let root = base.appendingPathComponent("Web")
    try! FileManager.default.createDirectory(at: root.appendingPathComponent("css"), withIntermediateDirectories: true)
    try! Data("secret".utf8).write(to: base.appendingPathComponent("secret.txt"))
    try! Data("hidden".utf8).write(to: root.appendingPathComponent(".hidden"))
    try! Data("body{}".utf8).write(to: root.appendingPathComponent("css/app.css"))
    try! Data("<html>".utf8).write(to: root.appendingPathComponent("app.html"))
    atexit { try? FileManager.default.removeItem(at: FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-web-\(getpid())")) }
    return root
}()
let folderFiles = WebFiles(root: webRoot)
let embeddedFiles = WebFiles()

func staticPath(_ raw: String) {
    // As given, and as /static/** hands it over (the router's parts joined again).
    for path in [raw, raw.split(separator: "/").joined(separator: "/")] {
        if let file = folderFiles.file(path) {
            checkComponents(path, "static path")
            precondition(!path.contains("\\") && !path.split(separator: "/").contains { $0.hasPrefix(".") },
                         "static path with a backslash or hidden part: \(path.debugDescription)")
            let text = String(decoding: file.bytes, as: UTF8.self)
            precondition(text != "secret" && text != "hidden", "static path \(path.debugDescription) read \(text)")
        }
        // Embedded files only under their own names. (Not decoded here: the cache keeps the Data,
        // whose packed reference LeakSanitizer cannot see, and reports as a leak at exit.)
        if EmbeddedFiles.base64[path] == nil {
            precondition(embeddedFiles.file(path) == nil, "an embedded file that is not one: \(path.debugDescription)")
        }
    }
}

/// `/api/library?…` as the server reads it (`FormQuery`), then Shoebox's filters. The place and
/// person are values in the SQL, never part of it; the grid cache's key names one query string
/// only (it reads back as the same fields), so no filter is answered with another's rows.
func query(_ text: String) {
    let form = FormQuery.parse(text)
    let key = LibraryRoutes.cacheKey(form)
    precondition(FormQuery.parse(key) == form, "the cache key \(key.debugDescription) stands for other fields than \(form)")
    guard let q = try? LibraryRoutes.query(form) else { return }
    if let year = form["year"], !year.isEmpty { precondition(q.year == Int(year), "year \(year.debugDescription) read as \(q.year as Any)") }
    // A person is a name, or an id as `people list` prints it ("p12"), which also looks in the
    // faces: the text picks one of those two clauses and is otherwise only a value.
    var asName = q, asID = q
    if q.place != nil { asName.place = "x"; asID.place = "x" }
    if q.person != nil { asName.person = "x"; asID.person = "p1" }
    let sql = q.sql().0
    precondition(sql == asName.sql().0 || sql == asID.sql().0, "a filter's text changed the SQL: \(text.debugDescription)")
}

/// An upload: its name (before the first NUL) and its first bytes. The name is cleaned as the
/// route cleans it; a file the route accepts is one a scan would index.
func upload(_ bytes: Data) {
    let parts = bytes.split(separator: 0, maxSplits: 1, omittingEmptySubsequences: false)
    let raw = String(decoding: parts[0], as: UTF8.self)
    let head = parts.count > 1 ? Array(parts[1].prefix(4096)) : []
    let name = SafeName.file(raw, fallback: "upload")
    let u = Array(name.utf8)
    precondition(!u.isEmpty && u.count <= 200 && u.first != UInt8(ascii: ".") && u.first != UInt8(ascii: " ")
                 && !u.contains(UInt8(ascii: "/")) && !u.contains { $0 < 0x20 || $0 == 0x7F },
                 "SafeName.file broke its promises: \(raw.debugDescription) → \(name.debugDescription)")
    // IncomingFile takes only a name SafeName leaves as it is.
    precondition(SafeName.file(name, fallback: "") == name, "SafeName.file is not stable: \(raw.debugDescription) → \(name.debugDescription)")
    // The hidden temporary and the "(n)" names must be legal names too.
    precondition((".\(name).4194304.4294967295.tmp").utf8.count <= 255, "the temporary of \(name.debugDescription) is too long")
    guard (try? UploadRoutes.check(name: name)) != nil, (try? UploadRoutes.check(size: Int64(head.count), head: head, name: name)) != nil else { return }
    let dot = name.lastIndex(of: ".").flatMap { $0 == name.startIndex ? nil : $0 }
    let (stem, ext) = dot.map { (String(name[..<$0]), String(name[$0...])) } ?? (name, "")
    for candidate in [name, "\(stem) (1000)\(ext)"] {
        precondition(LibraryLayout.isIndexable(fileName: candidate) && candidate.utf8.count <= 255 && !candidate.contains("/"),
                     "an upload accepted as \(candidate.debugDescription) that a scan would not index")
    }
    precondition(MetadataReader.sniff(head, fileName: name) != nil, "an upload accepted whose content a scan refuses")
}

/// A JSON body as the API reads it, then the fields routes take from it.
func body(_ bytes: Data) {
    guard let object = try? JSONBody.parse(bytes) else { return }
    if let list = try? JSONBody.ids(object) {
        precondition(!list.isEmpty && list.allSatisfy { isCanonicalUUID($0.rawValue) }, "ids accepted: \(list)")
        precondition(list.count == (object["ids"] as? [Any])?.count, "ids dropped or added")
    }
    if let name = try? JSONBody.string(object, "name") { precondition(name == object["name"] as? String, "name changed") }
    if let face = try? JSONBody.string(object, "face") { ids(face) }
    if let people = object["ids"] as? [String] { for p in people.prefix(4) { ids(p) } }
    if let names = try? TrashRoutes.names(object) {
        precondition(!names.isEmpty && names.allSatisfy { !$0.isEmpty && !$0.contains("/") && $0 != "." && $0 != ".." && !$0.contains("\0") },
                     "a trash name accepted that is a path: \(names)")
    }
    // Tidy's page: a decision is one of the three a swipe makes, a filter one the sheet offers
    // (written back the one way `tidy status` shows it).
    for key in ["decision", "others"] {
        if let d = try? TidyRoutes.decision(object, key) {
            precondition([.keep, .delete, .maybe].contains(d) && object[key] as? String == d.rawValue, "decision accepted: \(d)")
        }
    }
    if let text = object["filter"] as? String, let filter = TidyFilter(text) {
        precondition(TidyFilter(filter.description) == filter, "filter \(text.debugDescription) does not read back")
    }
    // Curation's page: "Select top N" sends a number, never a string read as one.
    if let n = try? CurationRoutes.count(object) {
        precondition(!(object["count"] is String) && (object["count"] as? Int) == n, "count accepted: \(n)")
    }
    trackerFields(object)
    composerFields(object)
}

/// The tracker's page: a type, stage or export format is one of the listed words, written back
/// the one way; a list is the strings sent, in their order, or refused whole; a null type clears
/// it and is never also a type; a record id is canonical and lower-case.
func trackerFields(_ object: [String: Any]) {
    if let t = object["type"] as? String, let type = try? TrackerBody.type(t) { precondition(type.rawValue == t, "type \(t.debugDescription)") }
    if let p = object["progress"] as? String, let stage = try? TrackerBody.stage(p) { precondition(stage.rawValue == p, "stage \(p.debugDescription)") }
    if let f = object["format"] as? String, let format = try? TrackerBody.format(f) { precondition(format.rawValue == f, "format \(f.debugDescription)") }
    if let change = try? TrackerBody.recipe(object) {
        precondition(!(change.clearType && change.type != nil), "a type both cleared and set")
        for (key, list) in [("steps", change.steps), ("paints", change.paints), ("techniques", change.techniques)] {
            precondition(list == nil || list == object[key] as? [String], "\(key) changed on the way")
        }
    }
    for key in ["mini", "project"] {
        if let text = object[key] as? String, let id = try? WebID.tracker(text, key) {
            precondition(isCanonicalUUID(id) && id == text.lowercased(), "tracker id accepted: \(text.debugDescription)")
        }
    }
}

/// The composer's page: a position is a whole JSON number as sent (never true, never 2.5); a
/// render token is 32 lower-case hex digits, the very string sent.
func composerFields(_ object: [String: Any]) {
    for key in ["from", "to", "position"] {
        if let p = try? ComposerRoutes.position(object, key) {
            let n = object[key] as? NSNumber
            precondition(n != nil && n!.doubleValue == Double(p) && abs(p) <= 1_000_000, "position \(key) accepted: \(p) from \(String(describing: object[key]))")
        }
    }
    if let sent = object["render"] as? String, let token = try? RenderCache.token(sent) {
        precondition(token == sent && isRenderToken(token), "render token accepted: \(sent.debugDescription)")
    }
    memories(object)
}

/// Memories' page: one source, a name trimmed, bounded and without control characters, a year
/// in 1…9999; a range one of the presets, as written; a seed the whole number sent.
func memories(_ object: [String: Any]) {
    if let source = try? MemoriesRequest.source(object) {
        precondition(["year", "place", "person"].filter { object[$0] != nil }.count == 1, "a source accepted from \(object)")
        switch source {
        case .year(let y): precondition((1...9999).contains(y), "year \(y)")
        case .place(let name), .person(let name):
            precondition(!name.isEmpty && name.utf8.count <= MemoriesRequest.maxNameBytes
                         && name == name.trimmingCharacters(in: .whitespaces)
                         && !name.unicodeScalars.contains { $0.properties.generalCategory == .control }, "name accepted: \(name.debugDescription)")
        }
    }
    if let text = object["range"] as? String, let range = try? MemoriesRequest.range(text) {
        precondition(range.rawValue == text, "range \(text.debugDescription) read as \(range)")
    }
    if let seed = try? MemoriesRequest.seed(object), let sent = object["seed"] {
        let text = (sent as? String) ?? MemoriesRequest.number(sent)
        precondition(text.flatMap { UInt64($0) } == seed, "seed \(seed) from \(sent)")
    }
}
