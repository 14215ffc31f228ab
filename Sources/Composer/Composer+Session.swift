import Foundation
import PhotoLibrary

/// The composer's entry points for a front end (the CLI, the web app): every change of the draft
/// runs load → change → save inside the session's writer lock, so two front ends never lose
/// each other's change; reading takes no lock.
extension Composer {
    public init(session: LibrarySession) {
        self.init(library: session.library, index: session.index)
    }

    /// The draft and its photos (ids purged from the library are said through `note` and left
    /// out; the file is mended by the next change).
    public static func list(_ session: LibrarySession, note: (String) -> Void = { _ in }) throws -> [ComposerEntry] {
        try Composer(session: session).load(note: note).entries
    }

    /// Changes the draft: `change` gets the composer (to resolve photos) and the draft as stored;
    /// what it leaves is saved, and the draft's photos returned. A change that throws leaves the
    /// file as it was.
    public static func change(_ session: LibrarySession, note: (String) -> Void = { _ in },
                              _ change: (Composer, inout ComposerDraft) throws -> Void) throws -> [ComposerEntry] {
        try session.write { locked in
            let composer = Composer(library: locked.library, index: locked.index)
            var (draft, _) = try composer.load(note: note)
            try change(composer, &draft)
            try composer.store.save(draft)
            return try composer.entries(of: draft)
        }
    }

    /// Empties the draft, a damaged file included. Returns how many photos it had (nil: the file
    /// was damaged).
    @discardableResult
    public static func clear(_ session: LibrarySession) throws -> Int? {
        try session.write { locked in
            let store = ComposerStore(library: locked.library)
            let count = (try? store.load())?.count
            try store.erase()
            return count
        }
    }
}
