import PhotoLibrary
#if canImport(Glibc)
import Glibc
#endif

/// A file the analysis could not analyse, and why. It stays pending: a later run (or the
/// watcher) analyses it once it can be read as the index knows it.
public struct NotAnalysed: Sendable {
    /// Relative to the library.
    public var path: String
    /// One line without the path ("not analysed: it changed since the last scan"), its typed
    /// `cause` (`.original(path, problem)` for an original that is not the indexed file) and
    /// `remedy`, which each front end words.
    public var error: ShoeboxError

    public init(path: String, error: ShoeboxError) {
        self.path = path
        self.error = error
    }
}

/// What a user can do about an analysis error; the CLI words it as a `shoebox …` command.
public enum AnalysisRemedy: Remedy, Equatable {
    /// Bring the index up to date with the file; the next analysis (or the watcher) then
    /// analyses it.
    case scanThenAnalyse
}

/// The analysis's errors, each one line a user can act on.
enum AnalysisError {
    /// Why a file was not analysed, from the error opening its original gave. The sentences are
    /// the ones `analyze` has always printed after the file's path.
    static func notAnalysed(_ e: ShoeboxError) -> ShoeboxError {
        guard case .original(_, let problem)? = e.cause else {
            return ShoeboxError(e.code, "not analysed: \(e.message)", cause: e.cause, remedy: e.remedy)
        }
        switch problem {
        case .changed:
            return ShoeboxError(e.code, "not analysed: it changed since the last scan", cause: e.cause, remedy: AnalysisRemedy.scanThenAnalyse)
        case .notRegularFile:
            return ShoeboxError(e.code, "not analysed: it is no longer a regular file", cause: e.cause, remedy: LibraryRemedy.scan)
        case .gone:
            return ShoeboxError(e.code, "not analysed: \(String(cString: strerror(ENOENT)))", cause: e.cause)
        case .unreadable(let code):
            return ShoeboxError(e.code, "not analysed: \(String(cString: strerror(code)))", cause: e.cause)
        }
    }

    /// A file left pending although no run reported it unreadable: its result was dropped
    /// because the index changed under it (the file changed while it was read).
    static func changedWhileRead(_ path: String) -> ShoeboxError {
        ShoeboxError(.fileChanged, "not analysed: it changed while it was read", cause: .original(path: path, .changed),
                     remedy: AnalysisRemedy.scanThenAnalyse)
    }
}
