import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An error a user can act on: a code scripts can test, one line for people, and the cause.
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
    }
    public var code: Code
    public var message: String
    public var underlying: String?

    public init(_ code: Code, _ message: String, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.underlying = underlying.map { String(describing: $0) }
    }

    public var description: String {
        if let underlying, !underlying.isEmpty, !message.contains(underlying) { return "\(message): \(underlying)" }
        return message
    }

    /// The current `errno` as text, for messages about system calls.
    static func errnoText(_ e: Int32 = errno) -> String { String(cString: strerror(e)) }
}
