import Foundation

/// What `shoebox doctor` found: one entry per finding, in the order it prints them
/// (`DoctorReportJSON` is its public JSON shape).
public struct DoctorReport: Sendable {
    public enum Status: String, Sendable { case ok, warning, problem }
    public struct Check: Sendable {
        public var name: String
        public var status: Status
        public var detail: String
        /// A command that fixes it, when there is one.
        public var fix: String?
        /// What fixes it as a value, which each front end words (the CLI as the `fix` command),
        /// for findings whose module names no command.
        public var remedy: (any Remedy)?

        /// For a feature module's own findings, which the CLI adds to the report.
        public init(name: String, status: Status, detail: String, fix: String?, remedy: (any Remedy)? = nil) {
            self.name = name
            self.status = status
            self.detail = detail
            self.fix = fix
            self.remedy = remedy
        }
    }
    public var checks: [Check] = []
    public var healthy: Bool { !checks.contains { $0.status == .problem } }
}

extension Library {
    /// The checks `doctor` runs, in the order it prints them; each subsystem provides its own.
    static let doctorChecks: [any DoctorCheck] = [
        OwnedPathsCheck(),
        ConfigCheck(),
        IndexMatchesDiskCheck(),
        SidecarsMatchIndexCheck(),
        InterruptedJournalCheck(),
        UnindexableFilesCheck(),
        NotIndexedFilesCheck(),
        ReadableFilesCheck(),
        InotifyLimitCheck(),
        DiskSpaceCheck(),
        AlbumLinksCheck(),
        RecentlyDeletedCheck(),
    ]

    /// `shoebox doctor`: checks that cost no file reads — index against disk, sidecars against
    /// index, unreadable files, inotify limits, free space, symlink support, albums, Recently
    /// Deleted —, then the features' (`LibrarySession.doctor()` gives them).
    public func doctor(featureChecks: [any DoctorCheck] = []) throws -> DoctorReport {
        var report = DoctorReport()
        do {
            let context = try DoctorContext(library: self)
            for check in Library.doctorChecks + featureChecks {
                report.checks += try check.findings(context)
            }
        } catch let damage as ShoeboxError where damage.code == .indexDamaged {
            // The other checks read the index: what can be said without it, and the way out.
            report.checks = OwnedPathsCheck.findings(self) + ConfigCheck.findings(self)
                + [{ var c = DoctorReport.Check.problem("index", damage.description, fix: "shoebox --library \(shellQuote(root.path)) rebuild")
                     c.remedy = damage.remedy
                     return c }()]
        }
        return report
    }
}

/// "1.2 GB", decimal units as file managers show them.
public func formatBytes(_ bytes: Int64) -> String {
    let units = ["B", "kB", "MB", "GB", "TB"]
    var value = Double(bytes)
    var unit = 0
    while value >= 1000 && unit < units.count - 1 { value /= 1000; unit += 1 }
    return unit == 0 ? "\(bytes) B" : String(format: "%.1f %@", value, units[unit])
}
