import CLazyCodecs
import MetadataCore

/// libheif, libtiff and LibRaw, loaded the first time a HEIC, TIFF or camera raw file is read
/// (`CLazyCodecs`: linked, they cost every scan's start ~5.5 ms). Each reader calls its check
/// before the first call into its library.
enum LazyCodecs {
    /// libheif loaded, and initialised once for the life of the process (its init is reference
    /// counted and process wide; never `heif_deinit`, so other modules may init/deinit freely).
    static func heif() throws { if let failure = heifFailure { throw failure } }
    static func tiff() throws { if let failure = tiffFailure { throw failure } }
    static func libraw() throws { if let failure = librawFailure { throw failure } }

    private static let heifFailure: MetadataError? = {
        if let failure = failure("libheif", shoebox_heif_open(), shoebox_heif_failure()) { return failure }
        _ = shoebox_heif_init(nil)
        return nil
    }()
    private static let tiffFailure = failure("libtiff", shoebox_tiff_open(), shoebox_tiff_failure())
    private static let librawFailure = failure("LibRaw", shoebox_libraw_open(), shoebox_libraw_failure())

    private static func failure(_ library: String, _ opened: Int32, _ why: UnsafePointer<CChar>?) -> MetadataError? {
        guard opened != 1 else { return nil }
        return MetadataError(.io, "\(library) cannot be loaded: \(why.map { String(cString: $0) } ?? "unknown reason")")
    }
}
