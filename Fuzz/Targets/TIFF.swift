// TIFF through libtiff (`TIFFFile`'s client procs over memory): `TIFFReader.read` (IFD0, the EXIF
// and GPS directories, XMP, IPTC and Photoshop tags into the existing readers), the whole read as a
// scan does it for a file named .tif, then `ImageDecoder.decode` (libtiff's RGBA interface a band
// at a time into the box reduction, the ICC profile through lcms2) on an unlinked temporary file.
// Checked besides "no crash": every MetadataError and ImagingError is one line.
import FuzzSupport
import Glibc
import Imaging
@testable import Metadata

let tiffLimits = DecodeLimits(maxPixels: 16_000_000, maxFileBytes: 16 << 20)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let source = MemoryByteSource(bytes)
    if let m = reading({ try TIFFReader.read(source) }) {
        _ = (m.metadata.uprightWidth, m.exif?.takenAt?.iso8601, m.exif?.gps, m.xmp?.city)
    }
    guard let m = reading({ try MetadataReader.read(source, fileName: "fuzz.tif") }), m.format == .tiff,
          m.pixelWidth * m.pixelHeight <= tiffLimits.maxPixels else { return 0 }
    let fd = temporaryFile(data, size)
    defer { close(fd) }
    do {
        let decoded = try ImageDecoder.decode(fileDescriptor: fd, name: "fuzz", format: .tiff, minLongSide: 256, limits: tiffLimits)
        precondition(decoded.image.pixels.count == decoded.image.width * decoded.image.height * 3)
    } catch let e as ImagingError {
        precondition(!e.description.contains("\n") && !e.problem.isEmpty, "ImagingError not one line: \(e.description.debugDescription)")
    } catch {
        preconditionFailure("not an ImagingError: \(error)")
    }
    return 0
}
