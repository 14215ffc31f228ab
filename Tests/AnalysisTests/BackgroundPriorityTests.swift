import CShoeboxSystem
import Foundation
import Testing
@testable import Analysis

/// Background analysis (under `watch`) must never delay indexing: its worker threads run under
/// SCHED_IDLE (a core's leftovers only), `nice` 10 and the idle I/O class; the thread that
/// indexes keeps its priority.
@Suite struct BackgroundPriorityTests {
    struct Priority: Equatable { var policy: Int32; var nice: Int32; var ioClass: Int32 }

    static func priority() -> Priority {
        var policy: Int32 = -1, nice: Int32 = 0, io: Int32 = -1
        _ = shoebox_thread_priority(&policy, &nice, &io)
        return Priority(policy: policy, nice: nice, ioClass: io)
    }

    /// Runs `body` on a new thread and returns what it returned.
    static func onNewThread<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
        nonisolated(unsafe) var result: T?
        let done = DispatchSemaphore(value: 0)
        let thread = Thread { result = body(); done.signal() }
        thread.start()
        done.wait()
        return result!
    }

    @Test func aBackgroundWorkerIsIdleForCPUAndDisk() {
        let (lowered, worker) = Self.onNewThread { (AnalysisQueue.lowerPriority(), Self.priority()) }
        #expect(lowered)
        #expect(worker.policy == 5, "policy \(worker.policy) (5 is SCHED_IDLE, which Glibc exports only with _GNU_SOURCE)")
        #expect(worker.nice == 10)
        #expect(worker.ioClass == 3, "I/O class \(worker.ioClass) (3 is idle)")
        // Only that thread: the caller's (the indexer's) priority is untouched.
        let caller = Self.priority()
        #expect(caller.policy == SCHED_OTHER)
        #expect(caller.ioClass != 3)
    }
}
