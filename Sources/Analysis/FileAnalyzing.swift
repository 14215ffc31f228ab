import PhotoLibrary

/// What analysing one file gives: the record to store (faces not yet in people) and the
/// thumbnails made from the same decode.
public struct FileAnalysis: Sendable {
    public var analysis: AssetAnalysis
    public var thumbnails: [Int: [UInt8]]

    public init(analysis: AssetAnalysis, thumbnails: [Int: [UInt8]] = [:]) {
        self.analysis = analysis
        self.thumbnails = thumbnails
    }
}

/// Analyses one file: decode once, then every consumer. One instance per worker thread (face
/// detectors keep per-thread state). The runner opens the file (confined) and hands over the
/// descriptor; the analyser never opens a path.
public protocol FileAnalyzing {
    func analyze(_ asset: Asset, fileDescriptor: Int32) -> FileAnalysis
}
