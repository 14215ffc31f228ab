import Metadata
import PhotoLibrary

/// Stores analysis results through the writer: each new face gets what the user and the file
/// already said (names carried over from the asset's earlier analysis, XMP face regions), then a
/// person; people's names are worked out again for every person the batch touched and written to
/// all their faces — a face that joins "Ana" in a new photo names that photo, and a name found in
/// a new photo's XMP names the person's earlier photos too.
struct AnalysisStore {
    let writer: AssetWriter
    private(set) var book: PeopleBook
    private var assigner: PersonAssigner
    private let thumbnails: ThumbnailStore
    /// Whether any asset's people changed (the People albums then follow).
    var changedPeople = false
    /// The index's generation after this store's last commit: another writer since (a `people`
    /// command, a rebuild) makes the book stale, and it is read again.
    private var generation: String?

    init(writer: AssetWriter) throws {
        self.writer = writer
        book = PeopleBook(assets: try People.assetsWithFaces(writer.index))
        assigner = book.assigner()
        thumbnails = ThumbnailStore(library: writer.library)
        try? thumbnails.removeTemporariesOfDeadWriters()  // a cache: a failure costs disk space only
        generation = try writer.index.generation()
    }

    /// Reads the book again when somebody else wrote the index since this store's last commit.
    private mutating func refreshIfStale() throws {
        guard try writer.index.generation() != generation else { return }
        book = PeopleBook(assets: try People.assetsWithFaces(writer.index))
        assigner = book.assigner()
    }

    /// Stores a batch; returns the records stored (results for files that changed meanwhile are
    /// dropped: the file is analysed again once the index has its new content).
    mutating func commit(_ batch: [AnalysisQueue.Result]) throws -> [(path: String, analysis: AssetAnalysis)] {
        try refreshIfStale()
        var results: [AssetID: AssetAnalysis] = [:]
        var touched = Set<String>()
        var named = personByName()
        for r in batch {
            guard let outcome = r.outcome, let current = try writer.index.asset(id: r.asset.id),
                  current.sha256 == outcome.analysis.sha256 else { continue }
            let old = current.analysis?.faces ?? []
            touched.formUnion(old.compactMap(\.person))
            var analysis = outcome.analysis
            let gated = (current.analysis?.version ?? 0) >= AssetAnalysis.gatedPeopleVersion
            FaceEvidence.carryOver(from: old, to: &analysis.faces, people: gated)
            FaceEvidence.addXMPNames(current.metadata, to: &analysis.faces)
            assignPeople(&analysis.faces, of: current.id, named: &named)
            touched.formUnion(analysis.faces.compactMap(\.person))
            book.replaceFaces(of: current.id, with: analysis.faces)
            // A cache: a full disk here costs thumbnails, not the analysis.
            try? thumbnails.store(outcome.thumbnails, for: current)
            results[current.id] = analysis
        }
        let names = book.names(of: touched)
        let affected = book.assets(of: touched).union(results.keys)
        let changed = try writer.update(affected.sorted()) { asset in
            if let a = results[asset.id] {
                asset.analysis = a
                asset.applyAnalysisScore()
            }
            guard var analysis = asset.analysis else { return }
            PersonNaming.apply(names, to: &analysis.faces)
            asset.analysis = analysis
        }
        for a in changed {
            book.replaceFaces(of: a.id, with: a.analysis?.faces ?? [])
            if !(a.analysis?.faces.isEmpty ?? true) { changedPeople = true }
        }
        // Scores in context: the bursts these photos belong to are ranked again.
        try BurstContext.refresh(around: changed.filter { results[$0.id] != nil }, writer: writer)
        generation = try writer.index.generation()
        return batch.compactMap { r in results[r.asset.id].map { (r.asset.path, $0) } }
    }
}

extension AnalysisStore {
    /// Puts the photo's faces without a person into people (`PersonAssigner`): faces already in
    /// one (carried over) keep it, and no other face of the photo joins theirs. A face a region
    /// of the file's XMP names is the person of that name (`named`: lowercased name → person),
    /// or founds it even when the gate does not trust its descriptor: the file says who it is
    /// (a tagged profile). Such a face counts in its person's centre only when trusted.
    mutating func assignPeople(_ faces: inout [DetectedFace], of photo: AssetID, named: inout [String: String]) {
        for i in faces.indices where faces[i].person == nil && !faces[i].isForgotten && faces[i].descriptor != nil {
            if let name = faces[i].xmpName?.lowercased(), let person = named[name], !faces.contains(where: { $0.person == person }) {
                faces[i].person = person
            }
        }
        let open = faces.indices.filter { faces[$0].person == nil && !faces[$0].isForgotten && faces[$0].descriptor != nil }
        let keeping = faces.compactMap { f -> PersonAssigner.Known? in
            guard let person = f.person, let d = f.descriptor, !f.isForgotten else { return nil }
            return PersonAssigner.Known(descriptor: d, person: person, photo: photo, trusted: FaceGate.admits(f.quality))
        }
        let people = assigner.assign(photo: photo, open.map { PersonAssigner.NewFace(descriptor: faces[$0].descriptor!, trusted: FaceGate.admits(faces[$0].quality)) },
                                     keeping: keeping)
        for (i, person) in zip(open, people) {
            faces[i].person = person ?? (faces[i].xmpName == nil ? nil : assigner.newPerson())
        }
        for f in faces {
            if let name = f.xmpName?.lowercased(), let person = f.person, named[name] == nil { named[name] = person }
        }
    }

    /// Each name that exactly one person has → that person.
    func personByName() -> [String: String] {
        var out: [String: String] = [:], seen: [String: Int] = [:]
        for case let (person, name?) in book.names(of: Set(book.persons)) {
            seen[name.lowercased(), default: 0] += 1
            out[name.lowercased()] = person
        }
        return out.filter { seen[$0.key] == 1 }
    }
}

/// What a new face inherits before it is put into a person.
enum FaceEvidence {
    /// The same face in the asset's previous analysis (a re-analysis by a newer analyser, or an
    /// edit that kept the framing): its person, name and "forgotten" carry over.
    /// A face is the same as an old one by `FaceMatching`'s rule (IoU ≥ 0.3, or the only old
    /// face whose centre it holds): another detector's box of it sits differently (CenterFace's
    /// reach the forehead, HOG's stopped at the brows).
    /// `people`: whether the old record's people were made by the current rules; when not
    /// (single linkage before `gatedPeopleVersion`), only a person the user named or placed the
    /// face in carries over; the others' faces are put into people again.
    static func carryOver(from old: [DetectedFace], to faces: inout [DetectedFace], people: Bool = true) {
        for i in faces.indices {
            let f = faces[i]
            guard let j = FaceMatching.match(x: f.x, y: f.y, w: f.w, h: f.h, in: old) else { continue }
            let match = old[j]
            // A person the user named or placed the face in is the user's word: it stays.
            faces[i].person = people || match.isPlaced || match.nameSource == .user ? match.person : nil
            faces[i].placed = match.placed
            faces[i].name = match.name
            faces[i].nameSource = match.nameSource == .user ? .user : nil
            faces[i].forgotten = match.forgotten
        }
    }

    /// Names from the file's XMP (`xmpName`, evidence for the person's name): a named face region
    /// over a found face (`FaceMatching`). A user's name for the person still wins (`PersonNaming`).
    /// Taggers draw regions their own way (hair to chin, a loose square): a region names the
    /// found face it overlaps most at IoU ≥ 0.3, or else the only found face whose centre it
    /// holds, when their sizes are within 4× of each other. A name without a region
    /// (`PersonInImage`) names no face: the one face found may be a stranger beside the person
    /// named, who was not found (a name so given once pulled strangers into "Tom").
    static func addXMPNames(_ metadata: MediaMetadata, to faces: inout [DetectedFace]) {
        for r in metadata.faces {
            guard let name = r.name, !name.isEmpty, let i = FaceMatching.match(r, in: faces) else { continue }
            faces[i].xmpName = name
        }
    }
}

extension DetectedFace {
    func overlap(with other: DetectedFace) -> Double { overlap(x: other.x, y: other.y, w: other.w, h: other.h) }
    func overlap(with r: FaceRegion) -> Double { overlap(x: r.x, y: r.y, w: r.w, h: r.h) }
}
