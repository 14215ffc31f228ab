import Foundation

/// Wall-clock readings as files write them (EXIF "2023:05:14 12:34:56", ISO 8601, file names),
/// turned into instants without Calendar or DateFormatter: those depend on the process's locale
/// and time zone, and a capture time must not.
package struct WallClock: Equatable {
    package var year: Int, month: Int, day: Int
    package var hour = 0, minute = 0, second = 0
    package var millisecond = 0

    package init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0, millisecond: Int = 0) {
        self.year = year; self.month = month; self.day = day
        self.hour = hour; self.minute = minute; self.second = second; self.millisecond = millisecond
    }

    package static let years = 1825...2200

    package var isValid: Bool {
        guard Self.years.contains(year), (1...12).contains(month), (0...23).contains(hour),
              (0...59).contains(minute), (0...60).contains(second), (0...999).contains(millisecond)
        else { return false }
        return (1...WallClock.daysIn(month: month, year: year)).contains(day)
    }

    package static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Seconds since 1970 of this reading taken as UTC (Howard Hinnant's days-from-civil).
    package var secondsAsUTC: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146_097 + doe - 719_468
        return days * 86_400 + hour * 3600 + minute * 60 + second
    }

    /// The instant, reading the wall clock at `offset` seconds east of UTC (UTC when nil).
    package func captureDate(offset: Int?, source: DateSource) -> CaptureDate? {
        guard isValid else { return nil }
        let seconds = Double(secondsAsUTC - (offset ?? 0)) + Double(millisecond) / 1000
        return CaptureDate(date: Date(timeIntervalSince1970: seconds), utcOffsetSeconds: offset, source: source)
    }
}

/// Small scanner over ASCII text used by the date parsers.
package struct TextScanner {
    package let b: [UInt8]
    package var i = 0
    package init(_ s: String) { b = Array(s.utf8) }
    package init(_ bytes: [UInt8]) { b = bytes }

    package var atEnd: Bool { i >= b.count }
    package var peek: UInt8? { i < b.count ? b[i] : nil }

    /// Exactly `n` decimal digits.
    package mutating func digits(_ n: Int) -> Int? {
        guard i + n <= b.count else { return nil }
        var v = 0
        for k in 0..<n {
            let c = b[i + k]
            guard c >= 48, c <= 57 else { return nil }
            v = v * 10 + Int(c - 48)
        }
        i += n
        return v
    }

    /// One to `max` digits; the count read is returned too. The value saturates at Int.max
    /// (a run of 19 or more digits, as a file name may have, would overflow).
    package mutating func digitRun(max: Int) -> (value: Int, count: Int)? {
        var v = 0, n = 0
        while n < max, let c = peek, c >= 48, c <= 57 {
            v = v <= (Int.max - 9) / 10 ? v * 10 + Int(c - 48) : Int.max
            n += 1; i += 1
        }
        return n == 0 ? nil : (v, n)
    }

    package mutating func accept(_ c: Character) -> Bool {
        guard let p = peek, p == c.asciiValue else { return false }
        i += 1
        return true
    }

    package mutating func accept(oneOf set: String) -> UInt8? {
        guard let p = peek, set.utf8.contains(p) else { return nil }
        i += 1
        return p
    }

    package mutating func skipSpaces() { while peek == 0x20 { i += 1 } }
}

package enum DateText {
    /// EXIF "YYYY:MM:DD HH:MM:SS" (blank or zeroed fields, as cameras without a clock write, give nil).
    /// Dashes are tolerated as date separators: some writers use them.
    package static func exif(_ text: String, subSeconds: String?, offset: String?, source: DateSource = .exif) -> CaptureDate? {
        var s = TextScanner(text.trimmedWhitespace())
        guard let y = s.digits(4), s.accept(oneOf: ":-") != nil, let mo = s.digits(2), s.accept(oneOf: ":-") != nil,
              let d = s.digits(2) else { return nil }
        var w = WallClock(year: y, month: mo, day: d)
        if s.accept(oneOf: " T") != nil {
            guard let h = s.digits(2), s.accept(":"), let mi = s.digits(2) else { return nil }
            w.hour = h; w.minute = mi
            if s.accept(":"), let sec = s.digits(2) { w.second = sec }
        }
        if let subSeconds { w.millisecond = milliseconds(fraction: subSeconds) }
        return w.captureDate(offset: offset.flatMap(utcOffset), source: source)
    }

    /// EXIF SubSecTime holds the digits of a decimal fraction ("5" is half a second).
    package static func milliseconds(fraction: String) -> Int {
        let digits = fraction.trimmedWhitespace().prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty else { return 0 }
        let padded = (digits + "000").prefix(4)
        let v = Int(padded) ?? 0
        return min(999, (v + 5) / 10)
    }

    /// "+02:00", "-0530", "Z" → seconds east of UTC; nil when absent or malformed.
    package static func utcOffset(_ text: String) -> Int? {
        var s = TextScanner(text.trimmedWhitespace())
        return offset(&s)
    }

    package static func offset(_ s: inout TextScanner) -> Int? {
        if s.accept("Z") { return 0 }
        guard let sign = s.accept(oneOf: "+-"), let h = s.digits(2) else { return nil }
        _ = s.accept(":")
        let m = s.digits(2) ?? 0
        guard h <= 14, m < 60 else { return nil }
        let v = h * 3600 + m * 60
        return sign == UInt8(ascii: "-") ? -v : v
    }

    /// ISO 8601 / XMP dates: "2023-05-14", "2023-05-14T12:34", "2023-05-14T12:34:56.12+02:00",
    /// also with EXIF-style colons in the date, which some writers put in XMP.
    package static func iso8601(_ text: String, source: DateSource) -> CaptureDate? {
        var s = TextScanner(text.trimmedWhitespace())
        guard let y = s.digits(4), s.accept(oneOf: "-:") != nil, let mo = s.digits(2),
              s.accept(oneOf: "-:") != nil, let d = s.digits(2) else { return nil }
        var w = WallClock(year: y, month: mo, day: d)
        var offset: Int?
        if s.accept(oneOf: "T ") != nil {
            guard let h = s.digits(2), s.accept(":"), let mi = s.digits(2) else { return nil }
            w.hour = h; w.minute = mi
            if s.accept(":") {
                guard let sec = s.digits(2) else { return nil }
                w.second = sec
                if s.accept(oneOf: ".,") != nil {
                    var frac = ""
                    while let c = s.peek, c >= 48, c <= 57 { frac.append(Character(UnicodeScalar(c))); s.i += 1 }
                    w.millisecond = milliseconds(fraction: frac)
                }
            }
            if !s.atEnd {
                guard let o = DateText.offset(&s) else { return nil }
                offset = o
            }
        }
        guard s.atEnd else { return nil }
        return w.captureDate(offset: offset, source: source)
    }
}

/// ISO 6709 positions as QuickTime stores them: "+38.7167-009.1333+000.000/",
/// also the degree-minute(-second) forms "+3843.02-00908.00/".
package enum ISO6709 {
    package static func parse(_ text: String) -> GPSCoordinate? {
        var s = TextScanner(text.trimmedWhitespace())
        guard let lat = component(&s, degreeDigits: 2), let lon = component(&s, degreeDigits: 3) else { return nil }
        return GPSCoordinate.validated(lat: lat, lon: lon)
    }

    private static func component(_ s: inout TextScanner, degreeDigits: Int) -> Double? {
        guard let sign = s.accept(oneOf: "+-") else { return nil }
        let start = s.i
        while let c = s.peek, c >= 48, c <= 57 { s.i += 1 }
        let intDigits = s.i - start
        if s.accept(".") { while let c = s.peek, c >= 48, c <= 57 { s.i += 1 } }
        guard let number = Double(String(decoding: s.b[start..<s.i], as: UTF8.self)) else { return nil }
        var degrees: Double
        switch intDigits - degreeDigits {
        case 0: degrees = number
        case 2:  // DDMM.mmm
            let d = (number / 100).rounded(.towardZero)
            degrees = d + (number - d * 100) / 60
        case 4:  // DDMMSS.sss
            let d = (number / 10000).rounded(.towardZero)
            let m = ((number - d * 10000) / 100).rounded(.towardZero)
            degrees = d + m / 60 + (number - d * 10000 - m * 100) / 3600
        default: return nil
        }
        if sign == UInt8(ascii: "-") { degrees = -degrees }
        return degrees
    }
}

extension GPSCoordinate {
    /// A coordinate only when it is a real place: finite, in range, and not exactly 0,0
    /// (what many cameras write when they had no fix).
    package static func validated(lat: Double, lon: Double) -> GPSCoordinate? {
        guard lat.isFinite, lon.isFinite, abs(lat) <= 90, abs(lon) <= 180, !(lat == 0 && lon == 0) else { return nil }
        return GPSCoordinate(lat: lat, lon: lon)
    }
}
