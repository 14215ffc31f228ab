import Foundation
import Imaging
import PhotoLibrary

/// A rendered memory collage: the JPEG and what is in each cell.
public struct Collage: Sendable {
    public struct Cell: Sendable {
        public var asset: Asset
        /// The part of the upright photo shown, normalised.
        public var crop: NormalizedRect
        /// Where it is in the collage, in pixels.
        public var rect: PixelRect
        /// Whether the cached preview gave the pixels (else the original file).
        public var fromPreview: Bool
    }

    public var source: MemorySource
    public var range: MemoryRange
    public var seed: UInt64
    public var cells: [Cell]
    /// JPEG, quality 90 (TurboJPEG), sRGB, upright.
    public var jpeg: [UInt8]
    /// What the selection relaxed and which files failed (a spare took their place).
    public var notes: [CollageNote]
}

/// Memories (brief 003) on a library session: the sources a picker offers, and face-aware 2×3
/// collages of the best photos of a year, a place or a person. Reading the sources and making a
/// collage take no lock (they read the index and decode pixels); saving one into `Collages/` is
/// a session write.
public struct Memories: Sendable {
    public let session: LibrarySession
    public var library: Library { session.library }
    package let catalog: MemoryCatalog
    public var layout = CollageLayout()

    /// `now` is where the date ranges count back from (`$SHOEBOX_NOW` when set).
    public init(session: LibrarySession, now: Date = ShoeboxClock.now()) {
        self.session = session
        self.catalog = MemoryCatalog(index: session.index, now: now)
    }

    /// Years (latest first), places and people (most photos first) a memory can be of, with counts.
    public func sources(range: MemoryRange = .all) throws -> MemorySources {
        try catalog.sources(range: range)
    }

    /// Saves `collage` into `Collages/` as "<source> yyyy-MM-dd HH.mm.ss.jpg" (never replacing
    /// a file) and indexes it, inside a session write. Returns its library path and its id.
    public func save(_ collage: Collage) throws -> (path: String, id: AssetID) {
        try session.write { locked in
            try CollageOutput(library: locked.library, index: locked.index, now: locked.now).save(collage)
        }
    }

    /// Selects, crops, decodes (in parallel, spares for files that fail) and encodes the
    /// collage. Throws the empty state when the source has no photo or too few to fill it.
    public func collage(of source: MemorySource, range: MemoryRange = .all, seed: UInt64) throws -> Collage {
        let photos = try catalog.photos(of: source, range: range)
        let byID = Dictionary(photos.map { ($0.asset.id.rawValue, $0) }, uniquingKeysWith: { a, _ in a })
        // Tidy's similar-shot groups, from the index's hashes and times (the core's rule).
        let shots = try SimilarShots.groupIDs(among: photos.map(\.asset.id), in: session.index)
        var picker = CollagePicker(seed: seed)
        picker.count = layout.count
        let choice = picker.choose(photos.map { p in
            CollagePicker.Candidate(id: p.asset.id.rawValue, time: p.time, score: p.asset.score, faceArea: p.personFaceArea,
                                    group: shots[p.asset.id], lesserFrame: (p.asset.analysis?.score?.burst?.rank ?? 1) > 1,
                                    enlargement: layout.enlargement(width: p.asset.width, height: p.asset.height))
        }, subject: source.label)
        guard choice.picks.count == layout.count else {
            throw MemoriesError.tooFew(source, range, have: choice.picks.count, need: layout.count)
        }
        var notes = choice.relaxed
        let queue = (choice.picks + choice.spares).map { byID[$0.id]! }
        let rendered = try renderCells(queue, notes: &notes)
        guard rendered.count == layout.count else {
            throw ShoeboxError(.io, "only \(rendered.count) of the photos of \(source.label) chosen for the collage could be decoded; a collage needs \(layout.count) (the failures are named above)")
        }
        // Best first, row by row, whichever spares stood in.
        let ordered = rendered.sorted { CollagePicker.better(candidate($0.photo), candidate($1.photo)) }
        var canvas = RGBImage(width: layout.width, height: layout.height, filledWith: (255, 255, 255))
        var cells: [Collage.Cell] = []
        for (i, r) in ordered.enumerated() {
            let rect = layout.cell(i)
            canvas.draw(r.image, crop: PixelRect(x: 0, y: 0, width: r.image.width, height: r.image.height), into: rect)
            cells.append(Collage.Cell(asset: r.photo.asset, crop: r.crop, rect: rect, fromPreview: r.source == .preview))
        }
        let jpeg = try ThumbnailEncoder.jpeg(canvas, quality: 90)
        return Collage(source: source, range: range, seed: seed, cells: cells, jpeg: jpeg, notes: notes)
    }

    func candidate(_ p: MemoryPhoto) -> CollagePicker.Candidate {
        CollagePicker.Candidate(id: p.asset.id.rawValue, time: p.time, score: p.asset.score)
    }

    struct Rendered: Sendable {
        var photo: MemoryPhoto
        var crop: NormalizedRect
        var image: RGBImage
        var source: CellPixels.Source
    }

    /// The first `layout.count` photos of `queue` that decode, trying them in order: the picks
    /// in parallel, then as many spares as failed, and so on. A failure is named in `notes`.
    func renderCells(_ queue: [MemoryPhoto], notes: inout [CollageNote]) throws -> [Rendered] {
        let pixels = CellPixels(library: library, cellWidth: layout.cellWidth, cellHeight: layout.cellHeight)
        var done: [Rendered] = []
        var next = 0
        while done.count < layout.count && next < queue.count {
            let batch = Array(queue[next..<min(queue.count, next + layout.count - done.count)])
            next += batch.count
            let results = ParallelMap.run(batch) { photo -> Result<Rendered, Error> in
                Result { () throws -> Rendered in
                    let (image, crop, source) = try pixels.render(photo.asset, faces: photo.faces)
                    return Rendered(photo: photo, crop: crop, image: image, source: source)
                }
            }
            for (photo, result) in zip(batch, results) {
                switch result {
                case .success(let r): done.append(r)
                case .failure(let e):
                    let problem = e as? ShoeboxError ?? ShoeboxError(.io, String(describing: e), underlying: e)
                    notes.append(.replaced(path: photo.asset.path, problem: problem))
                }
            }
        }
        return done
    }
}

/// `map` over a few items on every core (DispatchQueue.concurrentPerform), results in order.
enum ParallelMap {
    /// Each result written once, under the lock, into its own slot.
    final class Slots<R>: @unchecked Sendable {
        var values: [R?]
        let lock = NSLock()
        init(_ n: Int) { values = Array(repeating: nil, count: n) }
    }

    static func run<T: Sendable, R: Sendable>(_ items: [T], _ body: @Sendable (T) -> R) -> [R] {
        let slots = Slots<R>(items.count)
        DispatchQueue.concurrentPerform(iterations: items.count) { i in
            let r = body(items[i])
            slots.lock.lock()
            slots.values[i] = r
            slots.lock.unlock()
        }
        return slots.values.map { $0! }
    }
}
