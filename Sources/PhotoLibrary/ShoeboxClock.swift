import Foundation
#if canImport(Glibc)
import Glibc
#endif

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
        guard text.utf8.count <= 40 else { return nil }
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
        var t = time_t(date.timeIntervalSince1970.rounded(.down))
        var tm = tm()
        localtime_r(&t, &tm)
        let offset = Int(tm.tm_gmtoff)
        // What String(format: "%04d-%02d-%02dT%02d:%02d:%02d") and "%@%02d:%02d" write, without their cost.
        var b: [UInt8] = []
        b.reserveCapacity(25)
        appendPadded(Int(tm.tm_year) + 1900, width: 4, to: &b); b.append(UInt8(ascii: "-"))
        appendPadded(Int(tm.tm_mon) + 1, width: 2, to: &b); b.append(UInt8(ascii: "-"))
        appendPadded(Int(tm.tm_mday), width: 2, to: &b); b.append(UInt8(ascii: "T"))
        appendPadded(Int(tm.tm_hour), width: 2, to: &b); b.append(UInt8(ascii: ":"))
        appendPadded(Int(tm.tm_min), width: 2, to: &b); b.append(UInt8(ascii: ":"))
        appendPadded(Int(tm.tm_sec), width: 2, to: &b)
        if offset == 0 {
            b.append(UInt8(ascii: "Z"))
        } else {
            b.append(offset < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
            appendPadded(abs(offset) / 3600, width: 2, to: &b); b.append(UInt8(ascii: ":"))
            appendPadded((abs(offset) % 3600) / 60, width: 2, to: &b)
        }
        return String(decoding: b, as: UTF8.self)
    }
}

/// `n` as printf's `%0<width>d` writes it: zero-padded to `width` characters, a minus sign included.
private func appendPadded(_ n: Int, width: Int, to b: inout [UInt8]) {
    let m = n.magnitude
    var count = 1, power: UInt = 1
    while m / power >= 10 { power *= 10; count += 1 }
    if n < 0 { b.append(UInt8(ascii: "-")) }
    for _ in 0..<max(0, width - count - (n < 0 ? 1 : 0)) { b.append(UInt8(ascii: "0")) }
    var rest = m
    while power > 0 { b.append(UInt8(ascii: "0") + UInt8(rest / power)); rest %= power; power /= 10 }
}
