import Foundation
import Imaging
import PhotoLibrary

/// `compose export` for a front end that shows the story before anything is written (the web
/// app): the story drawn and encoded in memory — the HEIC, and a JPEG a browser can show — and
/// saved into the library only when asked, as a separate call.
extension StoryExport {
    /// The JPEG rendition's quality: shown at phone-screen size, not kept.
    public static let previewQuality = 90

    /// A story made in memory.
    public struct Rendered: Sendable {
        /// The 1080×1920 HEIC, exactly what `compose export` would write.
        public var heic: [UInt8]
        /// The same pixels as a JPEG (most browsers cannot show HEIC).
        public var jpeg: [UInt8]
        /// "Story yyyy-MM-dd HH.mm.ss.heic": the name a download or a save takes.
        public var name: String
        /// The draft's photos, top to bottom.
        public var entries: [ComposerEntry]
    }

    /// Draws the draft and encodes it twice — HEIC and JPEG, side by side — holding no lock; then,
    /// as `compose export` does, clears the draft under the writer lock when it is still the one
    /// drawn (SPEC: the draft lasts until export). Nothing is written into the library or outside
    /// it. The same errors as `run`: an empty draft, a trashed or missing photo, a busy library.
    public static func render(_ session: LibrarySession, at now: Date = ShoeboxClock.now(), lockTimeout: Double = 30,
                              note: (String) -> Void = { _ in }) throws -> Rendered {
        let composer = Composer(session: session)
        let (draft, entries) = try composer.load(note: note)
        guard !entries.isEmpty else { throw ShoeboxError(.invalidArgument, "nothing to export: the composer draft is empty", remedy: ComposerRemedy.add) }
        let export = StoryExport(composer: composer)
        try export.checkPresent(entries)
        let canvas = try StoryRenderer(library: composer.library).render(entries.map(\.asset))
        let (heic, jpeg) = try encodeBoth(canvas)
        try session.write(timeout: lockTimeout) { _ in
            if (try? composer.load().draft) == draft { try composer.store.erase() }
        }
        return Rendered(heic: heic, jpeg: jpeg, name: defaultName(at: now), entries: entries)
    }

    /// Saves a story made by `render` into the library as `Collages/<name>` (numbered when taken),
    /// indexed, under the writer lock — what `compose export --save` does with its bytes.
    public static func save(_ session: LibrarySession, heic: [UInt8], named name: String, lockTimeout: Double = 30) throws -> Asset {
        if let problem = session.index.readOnlyReason { throw problem }
        return try session.write(timeout: lockTimeout) { _ in
            try StoryExport(composer: Composer(session: session)).save(heic, named: name)
        }
    }

    /// The HEIC (`settings`) and the JPEG (`previewQuality`) of `canvas`, encoded on two threads.
    static func encodeBoth(_ canvas: RGBImage) throws -> (heic: [UInt8], jpeg: [UInt8]) {
        let results = EncodedPair()
        DispatchQueue.concurrentPerform(iterations: 2) { i in
            if i == 0 {
                results.heic = Result { try HEICEncoder.encode(canvas, settings: Self.settings, name: "the story") }
            } else {
                results.jpeg = Result { try ThumbnailEncoder.jpeg(canvas, quality: Self.previewQuality) }
            }
        }
        do {
            return (try results.heic.get(), try results.jpeg.get())
        } catch let e as ImagingError {
            throw ShoeboxError(.io, e.description)
        }
    }

    /// The two encodings' outcomes; each thread writes its own field once, read after both end.
    private final class EncodedPair: @unchecked Sendable {
        var heic: Result<[UInt8], any Error> = .failure(CancellationError())
        var jpeg: Result<[UInt8], any Error> = .failure(CancellationError())
    }
}
