import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `.shoebox/sidecars/<id>.json`: the durable truth about one asset (the index is only a cache).
/// It holds enough to rebuild the index without re-reading a single photo: identity, last path,
/// size, mtime, SHA-256, state, metadata — and, as later stages add them, scores, faces,
/// user-given names and decisions.
public struct Sidecar: Codable, Equatable, Sendable {
    public static let currentSchema = 1
    public var schema: Int
    public var asset: Asset

    public init(asset: Asset) {
        self.schema = Sidecar.currentSchema
        self.asset = asset
    }

    enum CodingKeys: String, CodingKey { case schema, asset }

    /// The members in the order the sorted output has them (`asset` before `schema`): the
    /// streaming writer then has nothing to reorder — it copied every sidecar's bytes again.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(asset, forKey: .asset)
        try container.encode(schema, forKey: .schema)
    }
}

/// Reads and writes sidecars. Writes are atomic (temporary file + rename); a batch is made
/// durable as a whole (`writeBatch`), flushing only what it wrote.
public struct SidecarStore: Sendable {
    public let library: Library

    public init(library: Library) { self.library = library }

    /// The sidecar's path in the library.
    static func path(of id: AssetID) -> String { LibraryLayout.sidecarsFolder + "/" + fileName(of: id) }

    static func fileName(of id: AssetID) -> String { id.rawValue + ".json" }

    /// Writes the sidecars of `assets`, each replaced whole, all of them on disk when it returns:
    /// an index row saved afterwards never names a sidecar a power cut could take back. A crash
    /// before it returns leaves each sidecar in its old or its new version.
    /// `journaled`: a replay record (`ScanJournal`) names the batch, so its new sidecars may be
    /// made durable by one flush at its end (`AtomicFile.writeDurably`); otherwise one each.
    public func writeBatch(_ assets: [Asset], journaled: Bool = false) throws {
        try library.files.writeDurably(try Self.encode(assets), inFolder: LibraryLayout.sidecarsFolder,
                                       newFilesReplayable: journaled)
    }

    /// The sidecars' bytes and names. The bytes are JSONEncoder's (`ShoeboxJSON.makeEncoder(pretty:
    /// true)`, which wrote every sidecar until issue 33; `SidecarEncodingTests` holds them to it),
    /// made by the streaming writer `--json` uses, one for the batch.
    static func encode(_ assets: [Asset]) throws -> [(data: Data, name: String)] {
        let json = JSONDocuments(pretty: true)
        return try assets.map { asset in (data: try json.data(Sidecar(asset: asset)), name: fileName(of: asset.id)) }
    }

    /// The sidecar of `id`; throws when it is missing or not valid.
    public func read(_ id: AssetID) throws -> Sidecar {
        guard let data = try library.files.contents(of: Self.path(of: id)) else {
            throw ShoeboxError(.io, "sidecar \(Self.fileName(of: id)) is missing")
        }
        return try decode(data, name: Self.fileName(of: id))
    }

    public func decode(_ data: Data, name: String) throws -> Sidecar {
        // JSON is UTF-8 (RFC 8259). Foundation's decoder given other bytes in a string it skips
        // handed back strings that trapped later (`Asset.folder` on a decoded path: a Sidecar
        // fuzzing find), so such a file is refused before it is parsed.
        guard String(validating: data, as: UTF8.self) != nil else {
            throw ShoeboxError(.io, "sidecar \(name) is not valid: it is not UTF-8 text")
        }
        do {
            let sidecar = try ShoeboxJSON.makeDecoder().decode(Sidecar.self, from: data)
            // A path edited to lead out (`../outside/x.jpg`) must never reach a file operation.
            guard LibraryPath.isValid(sidecar.asset.path) else {
                throw ShoeboxError(.io, "sidecar \(name) is not valid: its path \(String(reflecting: sidecar.asset.path)) is not inside the library")
            }
            try SidecarStore.refuseNewer(sidecar.schema, name)
            return sidecar
        } catch let e as ShoeboxError {
            throw e
        } catch {
            // A newer Shoebox may have changed the asset's shape: its schema says so first.
            if let schema = try? JSONDecoder().decode(SchemaOnly.self, from: data).schema { try SidecarStore.refuseNewer(schema, name) }
            throw ShoeboxError(.io, "sidecar \(name) is not valid: \(SidecarStore.describe(error))")
        }
    }

    private struct SchemaOnly: Decodable { var schema: Int }

    private static func refuseNewer(_ schema: Int, _ name: String) throws {
        guard schema <= Sidecar.currentSchema else {
            throw ShoeboxError(.newerVersion, "sidecar \(name) has schema \(schema), newer than this Shoebox (\(Sidecar.currentSchema)); upgrade Shoebox")
        }
    }

    static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let c): return c.debugDescription
        case DecodingError.keyNotFound(let k, _): return "missing field \(k.stringValue)"
        case DecodingError.typeMismatch(_, let c): return "wrong type at \(c.codingPath.map(\.stringValue).joined(separator: "."))"
        case DecodingError.valueNotFound(_, let c): return "missing value at \(c.codingPath.map(\.stringValue).joined(separator: "."))"
        default: return String(describing: error)
        }
    }
}
