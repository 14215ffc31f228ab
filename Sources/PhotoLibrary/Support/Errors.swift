import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An error a user can act on: a code scripts can test, one line for people, the typed cause
/// and what to do about it (`remedy`). The library's message says what happened; each front end
/// words the remedy its own way (the CLI as a `shoebox …` command to run, the web app as a
/// button or a link), so no library message names a command.
public struct ShoeboxError: Error, CustomStringConvertible, Sendable {
    public enum Code: String, Sendable {
        case noLibrary          // no .shoebox/ here or above
        case alreadyLibrary
        case insideLibrary      // a library (or init) inside another library, which indexes its files already
        case unreadable         // permissions
        case notFound           // id or path not in the index
        case ambiguous          // id prefix matches several assets
        case locked             // another writer holds the library lock
        case io
        case index              // SQLite
        case indexDamaged       // the index file (or its -wal) is damaged: `rebuild` recreates it, same ids
        case newerVersion       // a file written by a newer Shoebox (a sidecar's schema): upgrade to read it
        case massDisappearance  // a mount looks missing: refuse to mark everything gone
        case invalidArgument
        case readOnly           // the library's file system is mounted read-only, or .shoebox/ is not writable
        case noSpace            // the disk holding the library is full (bytes or inodes)
        case alreadyExists      // a confined move or create found its target taken (nothing was replaced)
        case unsafeLayout       // a folder or file Shoebox owns is a symbolic link (or not a folder): it will not follow it
        case fileChanged        // an original is not the file the index knows (changed, gone, replaced): a scan catches up
    }

    /// What went wrong, with its values, for a front end that says it its own way or acts on it.
    public enum Cause: Sendable, Equatable {
        /// A system call on `path` (library-relative, or absolute outside it) failed with `errno`.
        case system(path: String, errno: Int32)
        /// An asset's original cannot be read as the index knows it (`LibrarySession.openOriginal`).
        case original(path: String, OriginalFile.Problem)
        /// Another process holds the writer lock (`holder`: its pid and command, when known).
        case locked(holder: String)
    }

    public var code: Code
    public var message: String
    public var underlying: String?
    /// The error this one wraps, typed (a GRDB error, an `ImagingError`…), when there is one.
    public var underlyingError: (any Error)?
    public var cause: Cause?
    /// What the user can do about it; each front end words it (the CLI: `CommandHint`).
    public var remedy: (any Remedy)?

    public init(_ code: Code, _ message: String, underlying: (any Error)? = nil, cause: Cause? = nil, remedy: (any Remedy)? = nil) {
        self.code = code
        self.message = message
        self.underlying = underlying.map { String(describing: $0) }
        self.underlyingError = underlying
        self.cause = cause
        self.remedy = remedy
    }

    /// `error` about `subject` ("IMG_1.HEIC: …"): its code, cause and remedy kept; another kind of
    /// error becomes an `.io` one whose message is its description.
    public init(about subject: String, _ error: any Error) {
        if let e = error as? ShoeboxError {
            self = e
            self.message = subject + ": " + e.message
        } else {
            self.init(.io, subject + ": " + String(describing: error), underlying: error)
            self.underlying = nil
        }
    }

    /// The error for an original that is not the file the index knows.
    public init(original path: String, _ problem: OriginalFile.Problem) {
        let what: String
        switch problem {
        case .gone: what = "is not there any more"
        case .notRegularFile: what = "is no longer a regular file"
        case .changed: what = "changed since the last scan"
        case .unreadable(let e): what = "cannot be read: \(ShoeboxError.errnoText(e))"
        }
        let code: Code = if case .unreadable = problem { .unreadable } else { .fileChanged }
        self.init(code, "\(displayPath(path)) \(what)", cause: .original(path: path, problem), remedy: LibraryRemedy.scan)
    }

    public var description: String {
        if let underlying, !underlying.isEmpty, !message.contains(underlying) { return "\(message): \(underlying)" }
        return message
    }

    /// The current `errno` as text, for messages about system calls.
    static func errnoText(_ e: Int32 = errno) -> String { String(cString: strerror(e)) }
}

/// What a user can do about an error, as a value: the core's `LibraryRemedy` and each feature's
/// own enum. Front ends render them (the CLI: `shoebox scan`; the web: a "Scan now" button).
public protocol Remedy: Sendable {}

/// The core's remedies.
public enum LibraryRemedy: Remedy, Equatable {
    /// Bring the index up to date with the folder.
    case scan
    /// The same, before trying again.
    case scanFirst
    /// The same, when what was named is a new file.
    case scanIfNew
    /// The same, accepting that most of the library vanished.
    case scanAllowingMassRemoval
    /// Recreate the index from the sidecars and the files (ids kept).
    case rebuild
    /// The same, then start the stopped process again.
    case rebuildThenRestart
    /// Stop the process that holds the index (a running `watch`), then rebuild.
    case stopWriterThenRebuild
    /// Analyse what is not analysed yet.
    case analyze
    /// Make this folder a library (nil: the folder the user means), or name one that is.
    case initLibrary(path: String?)
    /// Make the library again, once what was in the way is gone.
    case initAgain
    /// Name that library instead (the folder given is inside it).
    case useLibrary(path: String)
    /// Put a photo back from Recently Deleted.
    case restore(AssetID)
    /// The same, before trying again.
    case restoreFirst(AssetID)
    /// Its file is gone: put it back, then scan.
    case putBackAndScan
    /// See the albums there are.
    case listAlbums
    /// See the albums there are, or make this one.
    case listOrCreateAlbums
    /// Delete some albums.
    case deleteAlbums
    /// See the people there are.
    case listPeople
}
