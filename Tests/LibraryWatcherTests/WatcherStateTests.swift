import Foundation
@testable import LibraryWatcher
import PhotoLibrary
import Testing

/// The watcher loop's state machines, driven with synthetic events and times: no inotify, no
/// disk, no sleeping.
private let t0 = Date(timeIntervalSinceReferenceDate: 1_000_000)
private func at(_ seconds: Double) -> Date { t0.addingTimeInterval(seconds) }

struct RenamePairingTests {
    @Test func halvesWithTheSameCookiePairWhateverElseComesBetween() {
        var pairing = RenamePairing(window: 0.05)
        pairing.movedFrom("a/1.jpg", cookie: 7, isFolder: false, at: at(0))
        pairing.movedFrom("a/2.jpg", cookie: 8, isFolder: false, at: at(0.01))
        #expect(pairing.movedTo(cookie: 8)?.path == "a/2.jpg")
        #expect(pairing.movedTo(cookie: 7)?.path == "a/1.jpg")
        #expect(pairing.waiting.isEmpty && pairing.nextDeadline == nil)
    }

    @Test func aSecondHalfWithoutAFirstCameFromOutside() {
        var pairing = RenamePairing(window: 0.05)
        pairing.movedFrom("a/1.jpg", cookie: 7, isFolder: false, at: at(0))
        #expect(pairing.movedTo(cookie: 9) == nil)
        #expect(pairing.waiting.map(\.path) == ["a/1.jpg"])
    }

    @Test func aFirstHalfLeftAloneExpiresAtItsDeadlineAsAMoveOut() {
        var pairing = RenamePairing(window: 0.05)
        pairing.movedFrom("a/1.jpg", cookie: 7, isFolder: false, at: at(0))
        pairing.movedFrom("b", cookie: 8, isFolder: true, at: at(0.03))
        #expect(pairing.nextDeadline == at(0.05))
        #expect(pairing.expired(at: at(0.049)).isEmpty)
        let first = pairing.expired(at: at(0.05))
        #expect(first.map(\.path) == ["a/1.jpg"])
        #expect(first.map(RenamePairing.change(movedOut:)) == [.removed("a/1.jpg")])
        #expect(pairing.nextDeadline.map { abs($0.timeIntervalSince(at(0.08))) < 1e-6 } == true)
        // Too late: the second half of an expired rename is an arrival from outside.
        #expect(pairing.movedTo(cookie: 7) == nil)
        #expect(pairing.expired(at: at(1)).map(RenamePairing.change(movedOut:)) == [.folderRemoved("b")])
    }

    @Test func aPairedRenameMeansWhatItsEndsAreForTheIndex() {
        #expect(RenamePairing.change(from: "a/1.jpg", to: "b/1.jpg", isFolder: false) == .moved(from: "a/1.jpg", to: "b/1.jpg"))
        #expect(RenamePairing.change(from: "a/1.jpg.part", to: "a/1.jpg", isFolder: false) == .arrived("a/1.jpg"))
        #expect(RenamePairing.change(from: "a/1.jpg", to: "a/.1.jpg", isFolder: false) == .removed("a/1.jpg"))
        #expect(RenamePairing.change(from: "a/1.jpg", to: "a/1.xmp", isFolder: false) == .removed("a/1.jpg"))
        #expect(RenamePairing.change(from: "a/1.tmp", to: "a/2.tmp", isFolder: false) == nil)
        #expect(RenamePairing.change(from: "2024", to: "Trips/2024", isFolder: true) == .folderMoved(from: "2024", to: "Trips/2024"))
        #expect(RenamePairing.change(from: ".staging", to: "Trips", isFolder: true) == .folderArrived("Trips"))
        #expect(RenamePairing.change(from: "Recently Deleted/files/x", to: "x", isFolder: true) == .folderArrived("x"))
        #expect(RenamePairing.change(from: "Trips", to: "Tracker/Trips", isFolder: true) == .folderRemoved("Trips"))
        // A folder may have a name a file could not ("notes.txt/"), and Collages/ is indexed.
        #expect(RenamePairing.change(from: "notes.txt", to: "Collages/notes.txt", isFolder: true)
                == .folderMoved(from: "notes.txt", to: "Collages/notes.txt"))
    }

    @Test func forgettingDropsEveryHalf() {
        var pairing = RenamePairing(window: 0.05)
        pairing.movedFrom("a/1.jpg", cookie: 7, isFolder: false, at: at(0))
        pairing.removeAll()
        #expect(pairing.expired(at: at(10)).isEmpty && pairing.movedTo(cookie: 7) == nil)
    }
}

struct RemovalHoldTests {
    @Test func aRemovalWaitsItsGraceThenIsLetGoInOrder() {
        var hold = RemovalHold(grace: 0.3, limit: 2)
        hold.hold(.removed("a.jpg"), at: at(0))
        hold.hold(.folderRemoved("b"), at: at(0.1))
        #expect(hold.due == at(0.4))
        #expect(hold.release(at: at(0.39)).isEmpty)
        #expect(hold.release(at: at(0.4)) == [.removed("a.jpg"), .folderRemoved("b")])
        #expect(hold.due == nil && hold.held.isEmpty && hold.release(at: at(5)).isEmpty)
    }

    @Test func aStreamOfRemovalsIsLetGoNoLaterThanTheLimitAfterTheFirst() {
        var hold = RemovalHold(grace: 0.3, limit: 2)
        var released: [LiveUpdater.Change] = []
        var firstRelease: Double?
        // A disk going away: one removal every 0.2 s, each within the grace of the last.
        for i in 0..<15 {
            let time = Double(i) * 0.2
            hold.hold(.removed("f\(i).jpg"), at: at(time))
            let out = hold.release(at: at(time))
            if !out.isEmpty && firstRelease == nil { firstRelease = time }
            released += out
        }
        #expect(firstRelease.map { abs($0 - 2.0) < 1e-9 } == true)
        #expect(released.count == 11)
        // The limit counts from the first removal of the new batch.
        #expect(hold.due.map { $0 <= at(2.0 + 0.2 + 2) } == true)
    }

    @Test func afterALetGoTheNextRemovalStartsAFreshWait() {
        var hold = RemovalHold(grace: 0.3, limit: 2)
        hold.hold(.removed("a.jpg"), at: at(0))
        _ = hold.release(at: at(0.3))
        hold.hold(.removed("b.jpg"), at: at(5))
        #expect(hold.due == at(5.3))
    }

    @Test func forgettingDropsWhatWasHeld() {
        var hold = RemovalHold(grace: 0.3, limit: 2)
        hold.hold(.removed("a.jpg"), at: at(0))
        hold.removeAll()
        #expect(hold.due == nil && hold.release(at: at(10)).isEmpty)
    }
}

struct RecheckScheduleTests {
    @Test func aFileStillBeingWrittenIsLookedAtAgainLessAndLessOften() {
        var schedule = RecheckSchedule()
        var waits: [Double] = []
        var now = at(0)
        schedule.record(arrived: ["big.mov"], stillBeingWritten: ["big.mov"], at: now)
        for _ in 0..<7 {
            let due = schedule.nextDue!
            waits.append(due.timeIntervalSince(now))
            #expect(schedule.due(at: due.addingTimeInterval(-0.001)).isEmpty)
            #expect(schedule.due(at: due) == ["big.mov"])
            now = due
            schedule.record(arrived: ["big.mov"], stillBeingWritten: ["big.mov"], at: now)
        }
        #expect(waits.map { ($0 * 1000).rounded() / 1000 } == [0.2, 0.4, 0.8, 1.6, 3.2, 5, 5])
        // Whole at last: no more re-checks.
        schedule.record(arrived: ["big.mov"], stillBeingWritten: [], at: now)
        #expect(schedule.isEmpty && schedule.nextDue == nil)
    }

    @Test func aDueRecheckIsNotHandedOutAgainWhileItsBatchIsOutstanding() {
        var schedule = RecheckSchedule()
        schedule.record(arrived: ["a.jpg"], stillBeingWritten: ["a.jpg"], at: at(0))
        #expect(schedule.due(at: at(0.2)) == ["a.jpg"])
        #expect(schedule.due(at: at(0.3)).isEmpty)
        // The batch failed: it comes round again a second later.
        #expect(schedule.due(at: at(1.2)) == ["a.jpg"])
    }

    @Test func anEventAboutTheFileCancelsItsRecheck() {
        var schedule = RecheckSchedule()
        schedule.record(arrived: ["a.jpg", "b.jpg"], stillBeingWritten: ["a.jpg", "b.jpg"], at: at(0))
        schedule.cancel("a.jpg")
        #expect(!schedule.isScheduled("a.jpg") && schedule.isScheduled("b.jpg"))
        #expect(schedule.due(at: at(1)) == ["b.jpg"])
        schedule.removeAll()
        #expect(schedule.due(at: at(100)).isEmpty)
    }

    @Test func filesThatArrivedWholeNeedNoRecheck() {
        var schedule = RecheckSchedule()
        schedule.record(arrived: ["a.jpg", "b.jpg"], stillBeingWritten: [], at: at(0))
        #expect(schedule.isEmpty)
    }
}

struct ScanScheduleTests {
    @Test func safetyScansFollowEachScanByTheConfiguredInterval() {
        var schedule = ScanSchedule(safetyScanMinutes: 60)
        #expect(schedule.nextDeadline == nil)
        schedule.scanReconciled(at: at(0))
        // Recently Deleted is purged right after the first scan, then hourly.
        #expect(schedule.isPurgeDue(at: at(0)))
        schedule.purged(at: at(0))
        #expect(!schedule.isPurgeDue(at: at(3599)) && schedule.isPurgeDue(at: at(3600)))
        #expect(!schedule.isSafetyScanDue(at: at(3599)) && schedule.isSafetyScanDue(at: at(3600)))
        schedule.scanReconciled(at: at(3600))
        #expect(schedule.nextSafetyScan == at(7200) && schedule.nextPurge == at(3600))
    }

    @Test func noSafetyScansWhenTurnedOff() {
        var schedule = ScanSchedule(safetyScanMinutes: 0)
        schedule.scanReconciled(at: at(0))
        schedule.purged(at: at(0))
        #expect(schedule.nextSafetyScan == nil && schedule.nextDeadline == at(3600))
    }

    @Test func aFailingScanIsRetriedSoonThenEveryMinuteAndItsRecoveryIsCounted() {
        var schedule = ScanSchedule(safetyScanMinutes: 60)
        let delays = (0..<7).map { i in schedule.scanFailed(at: at(Double(i) * 100)) }
        #expect(delays == [5, 10, 20, 40, 60, 60, 60])
        #expect(schedule.nextSafetyScan == at(660))
        schedule.scanReconciled(at: at(700))
        #expect(schedule.failedScansBefore == 7 && schedule.failedScans == 0)
        schedule.scanReconciled(at: at(800))
        #expect(schedule.failedScansBefore == 0)
    }

    @Test func aFailedBatchBringsTheSafetyScanForward() {
        var schedule = ScanSchedule(safetyScanMinutes: 60)
        schedule.scanReconciled(at: at(0))
        schedule.batchFailed(at: at(10))
        #expect(schedule.isSafetyScanDue(at: at(15)))
    }

    @Test func aScanStoppedByAMassDisappearanceDoesNotStartPurges() {
        var schedule = ScanSchedule(safetyScanMinutes: 60)
        schedule.scanEnded(at: at(0))
        #expect(schedule.nextPurge == nil && schedule.nextSafetyScan == at(3600))
    }
}

struct BurstGatheringTests {
    @Test func aFewEventsWaitOnlyTheSettleGap() {
        var burst = BurstGathering(threshold: 16, settle: 0.005, quiet: 0.03, limit: 2)
        burst.took(1, at: at(0))
        #expect(burst.nextLook(at: at(0)) == at(0.005))
        burst.took(14, at: at(0.004))
        #expect(burst.nextLook(at: at(0.004)) == at(0.009))
        #expect(burst.nextLook(at: at(0.009)) == nil)
    }

    @Test func aBurstWaitsForAQuietGapThenIsAppliedWhole() {
        var burst = BurstGathering(threshold: 16, settle: 0.005, quiet: 0.03, limit: 2)
        burst.took(40, at: at(0))
        #expect(burst.nextLook(at: at(0)) == at(0.03))
        burst.took(500, at: at(0.02))
        #expect(burst.nextLook(at: at(0.02)) == at(0.05))
        // Nothing came by the end of the quiet gap: apply the 540 events.
        #expect(burst.nextLook(at: at(0.05)) == nil)
        #expect(burst.count == 540)
    }

    @Test func anEndlessStreamIsAppliedNoLaterThanTheLimit() {
        var burst = BurstGathering(threshold: 16, settle: 0.005, quiet: 0.03, limit: 2)
        var applied: Double?
        for i in 0..<1000 {
            let time = Double(i) * 0.01
            burst.took(20, at: at(time))
            if burst.nextLook(at: at(time)) == nil { applied = time; break }
        }
        #expect(applied.map { abs($0 - 2.0) < 1e-9 } == true)
    }

    @Test func emptyTakesChangeNothing() {
        var burst = BurstGathering()
        burst.took(0, at: at(0))
        #expect(burst.count == 0 && burst.nextLook(at: at(0)) == nil)
    }
}
