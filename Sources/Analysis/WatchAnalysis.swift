import Foundation
import LibraryWatcher

/// The analysis pipeline as the watcher's idle work (`watch` and `serve`): one log line per stored batch.
public final class WatchAnalysis: IdleWork {
    public let analysis: BackgroundAnalysis
    private var saidFailure = false

    public init(_ analysis: BackgroundAnalysis) { self.analysis = analysis }

    public var nextStep: Date? { analysis.nextStep }

    public func filesChanged() { analysis.filesChanged() }

    public func step() throws -> String? {
        let r = try analysis.step()
        if let failure = analysis.startFailure, !saidFailure {
            saidFailure = true
            return "analysis is off: \(failure)"
        }
        guard r.analysed > 0 else { return nil }
        var line = "analysed \(r.analysed) file\(r.analysed == 1 ? "" : "s"), \(r.faces) face\(r.faces == 1 ? "" : "s")"
        for p in r.problems { line += "; \(p.path): \(p.reason)" }
        return line
    }
}
