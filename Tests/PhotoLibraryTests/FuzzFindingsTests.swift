import Foundation
import Testing
@testable import PhotoLibrary
import Metadata

/// Inputs that `Fuzz/run` found crashing Shoebox, as libFuzzer minimised them (Fuzz/README.md):
/// each is now a clear error or a plain result.
struct FuzzFindingsTests {
    /// Foundation's ISO8601DateFormatter dies of SIGFPE on a fraction of 35 digits or more; a user
    /// album's `created` (or any date in a sidecar) reached it through ShoeboxJSON's decoder.
    @Test func aDateWithA35DigitFractionIsRefusedNotACrash() {
        let album = #"{"created":"6-1-2T0:1:3.00555555555555555555555555555555555","folder":"","id":"","name":"","schema":1}"#
        #expect(throws: DecodingError.self) { try ShoeboxJSON.makeDecoder().decode(UserAlbum.self, from: Data(album.utf8)) }
        #expect(ShoeboxClock.parseISO8601("2026-11-22T10:15:03." + String(repeating: "5", count: 35) + "Z") == nil)
        // What real writers put there still reads.
        #expect(ShoeboxClock.parseISO8601("2026-11-22T10:15:03.123456789+01:00") != nil)
        #expect(ShoeboxClock.parseISO8601("2026-11-22T10:15:03Z") != nil)
    }

    /// A date with a signed year ("-2026-…", in a Tidy session's `startedAt`: `Fuzz/run Tidy`)
    /// went through Foundation's calendar, which is Julian before 1582, and came back from
    /// Shoebox's own (proleptic Gregorian) encoding as another day: the file did not survive its
    /// own round trip. Every date read is now the date Shoebox writes for it.
    @Test(arguments: ["-2026-11-26T12:00:00.001Z", "-001-01-01T00:00:00.000Z", "10000-01-01T00:00:00.000Z",
                      "1500-03-01T12:00:00Z", "2026-11-22T10:15:03.123456789+01:00"])
    func aDateSurvivesItsOwnRoundTrip(created: String) throws {
        let album = #"{"created":""# + created + #"","deleting":false,"folder":"Zoë","id":"868ce4e5","linked":{},"members":[],"name":"Zoë","schema":1,"syncing":false}"#
        let decoder = ShoeboxJSON.makeDecoder(), encoder = ShoeboxJSON.makeEncoder(pretty: false)
        let once = try decoder.decode(UserAlbum.self, from: Data(album.utf8))
        let twice = try decoder.decode(UserAlbum.self, from: try encoder.encode(once))
        #expect(twice.created == once.created, "\(created): \(once.created) → \(twice.created)")
        #expect(try encoder.encode(twice) == (try encoder.encode(once)))
    }

    /// Foundation's DateFormatter traps on a combining mark inside a date ("2026-11-2" + U+032B):
    /// a user album's `created` reached it through the same decoder.
    @Test func aDateWithACombiningMarkIsRefusedNotACrash() {
        let album = "{\"created\":\"2026-11-2\u{32B}10:15:03.000Z\",\"folder\":\"Zo\u{EB}\",\"id\":\"868ce4e5\",\"name\":\"Zo\u{EB}\",\"schema\":1}"
        #expect(throws: DecodingError.self) { try ShoeboxJSON.makeDecoder().decode(UserAlbum.self, from: Data(album.utf8)) }
        #expect(ShoeboxClock.parseISO8601("2026-11-2\u{32B}10:15:03.000Z") == nil)
        #expect(ShoeboxClock.parseISO8601("2026-11-2\u{32B}") == nil)
        #expect(ShoeboxClock.parseISO8601("2026-11-22") != nil)
    }

    /// A sidecar with bytes that are not UTF-8 in a string of a key it ignores: Foundation's
    /// decoder took it, and the asset's path it gave back then trapped in `Asset.folder`
    /// (`Fuzz/run Sidecar`, minimised by libFuzzer, kept whole here). Refused before parsing now.
    @Test func aSidecarThatIsNotUTF8IsRefusedInOneLine() throws {
        let base64 = """
            ewogICJhc3NldCIgOiB7CiAgICAiZmlyc3Rfc2VlbiIgOiAiMjAyNi0xMS0yMlQxMDoxNTowMy4wMDBaIiwKICAgICJpZCIg
            OiAiZGJhMzIxMzMtYTRjNi00MWU4LWE3YzEtMDBkNzNlNWY0MDcyIiwKICAgICJpbm9kZSIgOiA1NDczNTc2LAogICAgImlz
            X3V0aWxpdHkiIDogZmFsc2UsCiAgICAia2luZCIgOiAicGhvdG8iLAogICAgIm1ldGFkYXRhIiA6IHsKICAgICAgImZhY2Vz
            IiA6IFsKCiAgICAgIF0sCiAgICAgICJmb3JtYXQiIDogImpwZWciLAogICAgICAiZ3BzIiA6IHsKICAgICAgICAibGF0IiA6
            IDQ4Ljg0MjU4MDAwMDAwMDAwNSwKICAgICAgICAibG9uIiA6IDIuMzM2NzQwMDAwMDAwMDAwMwogICAgICB9LAogICAgICAi
            bWFrZSIgOiAiQXBwbGUiLAogICAgICAibW9kZWwiIDogImlQaG9uZSAxNSBQcm8iLAogICAgICAib3JpZW50YXRpb24iIDog
            MywKICAgICAgInBlcnNvbnMiIDogWwoKICAgICAgXSwKICAgICAgInBpeGVsSGVpZ2h0IiA6IDI4NSwKICAgICAgInBpeGVs
            V2lkdGgiIDogNDAzLAogICAgICAidGFvb29vb29vb29vb29vb29vb29vb29vb29vb29vb29vb29vb29vb29vb29vb29vb29v
            b29vb29vb29vb29vb29vb29vb29vb29vb29vb29va2VuQXQiIDogewogICAgICAgICJkYXRkIiA6ICIyMDIzLTDCwsLCwsLC
            wsLCwj/CwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLC
            wsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsI3LTA2VDEyOjE2OjVONmljdV83NjE1Q2hpbmVzZUNzb3VyY3hpZiIsCiAg
            ICAgICAgInV0Y09mZnNldFNlY29uZHMiIDogNzIwMAogICAgICB9CiAgICB9LAogICAgIm10aW1lX25zIiA6IDE3OTU2Mjk4
            MTQ1MDM1NDIxMTksCiAgICAicGF0aCIgOiAiUyIsCiAgICAicGxhY2UiIDogewogICAgICAiY2l0eSIgOiAiUGFyaXMiLAog
            ICAgICAiY291bnRyeSIgOiAiRnJhbmNlIgogICAgfSwKICAgICJzaGEyNTYiIDogImM1NGU5ZGFmYTg0NmZlZWI1ZmIzMTZh
            MDVjNDQwMWMyNDZmMWM1NTg3YmZmNGEyMmExOGMyZTdlNDcyNTk2ZDUiLAogICAgInNpemUiIDogMjA2NTYsCiAgICAic3Rh
            dGUiIDogInByZXNlbnQiCiAgfSwKICAic2NoZW1hIiA6IDEKfQ==
            """
        let bytes = try #require(Data(base64Encoded: base64, options: .ignoreUnknownCharacters))
        let store = SidecarStore(library: Library(root: URL(fileURLWithPath: "/nonexistent/fuzz-library")))
        let error = #expect(throws: ShoeboxError.self) { try store.decode(bytes, name: "x.json") }
        #expect(error?.message.contains("not UTF-8") == true, "\(String(describing: error))")
        // The same sidecar with those bytes made valid UTF-8 reads, and its path's parts are plain.
        let repaired = Data(String(decoding: bytes, as: UTF8.self).utf8)
        let sidecar = try store.decode(repaired, name: "x.json")
        #expect(sidecar.asset.path == "S" && sidecar.asset.folder == "" && sidecar.asset.name == "S")
    }

    /// A path with a run of 19 or more digits overflowed the file-name date scanner when `list` or
    /// `show --json` asked an asset without a capture date for its date.
    @Test func aPathWithALongRunOfDigitsListsWithItsModificationTime() throws {
        let asset = Asset(id: AssetID(), path: "2026/IMG_77777777777777777777777777777777770480.JPG", state: .present,
                          size: 1, mtimeNS: 1_795_262_400_000_000_000, inode: 1, sha256: "", kind: .photo,
                          metadata: MediaMetadata(format: .jpeg, pixelWidth: 1, pixelHeight: 1), place: nil,
                          duplicateOf: nil, livePhotoOf: nil, firstSeen: Date(timeIntervalSince1970: 0), score: nil,
                          isUtility: false, similarGroup: nil)
        #expect(asset.takenAt?.source == .mtime)
        _ = try ShoeboxJSON.makeEncoder(pretty: false).encode(AssetJSON(asset, liveVideo: nil))
    }

    /// `retention_days = 1e30` trapped converting to Int; a huge `safety_scan_minutes` made
    /// `watch` trap in NSCondition.wait(until:) (past the year 2262).
    @Test(arguments: ["[trash]\nretention_days=1e30", "[trash]\nretention_days = 36501",
                      "[watch]\nsafety_scan_minutes = 200000000", "[watch]\nsafety_scan_minutes = 1e300"])
    func settingsBeyondTheirRangeAreOneLineErrors(text: String) {
        #expect {
            try LibrarySettings.parse(text, source: "config.toml")
        } throws: { error in
            let message = String(describing: error)
            return message.contains("config.toml") && message.contains("from 1 to")
        }
    }

    /// Found with the UserAlbum target's check: "." followed by a combining mark or a joiner is
    /// one Character, so the leading dot survived and the album's folder was hidden.
    @Test(arguments: [".\u{301}hidden", "..\u{301}", ".\u{200D}", " .\u{301}x"])
    func aFolderNameNeverStartsWithADot(name: String) {
        let folder = SafeName.folder(name, fallback: "Album")
        #expect(folder.utf8.first != UInt8(ascii: ".") && folder.utf8.first != UInt8(ascii: " "))
        #expect(SafeName.folder(folder, fallback: "Album") == folder)
    }

    @Test func settingsAtTheirLimitsRead() throws {
        let s = try LibrarySettings.parse("[trash]\nretention_days = 36500\n[watch]\nsafety_scan_minutes = 525600\n")
        #expect(s.trashRetentionDays == 36500 && s.safetyScanMinutes == 525_600)
    }
}
