import Foundation

/// The asset shape written by `JSONStreamWriter` without going through `Codable` member by member:
/// the shape most `--json` output is made of (`list`, `tidy`, `album show` …), ~40 members each.
/// The bytes are those `encode(to:)` gives JSONEncoder: nil optionals of the asset written as
/// `null`, those of the nested places and faces left out (synthesized `encodeIfPresent`).
extension AssetJSON {
    static let sortedKeys = CodingKeys.allCases.sorted {
        $0.rawValue.utf8.lexicographicallyPrecedes($1.rawValue.utf8)
    }

    /// `,`, newline, indentation and `"key" : ` of each member after the first, for members at
    /// levels 0 to 7 (an asset is at level 1 in a listing, 2 in a group).
    private static let prefixes: [[[UInt8]]] = (0..<8).map { level in
        sortedKeys.map { key in
            var out = JSONBytes()
            out.memberPrefix(key.rawValue, level: level, first: false)
            return out.bytes
        }
    }

    /// A member a shape wrapping the asset adds to the asset's own (tidy's `decision`), and its
    /// place among them in key order.
    package struct Extra: Sendable {
        let key: String
        /// How many of the asset's keys sort before it.
        let position: Int

        package init(key: String) {
            precondition(!AssetJSON.sortedKeys.contains { $0.rawValue == key }, "\(key) is a member of the asset shape")
            self.key = key
            position = AssetJSON.sortedKeys.count(where: { JSONMemberLog.precedes($0.rawValue, key) })
        }
    }

    /// The asset as a whole object at `level` (a listing's element, `show`), with `extra`'s member
    /// (valued `value`) in its place when given: nothing else can add a member to it, so its
    /// members go out in order with no record of where each one is.
    func writeObject(_ writer: JSONStreamWriter, level: Int, extra: Extra? = nil, value: String? = nil) throws {
        let m = level + 1
        let prefixes = m < AssetJSON.prefixes.count ? AssetJSON.prefixes[m] : nil
        var w = JSONBytes()
        swap(&w, &writer.out)
        defer { swap(&w, &writer.out) }
        w.bytes.append(UInt8(ascii: "{"))
        var first = true
        func writeExtra(at i: Int) {
            guard let extra, extra.position == i else { return }
            w.memberPrefix(extra.key, level: m, first: first)
            w.optionalString(value)
            first = false
        }
        for (i, key) in AssetJSON.sortedKeys.enumerated() {
            writeExtra(at: i)
            if !first, let prefixes {
                w.bytes.append(contentsOf: prefixes[i])
            } else {
                w.memberPrefix(key.rawValue, level: m, first: first)
            }
            first = false
            if key == .score_detail, let score_detail {
                swap(&w, &writer.out)
                defer { swap(&w, &writer.out) }
                try writer.value(score_detail, level: m)
            } else {
                try write(key, &w, level: m)
            }
        }
        writeExtra(at: AssetJSON.sortedKeys.count)
        w.close(UInt8(ascii: "}"), level: level)
    }

    /// The asset with `extra`'s member as the whole value `encoder` encodes, written at once when
    /// `encoder` is `JSONStreamWriter`'s (true); false for any other encoder, which the caller
    /// gives the members one by one.
    package func writeWhole(to encoder: any Encoder, adding extra: Extra, _ value: String?) throws -> Bool {
        guard let node = encoder as? JSONStreamNode else { return false }
        node.beginSingle()
        try writeObject(node.writer, level: node.level, extra: extra, value: value)
        return true
    }

    /// An object of string members and one array of assets with `extra`'s member each (tidy's
    /// group: `group`, `items`, `kind`) as the whole value `encoder` encodes, written at once when
    /// `encoder` is `JSONStreamWriter`'s (true; false for any other encoder). `strings` in key
    /// order, the array's key sorting after the first `arrayPosition` of them; `asset(i)` the
    /// `i`th of `count` elements and its `extra` value. (Through the Encoder machinery every group
    /// was a node, a member log and a reordering check: 6 % of `tidy list --json`.)
    package static func writeWhole(to encoder: any Encoder, strings: [(key: String, value: String)],
                                   array key: String, at arrayPosition: Int, count: Int, extra: Extra,
                                   _ asset: (Int) -> (AssetJSON, String?)) throws -> Bool {
        guard let node = encoder as? JSONStreamNode else { return false }
        node.beginSingle()
        let writer = node.writer, level = node.level, m = level + 1
        func string(_ i: Int) {
            writer.out.memberPrefix(strings[i].key, level: m, first: i == 0)
            writer.out.string(strings[i].value)
        }
        writer.out.bytes.append(UInt8(ascii: "{"))
        for i in 0..<arrayPosition { string(i) }
        writer.out.memberPrefix(key, level: m, first: arrayPosition == 0)
        writer.out.bytes.append(UInt8(ascii: "["))
        for i in 0..<count {
            writer.out.element(first: i == 0, level: m + 1)
            let (a, value) = asset(i)
            try a.writeObject(writer, level: m + 1, extra: extra, value: value)
        }
        writer.out.close(UInt8(ascii: "]"), level: m, empty: count == 0)
        for i in arrayPosition..<strings.count { string(i) }
        writer.out.close(UInt8(ascii: "}"), level: level, empty: false)
        return true
    }

    /// Adds the asset's members to the object `node` is writing (a wrapper such as the tidy shape
    /// may add its own; the node puts them all in order).
    func writeMembers(_ node: JSONStreamNode) throws {
        node.beginObject()
        let m = node.level + 1  // the members' level
        let prefixes = m < AssetJSON.prefixes.count ? AssetJSON.prefixes[m] : nil
        try node.withMembers { w, log in
            for (i, key) in AssetJSON.sortedKeys.enumerated() {
                if i > 0, let prefixes {
                    log.begin(key.rawValue, prefix: prefixes[i], in: &w)
                } else {
                    log.begin(key.rawValue, in: &w, level: m, knownInOrder: i > 0)
                }
                if key == .score_detail, let score_detail {
                    // Through the writer, as any Encodable: the bytes go back to it for the time.
                    swap(&w, &node.writer.out)
                    defer { swap(&w, &node.writer.out) }
                    try node.writer.value(score_detail, level: m)
                } else {
                    try write(key, &w, level: m)
                }
                log.end(w)
            }
        }
    }

    /// The value of one member (but a present `score_detail`).
    private func write(_ key: CodingKeys, _ w: inout JSONBytes, level m: Int) throws {
        switch key {
        case .id: w.string(id)
        case .path: w.string(path)
        case .kind: w.string(kind)
        case .format: w.string(format)
        case .size: w.integer(size)
        case .width: w.integer(width)
        case .height: w.integer(height)
        case .taken_at: w.optionalString(taken_at)
        case .taken_at_source: w.optionalString(taken_at_source)
        case .year: if let year { w.integer(year) } else { w.null() }
        case .gps: if let gps { try write(gps, &w, level: m) } else { w.null() }
        case .place: if let place { write(place, &w, level: m) } else { w.null() }
        case .persons: strings(persons, &w, level: m)
        case .keywords: strings(keywords, &w, level: m)
        case .xmp_sidecar: w.optionalString(xmp_sidecar)
        case .raw_type: w.optionalString(raw_type)
        case .raw_file: w.optionalString(raw_file)
        case .rating: if let rating { w.integer(rating) } else { w.null() }
        case .faces: try write(faces, &w, level: m)
        case .score: if let score { try w.double(score) } else { w.null() }
        case .is_utility: w.bool(is_utility)
        case .score_detail: w.null()
        case .analyzed: w.bool(analyzed)
        case .damaged: w.bool(damaged)
        case .phash: w.optionalString(phash)
        case .sha256: w.string(sha256)
        case .similar_group: w.optionalString(similar_group)
        case .duplicate_of: w.optionalString(duplicate_of)
        case .live_video: w.optionalString(live_video)
        case .state: w.string(state)
        case .orientation: w.integer(orientation)
        case .make: w.optionalString(make)
        case .model: w.optionalString(model)
        case .duration: if let duration { try w.double(duration) } else { w.null() }
        case .mtime: w.string(mtime)
        case .first_seen: w.string(first_seen)
        case .trash_name: w.optionalString(trash_name)
        case .deletion_date: w.optionalString(deletion_date)
        }
    }

    /// `{` was written: a newline (after a `,` for all but the first), the indentation and `"key" : `.
    private func key(_ key: String, _ w: inout JSONBytes, level: Int, first: inout Bool) {
        w.memberPrefix(key, level: level, first: first)
        first = false
    }

    private func write(_ g: Coordinate, _ w: inout JSONBytes, level: Int) throws {
        w.bytes.append(UInt8(ascii: "{"))
        var first = true
        key("lat", &w, level: level + 1, first: &first); try w.double(g.lat)
        key("lon", &w, level: level + 1, first: &first); try w.double(g.lon)
        w.close(UInt8(ascii: "}"), level: level)
    }

    private func write(_ p: PlaceJSON, _ w: inout JSONBytes, level: Int) {
        w.bytes.append(UInt8(ascii: "{"))
        var first = true
        if let city = p.city { key("city", &w, level: level + 1, first: &first); w.string(city) }
        if let country = p.country { key("country", &w, level: level + 1, first: &first); w.string(country) }
        w.close(UInt8(ascii: "}"), level: level, empty: first)  // an empty object, as JSONEncoder writes one
    }

    private func write(_ faces: [Face], _ w: inout JSONBytes, level: Int) throws {
        w.bytes.append(UInt8(ascii: "["))
        for (i, f) in faces.enumerated() {
            w.element(first: i == 0, level: level + 1)
            w.bytes.append(UInt8(ascii: "{"))
            var first = true
            let l = level + 2
            key("h", &w, level: l, first: &first); try w.double(f.h)
            if let name = f.name { key("name", &w, level: l, first: &first); w.string(name) }
            if let person = f.person { key("person", &w, level: l, first: &first); w.string(person) }
            key("source", &w, level: l, first: &first); w.string(f.source)
            key("w", &w, level: l, first: &first); try w.double(f.w)
            key("x", &w, level: l, first: &first); try w.double(f.x)
            key("y", &w, level: l, first: &first); try w.double(f.y)
            w.close(UInt8(ascii: "}"), level: level + 1)
        }
        w.close(UInt8(ascii: "]"), level: level, empty: faces.isEmpty)
    }

    /// An array of strings, as JSONEncoder writes `persons`.
    private func strings(_ list: [String], _ w: inout JSONBytes, level: Int) {
        w.bytes.append(UInt8(ascii: "["))
        for (i, s) in list.enumerated() {
            w.element(first: i == 0, level: level + 1)
            w.string(s)
        }
        w.close(UInt8(ascii: "]"), level: level, empty: list.isEmpty)
    }
}
