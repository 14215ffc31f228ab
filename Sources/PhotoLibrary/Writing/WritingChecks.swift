import Foundation
import GRDB

/// `sidecars`: one sidecar per asset of the index, and no sidecar the index lacks.
struct SidecarsMatchIndexCheck: DoctorCheck {
    func findings(_ context: DoctorContext) throws -> [DoctorReport.Check] {
        let library = context.library
        var sidecarIDs = Set<String>()
        try? library.files.forEachEntry(in: LibraryLayout.sidecarsFolder) { entry, _ in
            if let name = entry.name, name.hasSuffix(".json"), !name.hasPrefix(".") { sidecarIDs.insert(String(name.dropLast(5))) }
        }
        let indexIDs = Set(try context.index.read { db in try String.fetchAll(db, sql: "SELECT id FROM asset") })
        let noSidecar = indexIDs.subtracting(sidecarIDs).count
        let noRow = sidecarIDs.subtracting(indexIDs).count
        if noSidecar == 0 && noRow == 0 {
            return [.ok("sidecars", "\(sidecarIDs.count) sidecars, one per asset")]
        }
        return [.problem("sidecars", "\(noSidecar) assets without a sidecar, \(noRow) sidecars not in the index",
                         fix: "shoebox --library \(shellQuote(library.root.path)) rebuild")]
    }
}

/// `journal` (only when there is one): a scan was interrupted; the next one replays it.
struct InterruptedJournalCheck: DoctorCheck {
    func findings(_ context: DoctorContext) throws -> [DoctorReport.Check] {
        guard FileManager.default.fileExists(atPath: ScanJournal(library: context.library).url.path) else {
            return []
        }
        return [.warning("journal", "an interrupted scan left a journal; the next scan replays it", fix: context.scanCommand)]
    }
}
