import CConfinedSQLite
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// SQLite opens the index, its -wal and -shm by path. While one of these is alive, SQLite's
/// file calls on paths below the library resolve from the library folder's descriptor without
/// following a link at any component (`CConfinedSQLite`), like every other file operation of
/// Shoebox: a `.shoebox` swapped for a link while a connection opens fails the open instead of
/// creating files where the link points.
final class ConfinedSQLite: @unchecked Sendable {
    /// The library folder's real path (links resolved): the prefix SQLite's paths start with.
    let root: String

    init(_ library: Library) throws {
        guard let real = realpath(library.root.path, nil) else {
            throw ShoeboxError(.io, "cannot open the library folder \(library.root.path): \(ShoeboxError.errnoText())")
        }
        root = String(cString: real)
        free(real)
        guard shoebox_sqlite_confine(root) == 0 else {
            throw ShoeboxError(.io, "cannot confine the index's files to \(root): \(ShoeboxError.errnoText())")
        }
    }

    /// The path SQLite is given for `relative` (a file of the library).
    func path(_ relative: String) -> String { root + "/" + relative }

    deinit { shoebox_sqlite_unconfine(root) }
}
