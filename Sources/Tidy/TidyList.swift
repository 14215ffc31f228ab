import Foundation
import PhotoLibrary

/// A session's items as they were when it started, frozen: `.shoebox/tidy-<session>.list`, one
/// item a line, so files arriving or vanishing later neither shift nor break the session.
///
///     shoebox-tidy-list 1 <session>
///     a <id>                              an asset on its own
///     d|n|s <group id> <id> <id>…         a group (duplicate, near-identical, similar), best first
///
/// Lines, not JSON: a session over 100,000 assets is ~4 MB, and `next` must reach line N without
/// decoding the other 99,999 (`item(at:)` parses one line; only the line offsets are found up
/// front). The file is untrusted input: every line is checked when read, and a damaged one is an
/// error naming the file, never a trap.
public struct TidyList: Sendable {
    static let magic = "shoebox-tidy-list"
    static let version = 1
    /// Far more lines than a library of a million assets needs.
    public static let maximumBytes = 64 << 20

    public let session: String
    private let data: [UInt8]
    /// Start of each item line, plus one past the end of the last.
    private let starts: [Int]

    public var count: Int { starts.count - 1 }

    /// The file's bytes for `items`. (Public, as `init?`, for the fuzz targets: Fuzz/ is another package.)
    public static func encode(_ items: [TidyItem], session: String) -> Data {
        var text = "\(magic) \(version) \(session)\n"
        text.reserveCapacity(items.count * 40 + 64)
        for item in items {
            switch item {
            case .asset(let id): text += "a \(id.rawValue)\n"
            case .group(let g):
                let letter = switch g.kind { case .duplicate: "d"; case .nearIdentical: "n"; case .similar: "s" }
                text += "\(letter) \(g.id) " + g.members.map(\.rawValue).joined(separator: " ") + "\n"
            }
        }
        return Data(text.utf8)
    }

    /// Reads a list; `nil` when its header is not a list's (the caller names the file).
    public init?(_ bytes: Data) {
        data = [UInt8](bytes)
        guard let headerEnd = data.firstIndex(of: 0x0A),
              let header = String(bytes: data[..<headerEnd], encoding: .utf8) else { return nil }
        let words = header.split(separator: " ")
        guard words.count == 3, words[0] == Self.magic, words[1] == "\(Self.version)",
              TidyState.isValidSession(String(words[2])) else { return nil }
        session = String(words[2])
        var starts = [headerEnd + 1]
        var i = headerEnd + 1
        data.withUnsafeBufferPointer { buffer in
            while i < buffer.count {
                let rest = buffer.count - i
                guard let p = memchr(buffer.baseAddress! + i, 0x0A, rest) else { i = buffer.count; break }
                i = buffer.baseAddress!.distance(to: p.assumingMemoryBound(to: UInt8.self)) + 1
                starts.append(i)
            }
        }
        // A last line without its newline is a torn write, not an item.
        if starts.last != data.count { return nil }
        self.starts = starts
    }

    /// The item on line `n` (from 0), or nil when that line is damaged. Its words are cut from
    /// the bytes at each space (an empty word, say of two spaces, is damage): a `tidy list` reads
    /// every line of the session.
    public func item(at n: Int) -> TidyItem? {
        guard n >= 0, n < count else { return nil }
        var start = starts[n]
        let end = starts[n + 1] - 1
        // A good line is ASCII; one that is not UTF-8 is damaged as it stands.
        if data[start..<end].contains(where: { $0 >= 0x80 }), String(bytes: data[start..<end], encoding: .utf8) == nil { return nil }
        var words: [String] = []
        for i in start...end where i == end || data[i] == 0x20 {
            words.append(String(decoding: data[start..<i], as: UTF8.self))
            start = i + 1
        }
        guard let letter = words.first else { return nil }
        if letter == "a" {
            guard words.count == 2, let id = AssetID(words[1]) else { return nil }
            return .asset(id)
        }
        let kind: SimilarKind
        switch letter {
        case "d": kind = .duplicate
        case "n": kind = .nearIdentical
        case "s": kind = .similar
        default: return nil
        }
        guard words.count >= 4, Self.isGroupID(words[1]) else { return nil }
        let ids = words[2...].compactMap(AssetID.init)
        guard ids.count == words.count - 2, Set(ids).count == ids.count else { return nil }
        return .group(SimilarGroup(id: words[1], kind: kind, members: ids))
    }

    /// How many assets line `n` holds (without parsing its ids).
    public func memberCount(at n: Int) -> Int {
        guard n >= 0, n < count else { return 0 }
        let words = data[starts[n]..<(starts[n + 1] - 1)].reduce(1) { $0 + ($1 == 0x20 ? 1 : 0) }
        return data[starts[n]] == UInt8(ascii: "a") ? 1 : max(0, words - 2)
    }

    static func isGroupID(_ s: String) -> Bool {
        s.utf8.count == 17 && s.hasPrefix("g") && s.dropFirst().allSatisfy(\.isHexDigit)
    }
}
