import Foundation

/// A file of `.shoebox/sidecars/` that gives no asset: not JSON, a field missing, a path leading
/// out, an id other than its name says, or a schema newer than this Shoebox.
public struct BadSidecar: Error, Sendable, Equatable {
    /// Its name in `.shoebox/sidecars/`.
    public var name: String
    public var reason: String
    /// Written by a newer Shoebox: valid there, so never moved aside (upgrading reads it).
    public var newerSchema: Bool

    /// The library-relative path, for messages.
    public var path: String { ".shoebox/sidecars/" + name }
}

extension SidecarStore {
    /// Where `rebuild` moves sidecars that cannot be read: out of the way of every rebuild to
    /// come (each would drop them again, and `doctor` would ask for one more), never deleted.
    static let quarantineFolder = ".shoebox/invalid-sidecars"

    /// Every sidecar on disk, and those that give no asset. The folder is opened once and each
    /// file read from it (a rebuild may read a million).
    func readAll() -> (valid: [Sidecar], bad: [BadSidecar]) {
        var read: [(name: String, result: Result<Sidecar, BadSidecar>)] = []
        try? library.files.forEachEntry(in: LibraryLayout.sidecarsFolder) { entry, folder in
            guard let name = entry.name, name.hasSuffix(".json"), !name.hasPrefix(".") else { return }
            read.append((name, parse(name) {
                try library.files.contents(named: name, inFolder: folder, shownAs: LibraryLayout.sidecarsFolder + "/" + name)
            }))
        }
        var valid: [Sidecar] = []
        var bad: [BadSidecar] = []
        for (_, result) in read.sorted(by: { $0.name < $1.name }) {
            switch result {
            case .success(let sidecar): valid.append(sidecar)
            case .failure(let problem): bad.append(problem)
            }
        }
        return (valid, bad)
    }

    /// The sidecar `name`, or why it gives no asset.
    func readOne(_ name: String) -> Result<Sidecar, BadSidecar> {
        parse(name) { try library.files.contents(of: LibraryLayout.sidecarsFolder + "/" + name) }
    }

    /// The sidecar `name` from the bytes `load` gives (never through a link), or why it gives no asset.
    private func parse(_ name: String, _ load: () throws -> Data?) -> Result<Sidecar, BadSidecar> {
        do {
            guard let data = try load() else {
                return .failure(BadSidecar(name: name, reason: "vanished while it was read", newerSchema: false))
            }
            let sidecar = try decode(data, name: name)
            guard sidecar.asset.id.rawValue + ".json" == name else {
                return .failure(BadSidecar(name: name, reason: "holds the id \(sidecar.asset.id), not the one its name says", newerSchema: false))
            }
            return .success(sidecar)
        } catch let e as ShoeboxError {
            return .failure(BadSidecar(name: name, reason: e.message, newerSchema: e.code == .newerVersion))
        } catch {
            return .failure(BadSidecar(name: name, reason: "cannot be read: \(error)", newerSchema: false))
        }
    }

    /// Moves a bad sidecar into `.shoebox/invalid-sidecars/` (a free name there: never over an
    /// earlier one). Returns where it went, relative to the library.
    func quarantine(_ bad: BadSidecar) throws -> String {
        let stem = (bad.name as NSString).deletingPathExtension
        for n in 1...1000 {
            let target = "\(SidecarStore.quarantineFolder)/\(n == 1 ? stem : "\(stem) \(n)").json"
            do {
                try library.files.move(bad.path, to: target)
                return target
            } catch let e as ShoeboxError where e.code == .alreadyExists {
                continue
            }
        }
        throw ShoeboxError(.io, "no free name for \(bad.path) in \(SidecarStore.quarantineFolder)")
    }
}

extension Library {
    /// What `rebuild` does before it reads the sidecars: a sidecar that is missing or not valid
    /// is written again from the index being replaced, when that index can still be read and
    /// knows the asset (its id is kept); an invalid one is moved into `.shoebox/invalid-sidecars/`
    /// first. Returns the sidecars to load, the problems to report, and how many were rewritten.
    func repairSidecars() -> (sidecars: [Sidecar], problems: [FileProblem], rewritten: Int) {
        let store = SidecarStore(library: self)
        var (valid, bad) = store.readAll()
        let old = OldIndex(library: self)
        var problems = bad.map { b -> FileProblem in
            // A newer Shoebox's sidecar is valid there: left for the upgrade to read.
            guard !b.newerSchema else { return FileProblem(path: b.path, reason: b.reason) }
            do { return FileProblem(path: b.path, reason: "\(b.reason); moved to \(try store.quarantine(b))") } catch {
                return FileProblem(path: b.path, reason: "\(b.reason); cannot be moved aside: \(error)")
            }
        }
        // Never over a newer Shoebox's sidecar: its id is taken.
        let taken = Set(valid.map(\.asset.id.rawValue)).union(bad.filter(\.newerSchema).map { String($0.name.dropLast(5)) })
        var rewritten = 0
        let missing = old.assets(notIn: taken)
        // In batches, each flushed once: a wiped sidecar folder may mean a million of them.
        for start in stride(from: 0, to: missing.count, by: 500) {
            let batch = Array(missing[start..<min(missing.count, start + 500)])
            do { try store.writeBatch(batch) } catch {
                problems.append(FileProblem(path: ".shoebox/sidecars", reason: "cannot write \(batch.count) sidecars again from the index: \(error)"))
                continue
            }
            valid += batch.map(Sidecar.init(asset:))
            rewritten += batch.count
        }
        return (valid, problems, rewritten)
    }
}

/// The index `rebuild` replaces, read for what the sidecars lack; nothing when it cannot be read
/// (a damaged index is why many rebuilds run).
private struct OldIndex {
    let library: Library

    func assets(notIn ids: Set<String>) -> [Asset] {
        guard library.files.exists(LibraryLayout.statePath(library.indexURL.lastPathComponent)),
              let index = try? Index(library: library),
              let all = try? index.allIDs() else { return [] }
        defer { try? index.close() }
        return all.filter { !ids.contains($0.rawValue) }.compactMap { id in
            guard let asset = try? index.asset(id: id), LibraryPath.isValid(asset.path) else { return nil }
            return asset
        }
    }
}
