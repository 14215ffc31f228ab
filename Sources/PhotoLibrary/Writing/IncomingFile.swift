import CShoeboxSystem
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A file arriving in pieces (an upload) into a folder of the library: written under a hidden
/// temporary name in that folder (reached without following any link, made when missing),
/// flushed, then given its name by `renameat2(RENAME_NOREPLACE)` — "IMG_1.jpg", else
/// "IMG_1 (2).jpg"… — so nothing is ever replaced and a kill leaves at most the hidden temporary
/// (the next upload into that folder clears it), never half a photo that a scan would index.
/// One request writes it at a time (unchecked Sendable: handed between the threads of one upload).
public final class IncomingFile: @unchecked Sendable {
    /// The folder, relative to the library.
    public let folder: String
    public let name: String
    public private(set) var size: Int64 = 0
    /// The first bytes, for sniffing what the file is.
    public private(set) var head: [UInt8] = []
    private let folderFD: Int32
    private let temporary: AtomicFile.Temporary

    public init(library: Library, folder: String, name: String) throws {
        guard SafeName.file(name, fallback: "") == name, !name.isEmpty else {
            throw ShoeboxError(.invalidArgument, "not a plain file name: \(name.debugDescription)")
        }
        self.folder = folder
        self.name = name
        folderFD = try library.files.withFolder("", creating: false) { root in
            try library.files.openFolder(folder, beneath: root, creating: true)
        }
        // A killed upload's hidden temporary would stay here for good (no scan enters a hidden
        // file, nothing else writes in this folder): the next upload into it removes it.
        AtomicFile.removeTemporariesOfDeadWriters(inFolder: folderFD)
        do { temporary = try AtomicFile.Temporary(name, in: folderFD, shownAs: folder, holding: Data()) } catch {
            close(folderFD)
            throw error
        }
    }

    deinit {
        temporary.discard()
        close(folderFD)
    }

    public func append(_ data: Data) throws {
        if head.count < 4096 { head += data.prefix(4096 - head.count) }
        try temporary.writeAll(data)
        size += Int64(data.count)
    }

    /// Flushes the file and gives it its name (the first free one). Returns its library path.
    public func finish() throws -> String {
        try temporary.flushData()
        let dot = name.lastIndex(of: ".").flatMap { $0 == name.startIndex ? nil : $0 }
        let (stem, ext) = dot.map { (String(name[..<$0]), String(name[$0...])) } ?? (name, "")
        for n in 1...1000 {
            let candidate = n == 1 ? name : "\(stem) (\(n))\(ext)"
            if shoebox_renameat_noreplace(folderFD, temporary.temporaryName, folderFD, candidate) == 0 {
                temporary.markRenamed()
                fsync(folderFD)
                return folder + "/" + candidate
            }
            guard errno == EEXIST else { throw temporary.failed() }
        }
        throw ShoeboxError(.alreadyExists, "\(folder)/\(name): a thousand files of that name are there already")
    }

    /// Deletes what was written (a refused or broken upload).
    public func discard() { temporary.discard() }
}
