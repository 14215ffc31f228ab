import Foundation
import GRDB
import MetadataCore

/// Relations between assets that follow from the whole library, not from one file: byte-identical
/// duplicates and Live Photo pairs. Recomputed after changes, through the writer.
struct Grouping {
    let writer: AssetWriter
    var index: Index { writer.index }

    /// Both groupings, duplicates first.
    func regroup() throws {
        try regroupDuplicates()
        try pairLivePhotos()
    }

    /// Byte-identical present files: the first seen (then first by path) is the original, every
    /// other points to it. Recomputed after changes, so an edited or vanished original hands over.
    func regroupDuplicates() throws {
        let rows = try index.read { db in
            try Row.fetchAll(db, sql: """
                SELECT id, sha256, duplicate_of FROM asset
                WHERE state = 'present' AND (duplicate_of IS NOT NULL OR sha256 IN (
                    SELECT sha256 FROM asset WHERE state = 'present' GROUP BY sha256 HAVING COUNT(*) > 1))
                ORDER BY sha256, first_seen, path, id
                """)
        }
        var originalOf: [String: String] = [:]
        var want: [AssetID: AssetID?] = [:]
        for r in rows {
            let id: String = r[0], sha: String = r[1], current: String? = r[2]
            let original: String?
            if let first = originalOf[sha] { original = first } else { originalOf[sha] = id; original = nil }
            if original != current { want[AssetID(trusted: id)] = original.map(AssetID.init(trusted:)) }
        }
        try writer.update(want.keys.sorted { $0.rawValue < $1.rawValue }) { $0.duplicateOf = want[$0.id] ?? nil }
    }

    /// The video half of a Live Photo (a MOV with the same folder and stem as a HEIC/JPEG) belongs
    /// to the photo, and so does the RAW of a RAW+JPEG shot (same stem, same capture time within
    /// 1 s): one asset carrying both files (`live_photo_of` on the companion), trashed, restored and
    /// shown in albums together. Only with evidence (`LivePhotoEvidence`): a name alone pairs an unrelated
    /// clip and hides it from video listings.
    func pairLivePhotos() throws {
        let rows = try index.read { db in try PairRow.fetch(db) }
        var photosByStem: [String: [PairRow]] = [:]
        for r in rows where r.format == .heic || r.format == .jpeg {
            photosByStem[r.stemKey, default: []].append(r)
        }
        var want: [AssetID: AssetID?] = [:]
        for r in rows where r.format == .mov || r.format == .raw {
            let candidates = photosByStem[r.stemKey] ?? []
            let partner = r.format == .mov
                ? candidates.first { LivePhotoEvidence.pairs(photo: $0.metadata, video: r.metadata) }?.id
                : candidates.first { LivePhotoEvidence.sameShot(raw: r.metadata, photo: $0.metadata) }?.id
            if partner != r.livePhotoOf { want[r.id] = partner }
        }
        try writer.update(want.keys.sorted { $0.rawValue < $1.rawValue }) { $0.livePhotoOf = want[$0.id] ?? nil }
    }
}

/// The columns Live Photo pairing needs, for every present photo and video that could pair.
struct PairRow {
    var id: AssetID
    var path: String
    var format: MediaFormat
    var livePhotoOf: AssetID?
    var metadata: MediaMetadata

    var stemKey: String { PairRow.stemKey(of: path) }

    static let query = """
        SELECT id, path, format, live_photo_of, metadata FROM asset
        WHERE state = 'present' AND format IN ('heic', 'jpeg', 'mov', 'raw')
        """

    /// The rows that can pair, in the query's order: every video and RAW, and the photos that
    /// share a stem with one. Two passes through a cursor: the first reads the stems of the videos
    /// and RAWs (no metadata decoded), the second decodes only the rows that can pair. A photo no
    /// video or RAW shares a stem with pairs with nothing, so leaving it out changes nothing; a
    /// first scan of 1,000,000 photos held all of them decoded (issue 33: 795 MiB at its peak).
    static func fetch(_ db: Database) throws -> [PairRow] {
        var stems = Set<String>()
        let first = try Row.fetchCursor(db, sql: query)
        while let r = try first.next() {
            if let f = MediaFormat(rawValue: r[2]), f == .mov || f == .raw { stems.insert(stemKey(of: r[1])) }
        }
        guard !stems.isEmpty else { return [] }
        var rows: [PairRow] = []
        let second = try Row.fetchCursor(db, sql: query)
        while let r = try second.next() {
            let path: String = r[1]
            guard let f = MediaFormat(rawValue: r[2]), stems.contains(stemKey(of: path)) else { continue }
            let json: String = r[4]
            guard let m = MetadataJSON.decode(json)
                    ?? (try? ShoeboxJSON.makeDecoder().decode(MediaMetadata.self, from: Data(json.utf8))) else { continue }
            rows.append(PairRow(id: AssetID(trusted: r[0]), path: path, format: f,
                                livePhotoOf: (r[3] as String?).map(AssetID.init(trusted:)), metadata: m))
        }
        return rows
    }

    static func stemKey(of path: String) -> String { ((path as NSString).deletingPathExtension).lowercased() }
}
