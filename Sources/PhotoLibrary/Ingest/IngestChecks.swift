import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `unindexable` (only when there are some): files a scan cannot index, which a scan cannot fix.
struct UnindexableFilesCheck: DoctorCheck {
    func findings(_ context: DoctorContext) throws -> [DoctorReport.Check] {
        let unindexable = try context.shared(IndexAgainstDisk.init).unindexable
        guard !unindexable.isEmpty else { return [] }
        let count = unindexable.count
        return [.warning("unindexable",
                         "\(count) file\(count == 1 ? "" : "s") cannot be indexed: \(sampleOfProblems(unindexable))\(count > 3 ? "; …" : "")",
                         fix: "\(context.scanCommand) names each; repair, convert or remove them")]
    }
}

/// `permissions`: every file and folder of the library readable.
struct ReadableFilesCheck: DoctorCheck {
    func findings(_ context: DoctorContext) throws -> [DoctorReport.Check] {
        let walked = context.walked
        let library = context.library
        let unreadable = walked.files.filter { access(library.url(for: $0.path).path, R_OK) != 0 }
        let problems = walked.problems.filter { $0.reason != FileProblem.nameNotUTF8 }
            + unreadable.map { FileProblem(path: $0.path, reason: "permission denied") }
        if problems.isEmpty {
            return [.ok("permissions", "every file and folder is readable")]
        }
        return [.problem("permissions", "\(problems.count) unreadable: \(sampleOfProblems(problems))",
                         fix: "chmod -R u+rX \(shellQuote(library.root.path))")]
    }
}
