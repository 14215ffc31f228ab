import Foundation
import TestSupport
import XCTest

/// Two front ends on one library (the web page and a terminal): a reader takes no lock, so it
/// may read the state just before another process starts a new session and removes the old
/// list. The reader must then read the new session, never call the session damaged.
final class TidyConcurrentReaderTests: XCTestCase {
    func testAReaderDuringNewSessionsNeverSeesADamagedSession() throws {
        let t = try Tidying.roll()
        _ = try t.status()
        let stop = DispatchTime.now() + 8
        let filters = ["all", "largest", "screenshots", "year:2025"]
        nonisolated(unsafe) var starterFailure: String?
        let starter = Thread {
            var n = 0
            while DispatchTime.now() < stop {
                let r = try? t.cli.run(["tidy", "filter", filters[n % filters.count]])
                if let r, r.status != 0 { starterFailure = r.stderr; return }
                n += 1
            }
        }
        starter.start()
        var reads = 0
        while DispatchTime.now() < stop {
            let r = try t.cli.run(["tidy", "next", "--json"])
            XCTAssertEqual(r.status, 0, "read \(reads): \(r.stderr)")
            if r.status != 0 { break }
            reads += 1
        }
        while starter.isExecuting { usleep(50_000) }
        XCTAssertNil(starterFailure)
        XCTAssertGreaterThan(reads, 5)
    }
}
