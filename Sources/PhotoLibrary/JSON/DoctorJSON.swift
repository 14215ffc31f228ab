import Foundation

/// `doctor --json`. Public contract: `checks`, in the order `doctor` prints them, each with
/// `name`, `status` (ok|warning|problem), `detail`, and `fix` (a command) only when there is one.
public struct DoctorReportJSON: PublicJSONShape, Sendable {
    struct Check: Encodable, Sendable {
        var name: String
        var status: String
        var detail: String
        var fix: String?
    }
    var checks: [Check]

    public init(_ r: DoctorReport) {
        checks = r.checks.map { Check(name: $0.name, status: $0.status.rawValue, detail: $0.detail, fix: $0.fix) }
    }
}
