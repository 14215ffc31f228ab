import NIOPosix

/// Index reads, file reads and decodes block: they run on a pool of threads of their own, never on
/// the event loops that accept connections (a slow decode must not stall every thumbnail).
enum Blocking {
    /// Four threads: a grid asks for many thumbnails at once, most of them cheap cache reads.
    static let pool: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: 4)
        pool.start()
        return pool
    }()

    static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await pool.runIfActive(body)
    }
}
