import Foundation

/// Reads a photo's or video's headers: the Metadata module's readers, through libheif, libtiff,
/// LibRaw, libjpeg-turbo, libpng and libxml2. The library core (PhotoLibrary, Tracker) reads files
/// only through this, so the light `shoebox` binary links none of those libraries: it hands the
/// commands that read a file's headers to `shoebox-pixels` (docs/ARCHITECTURE.md, "Two executables").
public protocol MetadataReading: Sendable {
    init()
    /// What `source` says about itself (`MetadataReader.read`); throws `MetadataError`.
    func read(_ source: ByteSource, fileName: String, now: Date) throws -> MediaMetadata
    /// Nil when the file is structurally complete, else a short reason (`MetadataReader.incompleteness`).
    func incompleteness(_ source: ByteSource, format: MediaFormat) -> String?
    /// The largest XMP sidecar read.
    var sidecarMaximumSize: Int { get }
    /// Merges a sidecar's packet into `m` (`XMPSidecar.merge`); false when it is not XMP.
    func mergeSidecar(_ packet: [UInt8], into m: inout MediaMetadata, stamp: XMPSidecar) -> Bool
}

/// The process's metadata reader: the one a program installed, else Metadata's own when it is
/// linked into the process (found by name, so tests and benchmarks need no set-up), else none —
/// the light `shoebox`, whose commands that need one run in `shoebox-pixels`.
public enum MetadataReaders {
    /// Metadata's reader (`Metadata.CodecMetadataReader`, mangled: the runtime looks types up by
    /// their mangled names only), found in the running program's type metadata when linked.
    static let linkedTypeName = "8Metadata19CodecMetadataReaderV"

    // Written once, by `main`, before any other thread exists; read-only afterwards.
    nonisolated(unsafe) private static var installed: (any MetadataReading)?
    private static let linked: (any MetadataReading)? = (_typeByName(linkedTypeName) as? any MetadataReading.Type)?.init()

    /// Makes `reader` the process's reader (a program's `main`, before anything else runs).
    public static func install(_ reader: any MetadataReading) { installed = reader }

    /// True when this process can read files' headers.
    public static var isAvailable: Bool { installed != nil || linked != nil }

    /// The reader. A command that may need one checks `isAvailable` first and, without one, runs
    /// in `shoebox-pixels` before it changes anything; reaching here without one is a bug.
    public static var current: any MetadataReading {
        guard let reader = installed ?? linked else {
            preconditionFailure("no metadata reader in this program: the command should have run in shoebox-pixels")
        }
        return reader
    }
}
