import Foundation

/// `sidecars`: one sidecar per asset of the index, and no sidecar the index lacks. Those the
/// index lacks are read (up to `readLimit`): one that is not valid is named, since a rebuild
/// would drop it again (it moves it into `.shoebox/invalid-sidecars/` so that the advice works).
struct SidecarsMatchIndexCheck: DoctorCheck {
    static let readLimit = 200

    func findings(_ context: DoctorContext) throws -> [DoctorReport.Check] {
        let library = context.library
        var sidecarIDs = Set<String>()
        try? library.files.forEachEntry(in: LibraryLayout.sidecarsFolder) { entry, _ in
            if let name = entry.name, name.hasSuffix(".json"), !name.hasPrefix(".") { sidecarIDs.insert(String(name.dropLast(5))) }
        }
        let indexIDs = Set(try context.index.allIDs().map(\.rawValue))
        let noSidecar = indexIDs.subtracting(sidecarIDs).count
        let noRow = sidecarIDs.subtracting(indexIDs)
        if noSidecar == 0 && noRow.isEmpty {
            return [.ok("sidecars", "\(counted(sidecarIDs.count, "sidecar")), one per asset")]
        }
        let store = SidecarStore(library: library)
        let bad = noRow.sorted().prefix(Self.readLimit).compactMap { id -> BadSidecar? in
            if case .failure(let b) = store.readOne(id + ".json") { return b } else { return nil }
        }
        var detail = "\(noSidecar) assets without a sidecar, \(noRow.count) sidecars not in the index"
        let rebuild = "shoebox --library \(shellQuote(library.root.path)) rebuild"
        guard !bad.isEmpty else { return [.problem("sidecars", detail, fix: rebuild)] }
        detail += "; \(bad.count) not valid: " + bad.prefix(3).map { "\($0.path): \($0.reason)" }.joined(separator: "; ")
            + (bad.count > 3 ? "; …" : "")
        if bad.allSatisfy(\.newerSchema) {
            return [.problem("sidecars", detail + ". Upgrade Shoebox to read them")]
        }
        return [.problem("sidecars", detail + ". `rebuild` moves those into \(SidecarStore.quarantineFolder)/ (nothing is deleted) and indexes their files again",
                         fix: rebuild)]
    }
}

/// `journal` (only when there is one): a scan was interrupted; the next one replays it.
struct InterruptedJournalCheck: DoctorCheck {
    func findings(_ context: DoctorContext) throws -> [DoctorReport.Check] {
        guard context.library.files.exists(LibraryLayout.statePath(ScanJournal.name)) else {
            return []
        }
        return [.warning("journal", "an interrupted scan left a journal; the next scan replays it", fix: context.scanCommand)]
    }
}
