import Foundation
#if canImport(Glibc)
import Glibc
#endif
import MetadataCore

/// The one clock of Shoebox. `$SHOEBOX_NOW` (ISO 8601) replaces it everywhere time matters,
/// so tests can say "today is 2026-11-22" and get the same 30-day windows, purges and names.
public enum ShoeboxClock {
    public static func now(environment: [String: String] = ProcessInfo.processInfo.environment) -> Date {
        if let text = environment["SHOEBOX_NOW"], let date = parseISO8601(text) { return date }
        return Date()
    }

    /// Accepts `2026-11-22T10:15:03Z`, with an offset, with fractional seconds, or a bare date.
    public static func parseISO8601(_ text: String) -> Date? {
        // Foundation's ISO8601DateFormatter dies of SIGFPE on a fraction of 35 digits or more
        // (found by Fuzz/run); a real date, nanoseconds and offset included, has 35 characters.
        // Its DateFormatter traps ("Incorrect range") on a combining mark inside the date, where
        // grapheme and UTF-16 ranges differ (found by Fuzz/run too). A date is ASCII.
        guard text.utf8.count <= 40, text.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
        let full = ISO8601DateFormatter()
        full.formatOptions = [.withInternetDateTime]
        if let d = full.date(from: text) { return d }
        full.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let d = full.date(from: text) { return d }
        let local = DateFormatter()
        local.locale = Locale(identifier: "en_US_POSIX")
        local.timeZone = TimeZone.current
        for format in ["yyyy-MM-dd'T'HH:mm:ss", "yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd"] {
            local.dateFormat = format
            if let d = local.date(from: text) { return d }
        }
        return nil
    }

    /// ISO 8601 in the machine's local zone, with its offset (`2026-11-22T10:15:03+01:00`, or `Z`
    /// in UTC). By hand with localtime_r: listings print two per asset, and a Foundation
    /// formatter per call costs more than the rest of the row.
    public static func localISO8601(_ date: Date) -> String {
        let t = time_t(date.timeIntervalSince1970.rounded(.down))
        // The last second written, again: a listing's `first_seen` are the seconds of a scan,
        // thousands of assets each (localtime_r and the string were 3 % of `tidy list --json`).
        if let hit = lastLocal.withLock({ $0.t == t ? $0.text : nil }) { return hit }
        let text = localISO8601(seconds: t)
        lastLocal.withLock { $0 = (t, text) }
        return text
    }

    private static let lastLocal = LockedValue<(t: time_t, text: String)>((time_t.min, ""))

    private static func localISO8601(seconds: time_t) -> String {
        var t = seconds
        var tm = tm()
        localtime_r(&t, &tm)
        let offset = Int(tm.tm_gmtoff)
        var b: [UInt8] = []
        b.reserveCapacity(25)
        ISOText.appendDateTime(tm, to: &b)
        if offset == 0 { b.append(UInt8(ascii: "Z")) } else { ISOText.appendOffset(offset, to: &b) }
        return String(decoding: b, as: UTF8.self)
    }
}

/// A value behind a lock, for the few caches shared by every thread.
final class LockedValue<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
