import Foundation

/// Capture dates that phones, messengers and screenshot tools put in file names.
public enum FileNameDate {
    static let years = 1990...2100

    /// Dates in file names: IMG_20230514_123456, PXL_20230514_123456789, VID_..., 20230514_123456,
    /// IMG-20230514-WA0001 (date only), "Screenshot 2024-05-01 at 10.11.12", "Screenshot_20240501-101112",
    /// "Screen Shot 2019-03-02 at 9.41.07 PM", "Photo 2023-05-14 12 34 56", "2023-05-14 12.34.56".
    /// The wall-clock reading is returned as UTC with `utcOffsetSeconds` nil (a name has no zone).
    public static func parse(_ fileName: String) -> CaptureDate? {
        var stem = Array(fileName.utf8)
        if let dot = stem.lastIndex(of: UInt8(ascii: ".")), dot > 0 { stem.removeSubrange(dot...) }
        var dateOnly: WallClock?
        var i = 0
        while i < stem.count {
            // A date starts a run of digits (never inside a longer number such as a counter).
            guard isDigit(stem[i]), i == 0 || !isDigit(stem[i - 1]) else { i += 1; continue }
            var s = TextScanner(stem)
            s.i = i
            if let found = compact(&s) ?? dashed(&s) {
                if found.time { return found.clock.captureDate(offset: nil, source: .filename) }
                dateOnly = dateOnly ?? found.clock
            }
            while i < stem.count, isDigit(stem[i]) { i += 1 }
        }
        return dateOnly?.captureDate(offset: nil, source: .filename)
    }

    private static func isDigit(_ c: UInt8) -> Bool { c >= 48 && c <= 57 }

    private static func valid(_ w: WallClock) -> Bool { years.contains(w.year) && w.isValid && w.second < 60 }

    /// YYYYMMDD, then optionally [_-]HHMMSS with up to three digits of milliseconds, or YYYYMMDDHHMMSS.
    private static func compact(_ s: inout TextScanner) -> (clock: WallClock, time: Bool)? {
        let start = s.i
        guard let run = s.digitRun(max: 20) else { return nil }
        let digits = Array(s.b[start..<start + run.count]).map { Int($0 - 48) }
        func number(_ r: Range<Int>) -> Int { r.reduce(0) { $0 * 10 + digits[$1] } }
        guard run.count == 8 || run.count == 14 else { s.i = start; return nil }
        var w = WallClock(year: number(0..<4), month: number(4..<6), day: number(6..<8))
        guard valid(w) else { s.i = start; return nil }
        if run.count == 14 {
            w.hour = number(8..<10); w.minute = number(10..<12); w.second = number(12..<14)
            if valid(w) { return (w, true) }
            s.i = start
            return nil
        }
        let afterDate = s.i
        if s.accept(oneOf: "_-T ") != nil, let t = s.digitRun(max: 12), (6...9).contains(t.count) {
            let tStart = s.i - t.count
            let td = Array(s.b[tStart..<s.i]).map { Int($0 - 48) }
            var timed = w
            timed.hour = td[0] * 10 + td[1]; timed.minute = td[2] * 10 + td[3]; timed.second = td[4] * 10 + td[5]
            if t.count > 6 { timed.millisecond = DateText.milliseconds(fraction: String(decoding: s.b[(tStart + 6)..<s.i], as: UTF8.self)) }
            if valid(timed) { return (timed, true) }
            s.i = start
            return nil
        }
        s.i = afterDate
        return (w, false)
    }

    /// YYYY-MM-DD (or with underscores), then optionally a separator (" at ", " ", "_", "-", "T")
    /// and H[H].MM.SS with '.', ':', '-', '_' or ' ' between the parts, and an optional AM/PM.
    private static func dashed(_ s: inout TextScanner) -> (clock: WallClock, time: Bool)? {
        let start = s.i
        guard let y = s.digits(4), let sep = s.accept(oneOf: "-_"), let mo = s.digits(2),
              s.accept(Character(UnicodeScalar(sep))), let d = s.digits(2), s.peek.map(isDigit) != true
        else { s.i = start; return nil }
        let date = WallClock(year: y, month: mo, day: d)
        guard valid(date) else { s.i = start; return nil }
        var w = date
        let afterDate = s.i
        // Separator between date and time.
        if s.accept(" ") {
            if s.accept("a"), s.accept("t"), s.accept(" ") {} else { s.i = afterDate + 1 }
        } else if s.accept(oneOf: "_-T") == nil {
            return (date, false)
        }
        guard let h = s.digitRun(max: 2), let tsep = s.accept(oneOf: ".:-_ "), let mi = s.digits(2),
              s.accept(Character(UnicodeScalar(tsep))), let sec = s.digits(2), s.peek.map(isDigit) != true
        else { s.i = afterDate; return (date, false) }
        w.hour = h.value; w.minute = mi; w.second = sec
        // 12-hour clock ("9.41.07 PM").
        let beforeMeridiem = s.i
        s.skipSpaces()
        if let m = s.accept(oneOf: "AaPp"), s.accept(oneOf: "Mm") != nil {
            guard (1...12).contains(w.hour) else { s.i = afterDate; return (date, false) }
            let pm = m == UInt8(ascii: "P") || m == UInt8(ascii: "p")
            w.hour = w.hour % 12 + (pm ? 12 : 0)
        } else {
            s.i = beforeMeridiem
        }
        guard valid(w) else { s.i = afterDate; return (date, false) }
        return (w, true)
    }
}
