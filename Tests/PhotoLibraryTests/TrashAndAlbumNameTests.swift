import Foundation
import Testing
@testable import PhotoLibrary
import TestSupport

/// `Recently Deleted/info/*.trashinfo` as the freedesktop.org Trash specification writes it, and
/// read back from files other tools (or people) wrote: strict, bounded, and never a path outside
/// the library.
struct TrashInfoTests {
    /// A moment at noon in mid-November: no zone has a daylight-saving change near it, so local
    /// time maps back to exactly one instant wherever the tests run.
    static let deleted = Date(timeIntervalSince1970: 1_795_262_400)  // 2026-11-21T12:00:00Z

    /// The local wall-clock text the specification wants, computed independently with Foundation.
    static func localText(_ date: Date) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.calendar = Calendar(identifier: .gregorian)
        f.timeZone = TimeZone.current
        f.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        return f.string(from: date)
    }

    static func info(path: String = "a.jpg", date: String = "2026-11-22T10:15:03", extra: String = "") -> Data {
        Data("[Trash Info]\nPath=\(path)\nDeletionDate=\(date)\n\(extra)".utf8)
    }

    static func rejects(_ data: Data, root: String? = "/home/ana/Photos", _ words: String,
                        sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(sourceLocation: sourceLocation) {
            try TrashInfo.parse(data, root: root)
        } throws: { error in
            let message = String(describing: error)
            return message.contains(words) && !message.contains("\n")
        }
    }

    @Test func theExactTextForAKnownPathAndDate() {
        let text = TrashInfo(path: "2024/Lisbon/IMG 0412.HEIC", deletionDate: Self.deleted).render()
        #expect(text == "[Trash Info]\nPath=2024/Lisbon/IMG%200412.HEIC\nDeletionDate=\(Self.localText(Self.deleted))\n")
        // Local time, no zone, whole seconds (a fraction is dropped, not rounded up).
        let later = TrashInfo(path: "a.jpg", deletionDate: Self.deleted.addingTimeInterval(0.9)).render()
        #expect(later.hasSuffix("DeletionDate=\(Self.localText(Self.deleted))\n"))
    }

    @Test(arguments: [
        "IMG_0412.HEIC",
        "2024/2024-09 Vancouver/IMG 0752.JPG",
        "100% real/50%.jpg",
        "#1/take #2.jpg",
        "Zo\u{EB}/Zo\u{EB} at 5.jpg",
        "Zoe\u{308}/decomposed.jpg",
        "写真/東京タワー 2024.HEIC",
        "line\nbreak/and\r\nreturn.jpg",
        "emoji 👩‍👩‍👧/🇵🇹.jpg",
        "?&=+;,[]@!$'()*:\\\"<>{}|^`/x.jpg",
        " leading and trailing /x.jpg ",
    ])
    func renderThenParseGivesTheSameInfo(path: String) throws {
        let info = TrashInfo(path: path, deletionDate: Self.deleted)
        let text = info.render()
        // Three lines, all printable ASCII: the name cannot break the format.
        #expect(text.split(separator: "\n").count == 3)
        #expect(text.utf8.allSatisfy { $0 == 0x0A || (0x20..<0x7F).contains($0) })
        let back = try TrashInfo.parse(Data(text.utf8), root: "/home/ana/Photos")
        #expect(Array(back.path.utf8) == Array(path.utf8), "byte for byte, not merely canonically equal")
        #expect(back.deletionDate == Self.deleted)
    }

    /// Python's `urllib.parse.quote(path, safe='/')` is what trash-cli writes: the same bytes.
    @Test func percentEncodingIsPythonsQuoteWithSlashSafe() throws {
        let samples = ["plain/IMG_0412.HEIC", "a b/c%d#e?f", "Zo\u{EB} & Zoe\u{308}", "写真/東京.jpg", "new\nline\ttab",
                       "~tilde-dash_under.dot", "!$&'()*+,;=:@[]", "\u{7F}\u{1}\u{FEFF}\u{2028}", "😀/👩‍👩‍👧"]
        // Only unreserved characters and "/" stay as they are; everything else is %XX (upper case).
        let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.~/")
        for s in samples {
            let rest = TrashInfo.percentEncode(s).replacingOccurrences(of: "%[0-9A-F]{2}", with: "", options: .regularExpression)
            #expect(rest.unicodeScalars.allSatisfy { unreserved.contains($0) }, "\(s.debugDescription) → \(rest)")
        }
        #expect(TrashInfo.percentEncode("a b/~x-y_z.JPG") == "a%20b/~x-y_z.JPG")
        #expect(TrashInfo.percentEncode("Zo\u{EB}") == "Zo%C3%AB")
        #expect(TrashInfo.percentEncode("Zoe\u{308}") == "Zoe%CC%88")
        // The reference: python3 itself (names travel as hex so that no locale gets in the way).
        let script = "import sys, json, urllib.parse\n"
            + "print(json.dumps([urllib.parse.quote(bytes.fromhex(a).decode('utf-8'), safe='/') for a in sys.argv[1:]]))"
        let hex = samples.map { $0.utf8.map { String(format: "%02x", $0) }.joined() }
        let r = try TestRoll.run("/usr/bin/env", ["python3", "-c", script] + hex)
        let python = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String])
        #expect(python.count == samples.count)
        for (s, expected) in zip(samples, python) {
            #expect(TrashInfo.percentEncode(s) == expected, "\(s.debugDescription)")
        }
    }

    @Test func percentDecodingIsCaseInsensitiveAndBytewise() {
        #expect(TrashInfo.percentDecode("a%20b%2fc%2Fd") == "a b/c/d")
        #expect(TrashInfo.percentDecode("Zo%C3%AB").map { Array($0.utf8) } == Array("Zo\u{EB}".utf8))
        #expect(TrashInfo.percentDecode("Zoe%CC%88").map { Array($0.utf8) } == Array("Zoe\u{308}".utf8))
        // Raw UTF-8 (some tools do not encode) is taken as it is.
        #expect(TrashInfo.percentDecode("写真.jpg") == "写真.jpg")
    }

    // MARK: Rejected

    @Test func noTrashInfoGroup() {
        Self.rejects(Data("Path=a.jpg\nDeletionDate=2026-11-22T10:15:03\n".utf8), "no [Trash Info] group")
        Self.rejects(Data("[Desktop Entry]\nPath=a.jpg\nDeletionDate=2026-11-22T10:15:03\n".utf8), "no [Trash Info] group")
        Self.rejects(Data("[trash info]\nPath=a.jpg\nDeletionDate=2026-11-22T10:15:03\n".utf8), "no [Trash Info] group")
        Self.rejects(Data(), "no [Trash Info] group")
    }

    @Test func missingKeys() {
        Self.rejects(Data("[Trash Info]\nDeletionDate=2026-11-22T10:15:03\n".utf8), "no Path=")
        Self.rejects(Self.info(path: ""), "no Path=")
        Self.rejects(Data("[Trash Info]\nPath=a.jpg\n".utf8), "no DeletionDate=")
        // Keys of another group do not count.
        Self.rejects(Data("[Trash Info]\nDeletionDate=2026-11-22T10:15:03\n[Other]\nPath=a.jpg\n".utf8), "no Path=")
    }

    @Test(arguments: ["%zz.jpg", "a%4", "a%4.jpg", "a%", "%G0.jpg", "a%%20.jpg"])
    func badPercentEscapes(path: String) {
        Self.rejects(Self.info(path: path), "percent-encoded")
    }

    @Test(arguments: ["a%00.jpg", "%00", "a/%00/b.jpg"])
    func aNULIsNeverAccepted(path: String) {
        Self.rejects(Self.info(path: path), "percent-encoded")
    }

    @Test(arguments: ["caf%E9.jpg", "%FF%FE.jpg", "%C3.jpg", "%C3%28.jpg", "%ED%A0%80.jpg", "%C0%AF.jpg"])
    func invalidUTF8AfterDecoding(path: String) {
        Self.rejects(Self.info(path: path), "UTF-8")
    }

    @Test func invalidUTF8InTheFileItself() {
        var data = Self.info()
        data.append(contentsOf: [0x23, 0xFF, 0xFE, 0x0A])  // "#\xFF\xFE\n": even in a comment
        Self.rejects(data, "UTF-8")
    }

    @Test(arguments: ["../a.jpg", "a/../../b.jpg", "a/..", "..", "%2E%2E/a.jpg", "a/%2e%2e/b.jpg", "./a.jpg", "a/./b.jpg",
                      "a//b.jpg", "a/", "/home/ana/Photos/../secret.jpg", "/home/ana/Photos/a/../../x.jpg"])
    func dotDotAndOtherNonPlainPaths(path: String) {
        Self.rejects(Self.info(path: path), "plain relative path")
    }

    @Test(arguments: ["/etc/passwd", "/home/ana/Photos", "/home/ana/Photos/", "/home/ana/PhotosOld/a.jpg", "/home/ana/a.jpg",
                      "%2Fetc%2Fpasswd"])
    func absolutePathsOutsideTheRoot(path: String) {
        #expect(throws: (any Error).self) { try TrashInfo.parse(Self.info(path: path), root: "/home/ana/Photos") }
        if path != "/home/ana/Photos/" {
            Self.rejects(Self.info(path: path), "outside the library")
        }
    }

    @Test func anAbsolutePathWithoutARootIsRejected() {
        Self.rejects(Self.info(path: "/home/ana/Photos/a.jpg"), root: nil, "outside the library")
    }

    @Test func filesLargerThan64KiB() throws {
        let base = Self.info()
        let padding = "# " + String(repeating: "x", count: TrashInfo.maximumSize) + "\n"
        Self.rejects(base + Data(padding.utf8), "larger than 64 KiB")
        // Exactly 64 KiB is still read.
        let exact = base + Data(("#" + String(repeating: "x", count: TrashInfo.maximumSize - base.count - 2) + "\n").utf8)
        #expect(exact.count == TrashInfo.maximumSize)
        #expect(try TrashInfo.parse(exact).path == "a.jpg")
    }

    @Test(arguments: ["2026-13-01T10:15:03", "2026-00-01T10:15:03", "2026-11-32T10:15:03", "2026-11-22T24:00:00",
                      "2026-11-22T10:60:00", "2026-02-30T10:15:03", "2026-04-31T10:15:03", "2026-02-29T10:15:03Z", "yesterday", "", "2026-11-22", "2026-11-22T10:15", "26-11-22T10:15:03",
                      "2026/11/22T10:15:03", "2026-11-22T10:15:03+2", "2026-11-22T10:15:03 CET", "2026-11-22T1a:15:03",
                      "-026-11-22T10:15:03"])
    func badDates(date: String) {
        Self.rejects(Self.info(date: date), "DeletionDate")
    }

    // MARK: Accepted

    @Test func anAbsolutePathInsideTheRootBecomesRelative() throws {
        let data = Self.info(path: "/home/ana/Photos/2024/Lisbon%20trip/IMG_0412.HEIC")
        #expect(try TrashInfo.parse(data, root: "/home/ana/Photos").path == "2024/Lisbon trip/IMG_0412.HEIC")
        #expect(try TrashInfo.parse(data, root: "/home/ana/Photos/").path == "2024/Lisbon trip/IMG_0412.HEIC")
    }

    @Test func keysInOtherGroupsAreIgnored() throws {
        let text = "[Desktop Entry]\nPath=../../evil.jpg\nDeletionDate=yesterday\n\n"
            + "[Trash Info]\nPath=good.jpg\nX-Extension=1\nDeletionDate=2026-11-22T10:15:03\n"
            + "[X-Other]\nPath=/etc/passwd\nDeletionDate=1999-01-01T00:00:00\n"
        let info = try TrashInfo.parse(Data(text.utf8), root: "/home/ana/Photos")
        #expect(info.path == "good.jpg")
        #expect(Self.localText(info.deletionDate) == "2026-11-22T10:15:03")
    }

    @Test func commentsBlankLinesAndCRLF() throws {
        let text = "# written by hand\r\n\r\n[Trash Info]\r\n# the original\r\nPath=2024/IMG%200412.HEIC\r\n  \r\nDeletionDate=2026-11-22T10:15:03\r\n"
        let info = try TrashInfo.parse(Data(text.utf8))
        #expect(info.path == "2024/IMG 0412.HEIC")
        #expect(Self.localText(info.deletionDate) == "2026-11-22T10:15:03")
    }

    @Test func aDateWithoutAZoneIsLocalTime() throws {
        let info = try TrashInfo.parse(Self.info(date: Self.localText(Self.deleted)))
        #expect(info.deletionDate == Self.deleted)
    }

    @Test func aDateWithAZoneIsHonoured() throws {
        let utc = Date(timeIntervalSince1970: 1_795_169_703)  // 2026-11-20T10:15:03Z
        #expect(try TrashInfo.parse(Self.info(date: "2026-11-20T10:15:03Z")).deletionDate == utc)
        #expect(try TrashInfo.parse(Self.info(date: "2026-11-20T12:15:03+02:00")).deletionDate == utc)
        #expect(try TrashInfo.parse(Self.info(date: "2026-11-20T05:45:03-04:30")).deletionDate == utc)
        // February 29 exists in leap years only.
        #expect(try TrashInfo.parse(Self.info(date: "2028-02-29T10:15:03Z")).deletionDate == Date(timeIntervalSince1970: 1_835_432_103))
        #expect(try TrashInfo.parse(Self.info(date: "2000-02-29T00:00:00Z")).deletionDate == Date(timeIntervalSince1970: 951_782_400))
        // Fractions of a second (some tools write them) are tolerated.
        #expect(try TrashInfo.parse(Self.info(date: "2026-11-20T10:15:03.250Z")).deletionDate == utc)
    }
}

/// Names of folders and links under `Albums/`: usable everywhere, whatever a person or album is called.
struct SafeNameTests {
    static let fallback = "Untitled"

    static func folder(_ s: String) -> String { SafeName.folder(s, fallback: fallback) }

    /// Everything a safe name must be, whatever went in.
    static func expectSafe(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!name.isEmpty && name != "." && name != "..", sourceLocation: sourceLocation)
        #expect(name.utf8.count <= SafeName.maximumBytes, "\(name.utf8.count) bytes", sourceLocation: sourceLocation)
        #expect(!name.contains("/") && !name.hasPrefix(".") && !name.hasPrefix(" ") && !name.hasSuffix(" ")
                && !name.contains("  "), "\(name.debugDescription)", sourceLocation: sourceLocation)
        #expect(!name.unicodeScalars.contains { s in
            [.control, .lineSeparator, .paragraphSeparator].contains(s.properties.generalCategory) || s.properties.isWhitespace && s != " "
        }, "\(name.debugDescription)", sourceLocation: sourceLocation)
        #expect(Array(name.unicodeScalars) == Array(name.precomposedStringWithCanonicalMapping.unicodeScalars),
                "not NFC: \(name.debugDescription)", sourceLocation: sourceLocation)
    }

    @Test func slashIsReplaced() {
        #expect(Self.folder("Trip / Best of") == "Trip - Best of")
        #expect(Self.folder("AC/DC") == "AC-DC")
        #expect(Self.folder("/") == "-")
        #expect(SafeName.link(position: 1, width: 3, fileName: "a/b.jpg") == "001 a-b.jpg")
    }

    @Test(arguments: ["Ana\nMaria", "Ana\tMaria", "Ana\r\nMaria", "Ana\u{1B}[31mMaria", "Ana\u{0}Maria", "Ana\u{7F}Maria",
                      "Ana\u{85}Maria", "Ana\u{2028}Maria", "Ana\u{2029}Maria", "Ana\u{FEFF}Maria", "\nAna\u{7}\u{8}Maria\n"])
    func controlCharactersAndNewlinesAreGone(raw: String) {
        let name = Self.folder(raw)
        Self.expectSafe(name)
        #expect(name.hasPrefix("Ana") && name.hasSuffix("Maria"), "\(name.debugDescription)")
        #expect(name.count <= "Ana Maria".count + 4)
    }

    @Test func newlinesAndTabsBecomeOneSpace() {
        #expect(Self.folder("Ana\nMaria") == "Ana Maria")
        #expect(Self.folder("Ana\t \r\n Maria") == "Ana Maria")
        #expect(Self.folder("Ana\u{2028}Maria") == "Ana Maria")
    }

    @Test func whiteSpaceRunsCollapsedAndTrimmed() {
        #expect(Self.folder("  Lisbon \t\t  Portugal  ") == "Lisbon Portugal")
        #expect(Self.folder("Lisbon\u{A0}\u{A0}Portugal") == "Lisbon Portugal")
        #expect(Self.folder("\u{3000}東京\u{3000}\u{3000}タワー\u{3000}") == "東京 タワー")
        #expect(Self.folder("Lisbon  Portugal") == "Lisbon Portugal")
        #expect(Self.folder(" Lisbon") == "Lisbon")
        #expect(Self.folder("Lisbon ") == "Lisbon")
        #expect(SafeName.link(position: 2, width: 3, fileName: "  IMG   0412 .HEIC ") == "002 IMG 0412 .HEIC")
    }

    @Test func leadingDotsAreRemoved() {
        #expect(Self.folder(".hidden") == "hidden")
        #expect(Self.folder("...Trip") == "Trip")
        #expect(Self.folder(". . .Trip") == "Trip")
        #expect(Self.folder(" .Trip") == "Trip")
        #expect(Self.folder("Trip.") == "Trip.")
        #expect(SafeName.link(position: 3, width: 3, fileName: ".IMG_0412.HEIC") == "003 IMG_0412.HEIC")
    }

    @Test(arguments: [".", "..", "", "   ", "...", ". .", "\n\t", "\u{1B}", "\u{FEFF}", " . "])
    func nothingLeftGivesTheFallback(raw: String) {
        #expect(Self.folder(raw) == Self.fallback)
        #expect(SafeName.link(position: 1, width: 3, fileName: raw) == "001 file")
    }

    @Test func nfdComesOutNFC() {
        let nfd = "Zoe\u{308} and Jose\u{301}"
        let name = Self.folder(nfd)
        #expect(Array(name.unicodeScalars) == Array("Zo\u{EB} and Jos\u{E9}".unicodeScalars))
        Self.expectSafe(name)
        // Hangul in conjoining jamo, and a Japanese dakuten.
        #expect(Array(Self.folder("\u{1100}\u{1161}\u{11A8}").unicodeScalars) == ["\u{AC01}"])
        #expect(Array(Self.folder("\u{30AB}\u{3099}").unicodeScalars) == ["\u{30AC}"])
        let link = SafeName.link(position: 1, width: 3, fileName: "Zoe\u{308}.jpg")
        #expect(Array(link.utf8) == Array("001 Zo\u{EB}.jpg".utf8))
    }

    @Test(arguments: [
        ("😀", ".HEIC"),                 // 4-byte characters
        ("写真", ".JPG"),                 // 3-byte characters
        ("👩‍👩‍👧", ".png"),                 // a grapheme of several scalars (ZWJ sequence)
        ("Zo\u{EB}", ".jpg"),            // mixed one- and two-byte
        ("🇵🇹", ".mov"),                  // a flag: two regional indicators
    ])
    func aLongNameIsCutOnACharacterKeepingItsExtension(unit: String, ext: String) {
        var stem = ""
        while stem.utf8.count < 600 { stem += unit }
        // A link: position, shortened stem, the extension.
        let link = SafeName.link(position: 12, width: 3, fileName: stem + ext)
        Self.expectSafe(link)
        #expect(link.utf8.count <= 255 && link.utf8.count > 255 - 16, "\(link.utf8.count)")
        #expect(String(validating: Array(link.utf8), as: UTF8.self) == link)
        #expect(link.hasPrefix("012 ") && link.hasSuffix(ext))
        let kept = String(link.dropFirst(4).dropLast(ext.count))
        #expect(!kept.isEmpty && stem.hasPrefix(kept))
        #expect(Set(kept).isSubset(of: Set(unit)), "a character was split: \(kept.suffix(4).unicodeScalars.map(\.value))")
        // A folder: no extension to keep, cut the same way.
        let folder = Self.folder(stem + ext)
        Self.expectSafe(folder)
        #expect(folder.utf8.count <= 255 && folder.utf8.count > 255 - 16)
        #expect((stem + ext).hasPrefix(folder))
        #expect(Set(folder).isSubset(of: Set(unit)), "a character was split: \(folder.suffix(4).unicodeScalars.map(\.value))")
    }

    @Test func aLongNFDNameIsCutAfterComposing() {
        let raw = String(repeating: "e\u{301}", count: 300) + ".jpg"  // 900 bytes NFD, 600 NFC
        let link = SafeName.link(position: 1, width: 3, fileName: raw)
        Self.expectSafe(link)
        #expect(link.hasSuffix(".jpg") && link.dropFirst(4).dropLast(4).unicodeScalars.allSatisfy { $0 == "\u{E9}" })
    }

    @Test func linkNames() {
        #expect(SafeName.link(position: 7, width: 3, fileName: "IMG_0412.HEIC") == "007 IMG_0412.HEIC")
        #expect(SafeName.link(position: 1000, width: 4, fileName: "IMG_0412.HEIC") == "1000 IMG_0412.HEIC")
        #expect(SafeName.link(position: 1234, width: 3, fileName: "a.jpg") == "1234 a.jpg")
        // The usual camera name is returned as it is.
        #expect(SafeName.link(position: 42, width: 3, fileName: "copy of IMG_0750.JPG") == "042 copy of IMG_0750.JPG")
    }

    @Test func positionWidths() {
        #expect(SafeName.positionWidth(for: 999) == 3)
        #expect(SafeName.positionWidth(for: 1000) == 4)
        #expect(SafeName.positionWidth(for: 0) == 3)
        #expect(SafeName.positionWidth(for: 1) == 3)
        #expect(SafeName.positionWidth(for: 99_999) == 5)
        #expect(SafeName.positionWidth(for: 100_000) == 6)
    }

    @Test func namesOrderAsTheirPositions() {
        let width = SafeName.positionWidth(for: 1000)
        let names = (1...1000).map { SafeName.link(position: $0, width: width, fileName: "IMG.JPG") }
        #expect(names == names.sorted())
    }
}
