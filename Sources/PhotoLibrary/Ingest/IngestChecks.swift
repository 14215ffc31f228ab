import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `unindexable` (only when there are some): files a scan cannot index, which a scan cannot fix;
/// what to do depends on why, so the reasons are counted with their advice.
struct UnindexableFilesCheck: DoctorCheck {
    func findings(_ context: DoctorContext) throws -> [DoctorReport.Check] {
        // Names and paths first: the few that need a rename or a move are named, not drowned.
        let found = try context.shared(IndexAgainstDisk.init).unindexable
        let unindexable = found.filter(\.isAboutTheName) + found.filter { !$0.isAboutTheName }
        guard !unindexable.isEmpty else { return [] }
        let count = unindexable.count
        return [.warning("unindexable",
                         "\(count) file\(count == 1 ? "" : "s") cannot be indexed (\(Self.advice(unindexable))): \(sampleOfProblems(unindexable))\(count > 3 ? "; …" : ""); the scan names each",
                         fix: context.scanCommand)]
    }

    /// "300 empty: nothing to index, delete them or copy them again from where they came from;
    /// 1 …": each kind of reason with its count and what helps.
    static func advice(_ problems: [FileProblem]) -> String {
        var empty = 0, longPath = 0, name = 0, other = 0
        for p in problems {
            if p.reason == FileProbe.emptyFile { empty += 1 }
            else if p.reason.hasPrefix(FileProblem.pathTooLongPrefix) { longPath += 1 }
            else if p.reason == FileProblem.nameNotUTF8 { name += 1 }
            else { other += 1 }
        }
        return [
            (empty, "empty (0 bytes): nothing to index; delete them, or copy them again from where they came from"),
            (longPath, "with a path too long for Linux to name: move them to a shorter path"),
            (name, "with a name that is not UTF-8: rename them"),
            (other, "damaged or not photos: repair, convert or remove them"),
        ].filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }.joined(separator: "; ")
    }
}

/// `permissions`: every file and folder of the library readable.
struct ReadableFilesCheck: DoctorCheck {
    func findings(_ context: DoctorContext) throws -> [DoctorReport.Check] {
        let walked = context.walked
        let library = context.library
        let unreadable = walked.files.filter { access(library.url(for: $0.path).path, R_OK) != 0 }
        let problems = walked.problems.filter { !$0.isAboutTheName }
            + unreadable.map { FileProblem(path: $0.path, reason: "permission denied") }
        if problems.isEmpty {
            return [.ok("permissions", "every file and folder is readable")]
        }
        return [.problem("permissions", "\(problems.count) unreadable: \(sampleOfProblems(problems))",
                         fix: "chmod -R u+rX \(shellQuote(library.root.path))")]
    }
}
