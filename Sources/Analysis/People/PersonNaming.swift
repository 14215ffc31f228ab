import PhotoLibrary

/// What a person is called, from the evidence its faces carry: a name the user gave
/// (`people name`) outranks a name from a file's XMP (a named face region, or `PersonInImage`
/// on a photo with one face); among several, the one on most faces, then the first
/// alphabetically (deterministic). Every face of the person then shows that name — so a copy of
/// a named person's photo without its XMP is named too.
public enum PersonNaming {
    /// The name of each person in `faces` (nil: unnamed). Forgotten faces and faces without a
    /// person are not evidence.
    public static func names(of faces: [DetectedFace]) -> [String: String?] {
        var evidence: [String: [DetectedFace.NameSource: [String: Int]]] = [:]
        var persons = Set<String>()
        for f in faces where !f.isForgotten {
            guard let person = f.person else { continue }
            persons.insert(person)
            if f.nameSource == .user, let name = f.name, !name.isEmpty {
                evidence[person, default: [:]][.user, default: [:]][name, default: 0] += 1
            }
            if let name = f.xmpName, !name.isEmpty {
                evidence[person, default: [:]][.xmp, default: [:]][name, default: 0] += 1
            }
        }
        var out: [String: String?] = [:]
        for person in persons {
            let byName = evidence[person]?[.user] ?? evidence[person]?[.xmp] ?? [:]
            out.updateValue(byName.max { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key }?.key, forKey: person)
        }
        return out
    }

    /// Sets each face's `name` to its person's (faces without a person keep only their own
    /// evidence's name). Returns whether anything changed.
    @discardableResult
    public static func apply(_ names: [String: String?], to faces: inout [DetectedFace]) -> Bool {
        var changed = false
        for i in faces.indices {
            let f = faces[i]
            let wanted: String?
            if f.isForgotten { wanted = nil }
            else if let person = f.person, let name = names[person] { wanted = name }
            else { wanted = f.nameSource == .user ? f.name : f.xmpName }
            if f.name != wanted { faces[i].name = wanted; changed = true }
        }
        return changed
    }
}
