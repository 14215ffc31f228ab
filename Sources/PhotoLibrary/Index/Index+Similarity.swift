import Foundation
import GRDB
import MetadataCore

/// What deciding whether two assets are the same shot needs, and nothing else: read for a whole
/// library at once (Tidy's similar shots over 100,000 assets), so it skips the metadata and
/// analysis JSON a full `Asset` decodes.
public struct SimilarityKey: Sendable, Equatable {
    public var id: AssetID
    public var kind: AssetKind
    public var isUtility: Bool
    public var sha256: String
    public var size: Int64
    /// Pixels of the upright image (width × height): a tie-breaker between equal scores.
    public var pixels: Int
    /// The capture time, only when the file states it (EXIF, XMP, IPTC, the container, the file
    /// name); nil for a guess from a modification time (files copied together share those).
    public var statedTime: Double?
    /// The 64-bit perceptual hash of the present content, when analysed.
    public var perceptualHash: UInt64?
    public var score: Double?

    public init(id: AssetID, kind: AssetKind, isUtility: Bool, sha256: String, size: Int64, pixels: Int,
                statedTime: Double?, perceptualHash: UInt64?, score: Double?) {
        self.id = id; self.kind = kind; self.isUtility = isUtility; self.sha256 = sha256; self.size = size
        self.pixels = pixels; self.statedTime = statedTime; self.perceptualHash = perceptualHash; self.score = score
    }

    /// The capture-time sources a file states (not a guess).
    static let statedSources: Set<String> = [DateSource.exif, .xmp, .iptc, .container, .filename].map(\.rawValue)
        .reduce(into: []) { $0.insert($1) }
}

extension Index {
    static let similarityColumns = "id, kind, is_utility, sha256, size, width, height, taken_at_epoch, taken_at_source, phash, score"

    /// The similarity keys of the assets `query` matches, in its order.
    public func similarityKeys(matching query: AssetQuery) throws -> [SimilarityKey] {
        let (sql, args) = query.sql(columns: Index.similarityColumns)
        return try read { db in
            var out: [SimilarityKey] = []
            let rows = try Row.fetchCursor(db, sql: sql, arguments: args)
            while let r = try rows.next() {
                let source: String? = r[8]
                let stated = source.map { SimilarityKey.statedSources.contains($0) } ?? false
                let width: Int = r[5], height: Int = r[6]
                out.append(SimilarityKey(
                    id: AssetID(trusted: r[0]), kind: AssetKind(rawValue: r[1]) ?? .photo, isUtility: r[2],
                    sha256: r[3], size: r[4], pixels: Self.area(width, height),
                    statedTime: stated ? r[7] : nil,
                    perceptualHash: (r[9] as String?).flatMap { UInt64($0, radix: 16) }, score: r[10]))
            }
            return out
        }
    }

    /// A photo's pixel count from the sizes its sidecar states: a hand-edited sidecar may claim
    /// sides of 2³² or below zero, whose product would trap; such a size counts as none.
    static func area(_ width: Int, _ height: Int) -> Int {
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        return overflow || width < 0 || height < 0 ? 0 : pixels
    }
}
