import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An album a person made (`album create`, curation's "TO NAME …" albums): its members in
/// order. The truth is `.shoebox/albums/<id>.json`; the folder `Albums/<name>/` shows it.
public struct UserAlbum: Codable, Equatable, Sendable {
    public static let currentSchema = 1
    public var schema = UserAlbum.currentSchema
    public var id: String
    /// As the user wrote it.
    public var name: String
    /// Its folder under `Albums/` (`name` made safe).
    public var folder: String
    public var created: Date
    /// In album order. Missing and trashed members keep their place and get no link until they return.
    public var members: [AssetID]
    /// The links as last written (name → asset): a link listed here that is gone from the folder
    /// was deleted by hand, which takes its asset out of the album.
    var linked: [String: AssetID] = [:]
    /// Set while its folder is being rewritten: the folder may disagree with `linked` then, and
    /// nothing is read into that.
    var syncing = false
    /// Set by `album delete` before its links go; the next sync finishes the deletion.
    var deleting = false
}

/// The store of user albums.
public struct UserAlbums: Sendable {
    let library: Library
    public init(library: Library) { self.library = library }

    /// Where each album's truth is kept (`<id>.json`), relative to the library.
    public static let stateFolder = LibraryLayout.statePath("albums")

    /// Names a user album cannot have: the generated albums' folders, and where files Shoebox
    /// did not make are moved out of them.
    public static func isReserved(_ folderName: String) -> Bool {
        (AlbumLinker.generatedRoots + [AlbumLinker.foreignFolder]).contains { $0.caseInsensitiveCompare(folderName) == .orderedSame }
            || folderName.hasPrefix(AlbumLinker.buildPrefix)
    }

    /// Every album, tombstones included; unreadable files are reported, not fatal.
    func allIncludingDeleted(problem: (String) -> Void = { _ in }) -> [UserAlbum] {
        var out: [UserAlbum] = []
        var names: [String] = []
        do {
            try library.files.forEachEntry(in: Self.stateFolder) { entry, _ in
                if let name = entry.name, name.hasSuffix(".json"), !name.hasPrefix(".") { names.append(name) }
            }
        } catch {
            problem("\(error)")
        }
        for name in names.sorted() {
            do {
                guard let data = try library.files.contents(of: Self.stateFolder + "/" + name) else { continue }
                // As for sidecars: bytes that are not UTF-8 never reach Foundation's decoder.
                guard String(validating: data, as: UTF8.self) != nil else {
                    problem(".shoebox/albums/\(name) is not UTF-8 text; ignored")
                    continue
                }
                let album = try ShoeboxJSON.makeDecoder().decode(UserAlbum.self, from: data)
                guard album.schema <= UserAlbum.currentSchema else {
                    problem(".shoebox/albums/\(name) has schema \(album.schema), newer than this Shoebox; upgrade Shoebox")
                    continue
                }
                guard album.id + ".json" == name, !album.folder.isEmpty, !album.folder.contains("/"),
                      album.folder == SafeName.folder(album.folder, fallback: "Album") else {
                    problem(".shoebox/albums/\(name) does not match its name or has an unsafe folder; ignored")
                    continue
                }
                out.append(album)
            } catch {
                problem(".shoebox/albums/\(name) is not valid: \(SidecarStore.describe(error))")
            }
        }
        return out.sorted { ($0.created, $0.name) < ($1.created, $1.name) }
    }

    public func all(problem: (String) -> Void = { _ in }) -> [UserAlbum] {
        allIncludingDeleted(problem: problem).filter { !$0.deleting }
    }

    /// The album called `name` (its name, else its folder; exact case first).
    public func find(_ name: String) -> UserAlbum? {
        let albums = all()
        return albums.first { $0.name == name } ?? albums.first { $0.folder == name }
            ?? albums.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }
    }

    func save(_ album: UserAlbum) throws {
        let data = try ShoeboxJSON.makeEncoder(pretty: true).encode(album)
        try library.files.writeAtomically(data, to: Self.stateFolder + "/" + album.id + ".json")
    }

    func erase(_ album: UserAlbum) {
        try? library.files.removeFiles([album.id + ".json"], inFolder: Self.stateFolder)
    }

    /// A new album; fails if its name or folder is taken or reserved.
    func create(name: String, members: [AssetID], now: Date) throws -> UserAlbum {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw ShoeboxError(.invalidArgument, "an album needs a name") }
        // Bidirectional controls make a name display as another ("gpj.exe" read backwards).
        if let bidi = trimmed.unicodeScalars.first(where: UserAlbums.isBidiControl) {
            throw ShoeboxError(.invalidArgument, "an album name cannot hold the invisible direction control U+\(String(bidi.value, radix: 16, uppercase: true))")
        }
        let folderName = SafeName.folder(trimmed, fallback: "Album")
        if UserAlbums.isReserved(folderName) {
            throw ShoeboxError(.invalidArgument, "\"\(folderName)\" is the folder of Shoebox's generated albums; choose another name")
        }
        // `café` and `CAFÉ` (or a decomposed `café`) are one folder on a case-insensitive file
        // system (a Samba share, an exFAT disk): the same album there.
        let key = UserAlbums.clashKey(folderName)
        if let other = allIncludingDeleted().first(where: { UserAlbums.clashKey($0.folder) == key || $0.name == trimmed }) {
            throw ShoeboxError(.invalidArgument, "an album \"\(other.name)\" already exists (Albums/\(other.folder)); use `album add`")
        }
        if try library.files.lstat(AlbumLinker.folderName + "/" + folderName) != nil {
            throw ShoeboxError(.invalidArgument, "Albums/\(folderName) already exists and is not a Shoebox album; move it away or choose another name")
        }
        var unique: [AssetID] = []
        var seen = Set<AssetID>()
        for m in members where seen.insert(m).inserted { unique.append(m) }
        let album = UserAlbum(id: AssetID().rawValue, name: trimmed, folder: folderName,
                              created: Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down)), members: unique)
        try save(album)
        return album
    }

    /// U+200E/F, U+202A–202E, U+2066–2069: controls that reorder how a name is displayed.
    static func isBidiControl(_ s: Unicode.Scalar) -> Bool {
        (0x200E...0x200F).contains(s.value) || (0x202A...0x202E).contains(s.value) || (0x2066...0x2069).contains(s.value)
    }

    /// A folder name as a case-insensitive, normalising file system compares it.
    static func clashKey(_ folder: String) -> String {
        folder.precomposedStringWithCanonicalMapping.lowercased()
    }

    /// Purged assets leave every album.
    func forget(_ ids: Set<AssetID>) throws {
        for var album in allIncludingDeleted() where album.members.contains(where: ids.contains) {
            album.members.removeAll(where: ids.contains)
            try save(album)
        }
    }
}
