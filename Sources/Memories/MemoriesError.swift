import PhotoLibrary

/// The empty states: each names what is missing (the brief's "No People albums found"), as the
/// one line the CLI prints before exiting 1; the remedy shows what there is.
enum MemoriesError {
    /// People the picker offers have at least this many photos (the brief's resolved question).
    static let minimumPersonPhotos = 10

    static func noPhotos(_ source: MemorySource, _ range: MemoryRange) -> ShoeboxError {
        switch source {
        case .year(let y): return ShoeboxError(.notFound, "No photos from \(y)\(range.phrase)", remedy: MemoriesRemedy.listYears)
        case .place(let p): return ShoeboxError(.notFound, "No photos from \(p)\(range.phrase)", remedy: MemoriesRemedy.listPlaces)
        case .person(let p):
            return ShoeboxError(.notFound, "No person \(p.debugDescription) with at least \(minimumPersonPhotos) photos\(range.phrase)",
                                remedy: MemoriesRemedy.listPeople)
        }
    }

    static func tooFew(_ source: MemorySource, _ range: MemoryRange, have: Int, need: Int) -> ShoeboxError {
        ShoeboxError(.notFound, "Only \(have) photo\(have == 1 ? "" : "s") of \(source.label)\(range.phrase) can be used (screenshots, documents, copies, second photos of one shot and damaged files are left out); a collage needs \(need)")
    }
}
