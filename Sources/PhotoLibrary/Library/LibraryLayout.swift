/// Which folders of a library Shoebox owns, and which files it indexes: the one rule that the
/// scan's walk, the watcher's folder watches and the watcher's events all follow, so that a
/// scan and `watch` agree on what the library holds.
///
/// Pure: names and relative paths (`/`-separated, from the library root) in, answers out;
/// nothing is read from disk.
public enum LibraryLayout {
    /// The index, sidecars, config and lock.
    public static let stateFolder = ".shoebox"
    /// The relative path of `name` (a file's last component) inside `stateFolder`.
    public static func statePath(_ name: String) -> String { stateFolder + "/" + name }
    /// One sidecar per asset, `<id>.json`: the truth the index is rebuilt from.
    public static let sidecarsFolder = ".shoebox/sidecars"
    /// The thumbnail cache (`ThumbnailStore`).
    public static let thumbnailsFolder = ".shoebox/thumbs"
    /// Generated albums: folders of links, never originals.
    public static let albumsFolder = "Albums"
    /// The freedesktop trash.
    public static let recentlyDeletedFolder = "Recently Deleted"
    /// The painting tracker's JSON files and copied photos.
    public static let trackerFolder = "Tracker"
    /// Collages that Memories saves.
    public static let collagesFolder = "Collages"

    /// Folders at the root that Shoebox writes into.
    public static let ownedFolders: Set<String> = [stateFolder, albumsFolder, recentlyDeletedFolder, trackerFolder,
                                                   collagesFolder]

    /// Owned folders whose files are not the user's photos: never indexed, never watched.
    /// `Collages/` is owned but not reserved: saved collages are photos of the library and are
    /// indexed like any other (SPEC, "Library layout"; issue 19: "`--save` indexes the collage").
    public static let reservedFolders: Set<String> = ownedFolders.subtracting([collagesFolder])

    /// Extensions of files still being written by browsers, sync tools and editors.
    static let temporaryExtensions: Set<String> = ["part", "crdownload", "tmp", "temp", "partial", "download", "swp",
                                                   "!qb", "opdownload"]

    /// Whether a name directly under the root is a reserved folder's (a file of that name
    /// stands where Shoebox's folder belongs and is not indexed either).
    public static func isReserved(rootName name: String) -> Bool {
        reservedFolders.contains(name)
    }

    /// Names starting with a dot: other tools' state (and `.shoebox/`), never the user's photos.
    public static func isHidden(_ name: String) -> Bool {
        name.utf8.first == UInt8(ascii: ".")
    }

    /// Whether a walk goes into the folder `name`, whose parent is the root when `atRoot`.
    public static func descends(intoFolderNamed name: String, atRoot: Bool) -> Bool {
        !name.isEmpty && !isHidden(name) && !(atRoot && isReserved(rootName: name))
    }

    /// Whether the files under a folder (relative to the root; "" is the root) are indexed, and
    /// so whether the folder is watched.
    public static func isIndexable(folder relativePath: String) -> Bool {
        var atRoot = true
        for part in relativePath.split(separator: "/", omittingEmptySubsequences: true) {
            guard descends(intoFolderNamed: String(part), atRoot: atRoot) else { return false }
            atRoot = false
        }
        return true
    }

    /// Names that browsers, sync tools and editors give files still being written (hidden names
    /// included: `.syncthing.*.tmp`, `.~lock`).
    public static func isTemporaryName(_ name: String) -> Bool {
        if isHidden(name) || name.utf8.last == UInt8(ascii: "~") || name.hasPrefix("~$") { return true }
        return lowercasedExtension(name).map(temporaryExtensions.contains) ?? false
    }

    /// Companions that sit beside photos (other tools' sidecars, notes, documents): never opened.
    public static func isKnownOther(_ name: String) -> Bool {
        lowercasedExtension(name).map(FileProbe.knownOtherExtensions.contains) ?? false
    }

    /// Whether a file named `name` is indexed wherever it sits: not hidden, not a temporary name,
    /// not a known companion (`.xmp`, `.txt`…). Whether it is a photo is for its content to say.
    public static func isIndexable(fileName name: String) -> Bool {
        !name.isEmpty && !isTemporaryName(name) && !isKnownOther(name)
    }

    /// What a walk does with one entry of a folder it lists (the root's when `atRoot`): whether
    /// it descends into this folder, or indexes this file (a file named like a reserved folder
    /// stands where Shoebox's folder belongs, and is not indexed either).
    public static func admits(_ name: String, isFolder: Bool, atRoot: Bool) -> Bool {
        if isFolder { return descends(intoFolderNamed: name, atRoot: atRoot) }
        return isIndexable(fileName: name) && !(atRoot && isReserved(rootName: name))
    }

    /// Whether a file (relative to the root) is one Shoebox indexes: in an indexable folder, with
    /// a name a walk admits.
    public static func isIndexable(file relativePath: String) -> Bool {
        let parts = relativePath.split(separator: "/", omittingEmptySubsequences: true)
        guard let name = parts.last.map(String.init) else { return false }
        return isIndexable(folder: parts.dropLast().joined(separator: "/"))
            && admits(name, isFolder: false, atRoot: parts.count == 1)
    }

    /// The part of a name after its last dot, in ASCII lower case; nil when there is no dot or
    /// when it is not short ASCII (no extension the rule knows is).
    static func lowercasedExtension(_ name: String) -> String? {
        let bytes = name.utf8
        guard let dot = bytes.lastIndex(of: UInt8(ascii: ".")) else { return nil }
        let ext = bytes[bytes.index(after: dot)...]
        guard ext.count <= 16 else { return nil }
        var out = ""
        for b in ext {
            guard b < 0x80 else { return nil }
            out.unicodeScalars.append(Unicode.Scalar(b >= 65 && b <= 90 ? b + 32 : b))
        }
        return out
    }
}
