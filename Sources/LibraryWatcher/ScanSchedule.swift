import Foundation

/// When the watcher scans the whole library and purges Recently Deleted of its own accord: a
/// safety scan every `[watch] safety_scan_minutes` (sooner after a batch that failed), retries of
/// a failing scan after 5, 10, 20, 40 s and then every minute, and a purge after the first scan
/// and hourly. Pure: the time is passed in.
struct ScanSchedule {
    /// Seconds between safety scans; nil for none.
    let safetyInterval: Double?
    private(set) var nextSafetyScan: Date?
    private(set) var nextPurge: Date?
    /// Scans that failed in a row.
    private(set) var failedScans = 0
    /// How many had failed in a row before the last scan that ended well: said once, as a recovery.
    private(set) var failedScansBefore = 0

    /// A failed batch is made good by a scan this soon.
    static let afterFailedBatch = 5.0
    static let purgeInterval = 3600.0

    init(safetyScanMinutes: Double) {
        safetyInterval = safetyScanMinutes > 0 ? safetyScanMinutes * 60 : nil
    }

    /// The earliest thing scheduled; nil when nothing is.
    var nextDeadline: Date? { [nextSafetyScan, nextPurge].compactMap { $0 }.min() }

    func isSafetyScanDue(at now: Date) -> Bool { nextSafetyScan.map { $0 <= now } ?? false }
    func isPurgeDue(at now: Date) -> Bool { nextPurge.map { $0 <= now } ?? false }

    /// A scan reconciled the library: purges start (once), and the next safety scan is due a
    /// full interval later.
    mutating func scanReconciled(at now: Date) {
        if nextPurge == nil { nextPurge = now }
        scanEnded(at: now)
    }

    /// A scan ended without an error of its own (reconciled, or stopped by a mass
    /// disappearance): the next safety scan is due a full interval later.
    mutating func scanEnded(at now: Date) {
        failedScansBefore = failedScans
        failedScans = 0
        nextSafetyScan = safetyInterval.map { now.addingTimeInterval($0) }
    }

    /// A scan failed: returns how long until the next try (5 s, doubling, at most a minute).
    mutating func scanFailed(at now: Date) -> Double {
        failedScans += 1
        let delay = min(60, 5 * pow(2, Double(min(failedScans, 5) - 1)))
        nextSafetyScan = now.addingTimeInterval(delay)
        return delay
    }

    /// A batch of changes could not be applied: a scan makes it good soon.
    mutating func batchFailed(at now: Date) {
        nextSafetyScan = now.addingTimeInterval(ScanSchedule.afterFailedBatch)
    }

    mutating func purged(at now: Date) {
        nextPurge = now.addingTimeInterval(ScanSchedule.purgeInterval)
    }
}
