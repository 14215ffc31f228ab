import MetadataCore

/// Reading a sidecar's packet needs the XML parser (libxml2, `XMPTree`): here, not in the
/// codec-free core, which keeps the sidecar's record and names.
extension XMPSidecar {
    /// The largest sidecar read: the XMP parser's own limit.
    public static var maximumSize: Int { XMP.maximumSize }

    /// Merges the sidecar `packet` into `m`: the photo's own capture date and position win; the
    /// sidecar's people (names and face regions) are added, its place fills in or replaces the
    /// file's (a sidecar is where a user's edits go), its rating and keywords are kept.
    /// Returns false when the packet is not XMP Shoebox reads (nothing merged).
    public static func merge(_ packet: [UInt8], into m: inout MediaMetadata, stamp: XMPSidecar) -> Bool {
        guard let props = XMP.properties(packet) else { return false }
        let f = XMP.fields(props)
        m.takenAt = m.takenAt.flatMap { $0.source == .filename || $0.source == .mtime ? nil : $0 } ?? f.takenAt ?? m.takenAt
        m.gps = m.gps ?? f.gps
        m.persons = XMP.deduplicated(m.persons + f.persons)
        m.faces += f.faces.filter { !m.faces.contains($0) }
        if f.city != nil || f.country != nil { m.city = f.city; m.country = f.country }
        var s = stamp
        s.rating = f.rating
        s.keywords = f.keywords
        m.xmpSidecar = s
        return true
    }
}
