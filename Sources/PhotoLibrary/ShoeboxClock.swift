import Foundation

/// The one clock of Shoebox. `$SHOEBOX_NOW` (ISO 8601) replaces it everywhere time matters,
/// so tests can say "today is 2026-11-22" and get the same 30-day windows, purges and names.
public enum ShoeboxClock {
    public static func now(environment: [String: String] = ProcessInfo.processInfo.environment) -> Date {
        if let text = environment["SHOEBOX_NOW"], let date = parseISO8601(text) { return date }
        return Date()
    }

    /// Accepts `2026-11-22T10:15:03Z`, with an offset, with fractional seconds, or a bare date.
    public static func parseISO8601(_ text: String) -> Date? {
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

    /// ISO 8601 in the machine's local zone, with its offset (`DeletionDate=`-style stamps, logs).
    public static func localISO8601(_ date: Date) -> String {
        let f = ISO8601DateFormatter()
        f.timeZone = TimeZone.current
        f.formatOptions = [.withInternetDateTime]
        return f.string(from: date)
    }
}
