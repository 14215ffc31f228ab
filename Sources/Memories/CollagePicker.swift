import Foundation

/// Which photos a collage shows (the brief's original selection), as a pure function of the
/// candidates and the seed:
/// 1. candidates → 2. one photo per shot: a similar-shot group (Tidy's grouping: a burst, a
/// re-encoded or edited copy, frames within seconds) gives its best photo only — the others are
/// never in the collage, not even as spares → 3. score above `threshold` → 4. for a person,
/// their face larger than `minFaceArea` of the image → 5. a lesser frame of a burst the analysis
/// ranked comes after → 6. a photo its cell would enlarge more than `maxEnlargement` times (an
/// 88-px drawing in a 582-px cell) comes after every other → 7. spread over the time range: the
/// range cut into `count` equal spans, taken in rounds, one photo per span and round → 8. best
/// first, and the photos after the first `count` kept as spares for files that fail to decode.
/// When too few pass rules 3–6, photos that break them fill the collage after every photo that
/// keeps them (and a note says so): a collage of six slightly weaker photos beats no collage; a
/// repeated shot never does.
///
/// The seed reshuffles: inside a span, photos are drawn by weighted sampling without
/// replacement (Efraimidis–Spirakis keys u^(1/w), w = e^(score / temperature)), u from
/// SplitMix64 over the seed and the asset id, so the same seed and candidates always give the
/// same choice, whatever their order, and a better photo is likelier to come first.
public struct CollagePicker: Sendable {
    public struct Candidate: Sendable, Equatable {
        public var id: String
        /// Seconds since 1970; nil when unknown (those form a span of their own).
        public var time: Double?
        public var score: Double?
        /// The person's face as a share of the image area; nil when not a person's memory.
        public var faceArea: Double?
        /// Photos of one near-duplicate group share it: one of them is enough.
        public var group: String?
        /// A frame of a burst that a better frame of it outranks (the analysis's burst rank > 1).
        public var lesserFrame: Bool
        /// How many times its cell enlarges the photo (the cell's width over the crop's width in
        /// the photo's pixels); nil when unknown.
        public var enlargement: Double?
        public init(id: String, time: Double?, score: Double?, faceArea: Double? = nil, group: String? = nil, lesserFrame: Bool = false,
                    enlargement: Double? = nil) {
            self.id = id; self.time = time; self.score = score; self.faceArea = faceArea; self.group = group
            self.lesserFrame = lesserFrame; self.enlargement = enlargement
        }
    }

    public struct Choice: Sendable, Equatable {
        /// The collage's photos, best first.
        public var picks: [Candidate]
        /// Replacements in the order to use them, best first.
        public var spares: [Candidate]
        /// What the selection had to relax.
        public var relaxed: [CollageNote]
        /// The same in words (no command named).
        public var notes: [String] { relaxed.map(\.description) }
    }

    public var count = 6
    public var spares = 4
    /// The score a photo needs (−1…1): 0 is the −1…1 counterpart of the brief's aesthetics
    /// score 0.5; it leaves out every utility image and most blurred or badly exposed photos.
    public var threshold = 0.0
    /// The brief's rule for a person's memory: the face box larger than 15 % of the image area.
    public var minFaceArea = 0.15
    /// How much a score difference weighs against chance: 0.1 makes a photo scoring 0.1 more
    /// e (2.7) times likelier to be drawn first.
    public var temperature = 0.1
    /// The most a cell may enlarge a photo before the photo counts as too small for it: beyond
    /// 2× the softness shows at a glance.
    public var maxEnlargement = 2.0
    public var seed: UInt64

    public init(seed: UInt64) { self.seed = seed }

    /// The choice among `candidates`; `subject` names them in notes ("Ana", "2019").
    public func choose(_ all: [Candidate], subject: String) -> Choice {
        var notes: [CollageNote] = []
        let candidates = onePerShot(all)
        // Each rule a photo breaks puts it tiers back: a tier is drawn from only when the ones
        // before it cannot fill the collage and its spares.
        var tier = [String: Int]()
        let scored = candidates.filter { ($0.score ?? -.infinity) > threshold }
        if scored.count < count {
            notes.append(.fewScored(count: scored.count, subject: subject, threshold: threshold))
        }
        for c in candidates where (c.score ?? -.infinity) <= threshold { tier[c.id, default: 0] += 1 }
        if candidates.contains(where: { $0.faceArea != nil }) {
            let large = candidates.filter { ($0.faceArea ?? 0) > minFaceArea }
            if large.count < count {
                notes.append(.smallFaces(count: large.count, subject: subject, minFaceArea: minFaceArea))
            }
            for c in candidates where (c.faceArea ?? 0) <= minFaceArea { tier[c.id, default: 0] += 1 }
        }
        for c in candidates where c.lesserFrame { tier[c.id, default: 0] += 1 }
        // Too small for a cell: after every photo of a fitting size, whatever else they break.
        for c in candidates where (c.enlargement ?? 0) > maxEnlargement { tier[c.id, default: 0] += 4 }
        var taken: [Candidate] = []
        for t in Set(candidates.map { tier[$0.id, default: 0] }).sorted() where taken.count < count + spares {
            taken += spread(candidates.filter { tier[$0.id, default: 0] == t }, upTo: count + spares - taken.count)
        }
        let picks = Array(taken.prefix(count)).sorted(by: Self.better)
        return Choice(picks: picks, spares: Array(taken.dropFirst(count)).sorted(by: Self.better), relaxed: notes)
    }

    /// The candidates with one photo per similar-shot group: the best frame the analysis ranked,
    /// else the best score; the others are repeats of a shot already there.
    func onePerShot(_ candidates: [Candidate]) -> [Candidate] {
        var seen = Set<String>()
        let first = candidates.sorted { a, b in a.lesserFrame != b.lesserFrame ? !a.lesserFrame : Self.better(a, b) }
        return first.filter { c in c.group.map { seen.insert($0).inserted } ?? true }
    }

    /// Up to `upTo` photos in the order taken: rounds over the time spans, each round taking
    /// the next draw of every span that has one left, spans with the better draw first.
    func spread(_ pool: [Candidate], upTo: Int) -> [Candidate] {
        let times = pool.compactMap(\.time)
        let first = times.min() ?? 0, span = (times.max() ?? 0) - first
        var bins = [[Candidate]](repeating: [], count: count + 1)  // the last: unknown times
        for c in pool {
            guard let t = c.time else { bins[count].append(c); continue }
            bins[span > 0 ? min(count - 1, Int((t - first) / span * Double(count))) : 0].append(c)
        }
        var queues = bins.map { $0.map { (key: key(for: $0), candidate: $0) }.sorted { ($0.key, $1.candidate.id) > ($1.key, $0.candidate.id) } }
        var taken: [Candidate] = []
        while taken.count < upTo, queues.contains(where: { !$0.isEmpty }) {
            let round = queues.indices.filter { !queues[$0].isEmpty }
                .sorted { (queues[$0][0].key, $1) > (queues[$1][0].key, $0) }
            for i in round where taken.count < upTo { taken.append(queues[i].removeFirst().candidate) }
        }
        return taken
    }

    /// log(u) / w: the logarithm of the Efraimidis–Spirakis key (larger draws first).
    func key(for c: Candidate) -> Double {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a of the id, mixed with the seed
        for b in c.id.utf8 { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01b3 }
        let u = (Double(splitMix64(seed ^ h) >> 11) + 1) / 9_007_199_254_740_993  // (0, 1]
        let w = exp(((c.score ?? -1) - 1) / temperature)  // ≤ 1: never overflows
        return log(u) / w
    }

    /// Score descending (unscored last), then id.
    static func better(_ a: Candidate, _ b: Candidate) -> Bool {
        let sa = a.score ?? -.infinity, sb = b.score ?? -.infinity
        return sa != sb ? sa > sb : a.id < b.id
    }
}

/// One output of SplitMix64 (Steele, Lea, Flood 2014) seeded with `seed`: a fixed, well-mixed
/// 64-bit function, so a seed names one collage on every machine. Written out because the
/// standard library's generators are seedless (SystemRandomNumberGenerator) and this sequence
/// must never change with a toolchain.
func splitMix64(_ seed: UInt64) -> UInt64 {
    var z = seed &+ 0x9E37_79B9_7F4A_7C15
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
}
