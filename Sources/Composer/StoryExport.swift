import Foundation
import Imaging
import PhotoLibrary
#if canImport(Glibc)
import Glibc
#endif

/// `compose export`: the story drawn (`StoryRenderer`), encoded as HEIC (`HEICEncoder`), then
/// written whole where the user said — a file outside the library, or with `--save` a new photo
/// of the library in `Collages/`, indexed. Nothing is ever replaced and no half-written file is
/// ever visible under the final name: the bytes go to a hidden temporary in the same folder,
/// flushed, then renamed without replacing.
public struct StoryExport {
    /// The encoder's settings for a story: x265 at libheif quality 70 with the "ultrafast" preset.
    /// Measured on stories of detailed photographs (docs/BENCHMARKS.md): ~0.9 MB at ~40 dB against
    /// the unencoded canvas; "fast" makes a file ~8 % smaller at the same PSNR for 3× the CPU
    /// (x265's slower presets gain little on one still picture); quality 60 gives ~0.6 MB at ~39 dB.
    public static let settings = HEICEncoder.Settings(quality: 70, preset: "ultrafast")
    /// The folder `--save` writes into: indexed like any photo (SPEC, "Library layout").
    public static let savedFolder = LibraryLayout.collagesFolder

    public let composer: Composer
    public init(composer: Composer) { self.composer = composer }

    /// The HEIC bytes of the story of `entries` (the draft's photos, each present).
    public func encode(_ entries: [ComposerEntry]) throws -> [UInt8] {
        try checkPresent(entries)
        let canvas = try StoryRenderer(library: composer.library).render(entries.map(\.asset))
        do {
            return try HEICEncoder.encode(canvas, settings: Self.settings, name: "the story")
        } catch let e as ImagingError {
            throw ShoeboxError(.io, e.description)
        }
    }

    /// Throws unless the draft has photos and each is present (a trashed one: put it back or
    /// take it out; a missing file: scan or take it out).
    func checkPresent(_ entries: [ComposerEntry]) throws {
        guard !entries.isEmpty else { throw ComposerError.empty }
        for e in entries where e.asset.state != .present {
            throw ShoeboxError(.invalidArgument, "position \(e.position) (\(displayPath(e.asset.path))) is \(e.asset.state.rawValue)",
                               remedy: e.asset.state == .trashed ? ComposerRemedy.restoreOrRemove(e.asset.id, position: e.position)
                                                                 : ComposerRemedy.scanOrRemove(position: e.position))
        }
    }

    /// "Story 2026-11-22 10.15.03.heic" for `date` in the machine's local time.
    public static func defaultName(at date: Date) -> String {
        var t = time_t(date.timeIntervalSince1970.rounded(.down))
        var tm = tm()
        localtime_r(&t, &tm)
        return String(format: "Story %04d-%02d-%02d %02d.%02d.%02d.heic", Int(tm.tm_year) + 1900, Int(tm.tm_mon) + 1,
                      Int(tm.tm_mday), Int(tm.tm_hour), Int(tm.tm_min), Int(tm.tm_sec))
    }

    /// `name` with " (2)", " (3)"… before its extension: the n-th choice when the name is taken.
    static func numbered(_ name: String, _ n: Int) -> String {
        guard n > 1 else { return name }
        let ext = (name as NSString).pathExtension, base = (name as NSString).deletingPathExtension
        return ext.isEmpty ? "\(base) (\(n))" : "\(base) (\(n)).\(ext)"
    }

    /// Writes `bytes` as the new file `path` (absolute, outside the library), relative to its
    /// folder opened and checked once (`OutsideFolder`). With `numbering` (a default name), a
    /// taken name gets " (2)", " (3)"…; otherwise a taken name — a file, a link, anything — is
    /// one error and nothing is written. Returns the folder (whose `undo` takes the file back)
    /// and the name written.
    public func writeOutside(_ bytes: [UInt8], to path: String, numbering: Bool) throws -> (folder: OutsideFolder, name: String) {
        let (folder, leaf) = try OutsideFolder.holding(path, library: composer.library, inside: {
            ShoeboxError(.invalidArgument, "\($0) is inside the library", remedy: ComposerRemedy.save)
        })
        let data = Data(bytes)
        for n in 1...(numbering ? 1000 : 1) {
            let name = Self.numbered(leaf, n)
            var st = stat()
            if fstatat(folder.fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 {
                if numbering { continue }
                throw Self.taken(folder.shown(name), isLink: (st.st_mode & S_IFMT) == S_IFLNK)
            }
            if try folder.create(data, named: name) { return (folder, name) }
            if numbering { continue }
            throw Self.taken(folder.shown(name), isLink: false)
        }
        throw ShoeboxError(.alreadyExists, "\(path) and 999 numbered names beside it are taken; choose a name with -o")
    }

    /// The error for an `-o FILE` that is taken: nothing is replaced, no link written through.
    static func taken(_ path: String, isLink: Bool) -> ShoeboxError {
        if isLink { return ShoeboxError(.alreadyExists, "\(path) is a symbolic link; Shoebox does not write through it: choose another name with -o") }
        return ShoeboxError(.alreadyExists, "\(path) already exists; nothing was replaced: choose another name with -o")
    }

    /// Writes `bytes` into the library as `Collages/<name>` (numbered when taken) through the
    /// confined layer, then indexes it as the watcher would a new file. The caller holds the
    /// writer lock. Returns the new asset.
    public func save(_ bytes: [UInt8], named name: String) throws -> Asset {
        let data = Data(bytes)
        var relative: String?
        for n in 1...1000 where relative == nil {
            let candidate = Self.savedFolder + "/" + Self.numbered(name, n)
            do {
                try composer.library.files.createAtomically(data, at: candidate)
                relative = candidate
            } catch let e as ShoeboxError where e.code == .alreadyExists {
                continue
            }
        }
        guard let relative else { throw ShoeboxError(.alreadyExists, "\(Self.savedFolder)/\(name) and 999 numbered names beside it are taken") }
        let report = try LiveUpdater(library: composer.library, index: composer.index).apply([.arrived(relative)])
        if let problem = report.failed.first { throw ShoeboxError(.io, "\(relative) was written but not indexed: \(problem.reason)") }
        guard let asset = try composer.index.asset(path: relative) else {
            throw ShoeboxError(.io, "\(relative) was written but not indexed", remedy: LibraryRemedy.scan)
        }
        return asset
    }
}
