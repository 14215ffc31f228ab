import PhotoLibrary

/// Puts the newly found faces of a photo into people, as photos arrive. A pure type over
/// descriptors, with its own fast tests; the figures behind its thresholds are in docs/faces.md.
///
/// Three rules keep strangers apart, where joining the person of the single nearest face
/// (single linkage) chained five men into one "Tom" on real group photos:
/// - a face joins a person only when it is close to the person as a whole: to the centre of the
///   person's trusted faces, and to most of those faces — one look-alike face of the person is
///   not enough, and a person cannot drift face by face towards someone else;
/// - two faces of one photo are two people: they never join the same person, so they can never
///   bridge two people into one;
/// - a face `FaceGate` does not trust (small, blurred, turned, doubtful) never founds or joins a
///   person, and never counts in a person's centre: it stays without one until the user puts it
///   somewhere (`people move`, `people name FACE`).
///
/// Incremental rather than a fresh clustering of everything: a library grows a few photos at a
/// time, and a face arriving must not regroup people the user has already named or merged.
public struct PersonAssigner: Sendable {
    /// A face already in a person.
    public struct Known: Sendable {
        public var descriptor: FaceDescriptor
        public var person: String
        /// The photo it is in (nil: unknown, in tests).
        public var photo: AssetID?
        /// Whether it counts in its person's centre and majority (`FaceGate`).
        public var trusted: Bool
        public init(descriptor: FaceDescriptor, person: String, photo: AssetID? = nil, trusted: Bool = true) {
            self.descriptor = descriptor; self.person = person; self.photo = photo; self.trusted = trusted
        }
    }

    /// A face to place: its descriptor, and whether `FaceGate` trusts it.
    public struct NewFace: Sendable {
        public var descriptor: FaceDescriptor
        public var trusted: Bool
        public init(descriptor: FaceDescriptor, trusted: Bool = true) { self.descriptor = descriptor; self.trusted = trusted }
    }

    /// Two faces of one person are closer than this (dlib's operating point on LFW).
    public let threshold: Float
    /// A face joins a person only when it is closer than this to the person's centre.
    public let centreThreshold: Float
    /// …and closer than `threshold` to at least this share of the person's trusted faces.
    public let majority: Double
    private(set) var known: [Known] { didSet { groupsStale = true } }
    /// Each person's trusted faces and their sum, kept with `known` (a centre costs one pass).
    private var groups: [String: Group] = [:]
    private var groupsStale = true
    private var nextNumber: Int

    struct Group: Sendable {
        var sum: [Float]
        var members: [FaceDescriptor]
        var centre: FaceDescriptor { FaceDescriptor(sum.map { $0 / Float(members.count) }) }
        mutating func add(_ d: FaceDescriptor) {
            if sum.isEmpty { sum = [Float](repeating: 0, count: d.values.count) }
            for k in sum.indices where k < d.values.count { sum[k] += d.values[k] }
            members.append(d)
        }
    }

    /// `known`: the faces already in a person (not forgotten ones). New persons are numbered
    /// after the highest `p<n>` among them.
    public init(known: [Known], threshold: Float = 0.6, centreThreshold: Float = 0.55, majority: Double = 0.5) {
        self.known = known
        self.threshold = threshold
        self.centreThreshold = centreThreshold
        self.majority = majority
        nextNumber = (known.compactMap { PersonAssigner.number(of: $0.person) }.max() ?? 0) + 1
    }

    /// The person for a lone new face of no known photo (and it joins the known faces).
    public mutating func assign(_ descriptor: FaceDescriptor) -> String {
        assign(photo: nil, [NewFace(descriptor: descriptor)])[0]!
    }

    /// The people for the new faces of `photo`, in order: nil for a face `FaceGate` does not
    /// trust. `keeping`: faces of the photo already in a person (carried over from an earlier
    /// analysis, placed by the user): no new face joins their persons. The photo's other faces
    /// in the known ones are dropped first (the photo was analysed again).
    public mutating func assign(photo: AssetID?, _ faces: [NewFace], keeping: [Known] = []) -> [String?] {
        if let photo, known.contains(where: { $0.photo == photo }) { known.removeAll { $0.photo == photo } }
        if !keeping.isEmpty { known += keeping }
        refreshGroups()
        var taken = Set(keeping.map(\.person))
        var out = [String?](repeating: nil, count: faces.count)
        // Best pairs first: each person takes at most one face of the photo.
        var pairs: [(face: Int, person: String, distance: Float)] = []
        for (i, face) in faces.enumerated() where face.trusted {
            for (person, group) in groups where !taken.contains(person) {
                if let d = closeness(face.descriptor, to: group) { pairs.append((i, person, d)) }
            }
        }
        pairs.sort { $0.distance != $1.distance ? $0.distance < $1.distance : ($0.face, $0.person) < ($1.face, $1.person) }
        for p in pairs where out[p.face] == nil && !taken.contains(p.person) {
            out[p.face] = p.person
            taken.insert(p.person)
        }
        for (i, face) in faces.enumerated() where face.trusted {
            let person = out[i] ?? newPerson()
            out[i] = person
            known.append(Known(descriptor: face.descriptor, person: person, photo: photo))
            groups[person, default: Group(sum: [], members: [])].add(face.descriptor)
        }
        groupsStale = false
        return out
    }

    /// The person a face would join (ignoring photos), or nil.
    public func nearestPerson(_ descriptor: FaceDescriptor) -> String? {
        var copy = self
        copy.refreshGroups()
        return copy.groups.compactMap { person, group in copy.closeness(descriptor, to: group).map { (person, $0) } }
            .min { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }?.0
    }

    /// The face's distance to the person's centre, when it is close to the person as a whole
    /// (the centre within `centreThreshold`, most trusted faces within `threshold`); else nil.
    func closeness(_ d: FaceDescriptor, to group: Group) -> Float? {
        guard !group.members.isEmpty else { return nil }
        let toCentre = group.centre.distance(to: d)
        guard toCentre < centreThreshold else { return nil }
        let near = group.members.reduce(0) { $0 + ($1.distance(to: d) < threshold ? 1 : 0) }
        guard near > 0, Double(near) >= majority * Double(group.members.count) else { return nil }
        return toCentre
    }

    /// Rebuilds `groups` from `known` after faces were dropped or added from outside.
    private mutating func refreshGroups() {
        guard groupsStale else { return }
        groups = [:]
        for k in known where k.trusted { groups[k.person, default: Group(sum: [], members: [])].add(k.descriptor) }
        groupsStale = false
    }

    /// A person id never used yet: `p1`, `p2`…
    public mutating func newPerson() -> String {
        defer { nextNumber += 1 }
        return "p\(nextNumber)"
    }

    static func number(of person: String) -> Int? {
        person.hasPrefix("p") ? Int(person.dropFirst()) : nil
    }
}
