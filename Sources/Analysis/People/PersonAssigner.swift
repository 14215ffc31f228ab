import PhotoLibrary

/// Puts each newly found face into a person, as photos arrive: the person of the nearest known
/// faces when they are close enough (dlib's descriptors: the same person is < 0.6 apart), else a
/// new person. A pure type over descriptors, with its own fast tests.
///
/// Nearest-neighbour voting rather than a fresh clustering of everything: a library grows a
/// few photos at a time, and a face arriving must not regroup people the user has already named
/// or merged. The vote (the persons of the `k` nearest faces within the threshold, weighted by
/// closeness) keeps one stray close face of somebody else from deciding alone.
public struct PersonAssigner: Sendable {
    public struct Known: Sendable {
        public var descriptor: FaceDescriptor
        public var person: String
        public init(descriptor: FaceDescriptor, person: String) { self.descriptor = descriptor; self.person = person }
    }

    public let threshold: Float
    public let neighbours: Int
    private(set) var known: [Known]
    private var nextNumber: Int

    /// `known`: the faces already in a person (not forgotten ones). New persons are numbered
    /// after the highest `p<n>` among them.
    public init(known: [Known], threshold: Float = 0.6, neighbours: Int = 5) {
        self.known = known
        self.threshold = threshold
        self.neighbours = max(1, neighbours)
        nextNumber = (known.compactMap { PersonAssigner.number(of: $0.person) }.max() ?? 0) + 1
    }

    /// The person for a new face (and it joins the known faces, so the next face of the same
    /// person finds it).
    public mutating func assign(_ descriptor: FaceDescriptor) -> String {
        let person = nearestPerson(descriptor) ?? newPerson()
        known.append(Known(descriptor: descriptor, person: person))
        return person
    }

    /// The person the nearest known faces within the threshold vote for, or nil.
    public func nearestPerson(_ descriptor: FaceDescriptor) -> String? {
        var close: [(distance: Float, person: String)] = []
        for k in known {
            let d = k.descriptor.distance(to: descriptor)
            if d < threshold { close.append((d, k.person)) }
        }
        guard !close.isEmpty else { return nil }
        close.sort { $0.distance != $1.distance ? $0.distance < $1.distance : $0.person < $1.person }
        var votes: [String: Float] = [:]
        for c in close.prefix(neighbours) { votes[c.person, default: 0] += threshold - c.distance }
        return votes.max { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key }?.key
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
