import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One `Recently Deleted/info/<name>.trashinfo` file, as the freedesktop.org Trash
/// specification (1.0) writes it:
///
///     [Trash Info]
///     Path=2024/Lisbon/IMG%200412.HEIC
///     DeletionDate=2026-11-22T10:15:03
///
/// `Path` is percent-encoded and, for a trash folder at the top of a volume, relative to that
/// top — here the library root, the folder that holds `Recently Deleted/`. `DeletionDate` is
/// local time without a zone. The format is three lines of a desktop-entry file; a hand-written
/// reader is smaller than any library that would parse it (GLib's GKeyFile would pull GLib in for
/// this one file), and it is a parser of untrusted bytes (other tools write these files), so it
/// is strict about what it accepts and bounded in what it reads.
public struct TrashInfo: Equatable, Sendable {
    /// The original path relative to the library root, decoded.
    public var path: String
    public var deletionDate: Date

    public init(path: String, deletionDate: Date) {
        self.path = path
        self.deletionDate = deletionDate
    }

    /// Files larger than this are not trash info files.
    static let maximumSize = 64 * 1024

    public func render() -> String {
        "[Trash Info]\nPath=\(TrashInfo.percentEncode(path))\nDeletionDate=\(TrashInfo.formatLocal(deletionDate))\n"
    }

    /// What a `.trashinfo` says, before its `Path=` is placed in the library: the path decoded
    /// but as written (absolute, or relative to whatever the tool that wrote it took as the top).
    public struct Stated: Equatable, Sendable {
        public var path: String
        public var deletionDate: Date
    }

    /// Parses a `.trashinfo`; `root` turns an absolute `Path=` inside the library into a relative one.
    public static func parse(_ data: Data, root: String? = nil) throws -> TrashInfo {
        let stated = try parseStated(data)
        return TrashInfo(path: try place(stated.path, roots: root.map { [$0] } ?? []), deletionDate: stated.deletionDate)
    }

    /// `path` (a decoded `Path=`) relative to the library: an absolute one under one of `roots`
    /// (the library's folder as given and with links resolved) loses that prefix; then it must
    /// be a plain relative path (`LibraryPath`). Throws, with the path escaped, when it is not.
    static func place(_ path: String, roots: [String]) throws -> String {
        var path = path
        if path.hasPrefix("/") {
            guard let base = roots.map({ $0.hasSuffix("/") ? $0 : $0 + "/" }).first(where: { path.hasPrefix($0) }) else {
                throw problem("has a Path= outside the library (\(displayPath(path)))")
            }
            path = String(path.dropFirst(base.count))
        }
        guard LibraryPath.isValid(path) else {
            throw problem("has a Path= that is not a plain relative path (\(displayPath(path)))")
        }
        return path
    }

    /// Parses the format of a `.trashinfo` (its group, one `Path=` and one `DeletionDate=`), at
    /// most `maximumSize` bytes, without placing the path.
    public static func parseStated(_ data: Data) throws -> Stated {
        guard data.count <= maximumSize else { throw problem("is larger than \(maximumSize / 1024) KiB") }
        guard let text = String(data: data, encoding: .utf8) else { throw problem("is not UTF-8 text") }
        var inGroup = false
        var sawGroup = false
        var path: String?
        var date: Date?
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("[") {
                inGroup = line == "[Trash Info]"
                sawGroup = sawGroup || inGroup
                continue
            }
            guard inGroup, let eq = line.firstIndex(of: "=") else { continue }
            let key = line[..<eq].trimmingCharacters(in: .whitespaces)
            let value = String(line[line.index(after: eq)...]).trimmingCharacters(in: .whitespaces)
            switch key {
            // A second Path= would let two readers disagree on where the file goes back.
            case "Path" where path != nil: throw problem("has Path= twice")
            case "DeletionDate" where date != nil: throw problem("has DeletionDate= twice")
            case "Path":
                guard let decoded = percentDecode(value) else { throw problem("has a Path= that is not valid percent-encoded UTF-8") }
                path = decoded
            case "DeletionDate":
                guard let d = parseLocal(value) else { throw problem("has a DeletionDate= that is not YYYY-MM-DDThh:mm:ss") }
                date = d
            default:
                continue
            }
        }
        guard sawGroup else { throw problem("has no [Trash Info] group") }
        guard let path, !path.isEmpty else { throw problem("has no Path=") }
        guard let date else { throw problem("has no DeletionDate=") }
        return Stated(path: path, deletionDate: date)
    }

    static func problem(_ what: String) -> ShoeboxError { ShoeboxError(.invalidArgument, what) }

    // MARK: Percent-encoding (RFC 2396 escapes, `/` kept, as the spec and trash-cli write it)

    static func percentEncode(_ s: String) -> String {
        var out: [UInt8] = []
        for byte in s.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."),
                 UInt8(ascii: "~"), UInt8(ascii: "/"):
                out.append(byte)
            default:
                out.append(UInt8(ascii: "%"))
                Hex.append(byte, to: &out, uppercase: true)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func percentDecode(_ s: String) -> String? {
        var bytes: [UInt8] = []
        var it = Array(s.utf8)[...]
        while let b = it.popFirst() {
            if b == UInt8(ascii: "%") {
                guard it.count >= 2, let h = Hex.value(ofDigit: it.popFirst()!), let l = Hex.value(ofDigit: it.popFirst()!) else { return nil }
                bytes.append(h << 4 | l)
            } else {
                bytes.append(b)
            }
        }
        guard !bytes.contains(0) else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }

    // MARK: Local time without a zone

    static func formatLocal(_ date: Date) -> String {
        var t = time_t(date.timeIntervalSince1970.rounded(.down))
        var tm = tm()
        localtime_r(&t, &tm)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d", Int(tm.tm_year) + 1900, Int(tm.tm_mon) + 1, Int(tm.tm_mday),
                      Int(tm.tm_hour), Int(tm.tm_min), Int(tm.tm_sec))
    }

    /// `YYYY-MM-DDThh:mm:ss` in local time (fractions and a trailing zone, which some tools
    /// write, are tolerated: a zone is honoured).
    static func parseLocal(_ s: String) -> Date? {
        let u = Array(s.utf8)
        guard u.count >= 19, u[4] == UInt8(ascii: "-"), u[7] == UInt8(ascii: "-"), u[10] == UInt8(ascii: "T") || u[10] == UInt8(ascii: " "),
              u[13] == UInt8(ascii: ":"), u[16] == UInt8(ascii: ":") else { return nil }
        func num(_ a: Int, _ n: Int) -> Int? {
            var v = 0
            for i in a..<(a + n) {
                guard u[i] >= 48, u[i] <= 57 else { return nil }
                v = v * 10 + Int(u[i] - 48)
            }
            return v
        }
        guard let y = num(0, 4), let mo = num(5, 2), let d = num(8, 2), let h = num(11, 2), let mi = num(14, 2), let sec = num(17, 2),
              (1...12).contains(mo), (1...31).contains(d), h < 24, mi < 60, sec < 61, y >= 1970, y < 10000 else { return nil }
        // mktime/timegm would quietly make February 30 into March 2.
        let leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)
        guard d <= [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][mo - 1] else { return nil }
        var rest = u[19...]
        if rest.first == UInt8(ascii: ".") {
            rest = rest.dropFirst()
            while let c = rest.first, c >= 48, c <= 57 { rest = rest.dropFirst() }
        }
        var tm = tm()
        tm.tm_year = Int32(y - 1900); tm.tm_mon = Int32(mo - 1); tm.tm_mday = Int32(d)
        tm.tm_hour = Int32(h); tm.tm_min = Int32(mi); tm.tm_sec = Int32(sec)
        if rest.isEmpty {
            tm.tm_isdst = -1
            let t = mktime(&tm)
            return t == -1 ? nil : Date(timeIntervalSince1970: Double(t))
        }
        // A zone: "Z" or ±hh:mm.
        let utc = timegm(&tm)
        if rest.elementsEqual("Z".utf8) { return Date(timeIntervalSince1970: Double(utc)) }
        let z = Array(rest)
        guard z.count == 6, z[0] == UInt8(ascii: "+") || z[0] == UInt8(ascii: "-"), z[3] == UInt8(ascii: ":"),
              z[1...2].allSatisfy({ $0 >= 48 && $0 <= 57 }), z[4...5].allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        let offset = (Int(z[1] - 48) * 10 + Int(z[2] - 48)) * 3600 + (Int(z[4] - 48) * 10 + Int(z[5] - 48)) * 60
        return Date(timeIntervalSince1970: Double(utc) - Double(z[0] == UInt8(ascii: "+") ? offset : -offset))
    }
}
