// HEIC items for libde265 (`HEIFItems.primary`): the `meta` box read whole and parsed (hdlr,
// pitm, iinf, iloc with file and idat extents, iref, ipco/ipma, hvcC, ispe, colr, irot, imir,
// clap, a grid's descriptor and tiles), then, when it takes the file, `ImageDecoder.decode` of
// it, which hands the data to libde265 directly (grid tiles on threads, planes cropped, reduced,
// turned) and falls back to libheif. Checked besides "no crash": a refusal or an ImagingError is
// one line; a decoded image has the size it says.
import FuzzSupport
import Glibc
import Imaging
import Metadata

let heifLimits = DecodeLimits(maxPixels: 4_000_000, maxFileBytes: 16 << 20)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let items: HEIFItems
    do {
        items = try HEIFItems.primary(MemoryByteSource(Array(UnsafeBufferPointer(start: data, count: size))))
    } catch {
        precondition(!error.description.contains("\n"), "refusal not one line: \(error.description.debugDescription)")
        return 0
    }
    precondition(items.width > 0 && items.height > 0 && items.width <= Int(Int32.max) && items.height <= Int(Int32.max)
                 && !items.tiles.isEmpty && items.columns >= 1)
    guard heifLimits.allows(width: items.width, height: items.height) else { return 0 }
    let fd = temporaryFile(data, size)
    defer { close(fd) }
    do {
        let decoded = try ImageDecoder.decode(fileDescriptor: fd, name: "fuzz", format: .heic, minLongSide: 256, limits: heifLimits)
        precondition(decoded.image.pixels.count == decoded.image.width * decoded.image.height * 3)
    } catch let e as ImagingError {
        precondition(!e.description.contains("\n") && !e.problem.isEmpty, "ImagingError not one line: \(e.description.debugDescription)")
    } catch {
        preconditionFailure("not an ImagingError: \(error)")
    }
    return 0
}
