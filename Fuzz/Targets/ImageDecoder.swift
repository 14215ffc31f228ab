// ImageDecoder (`ImageDecoder.decode`, module Imaging): the pixel decoders on a file the sniffer
// accepts — TurboJPEG with DCT scaling and the APP2 ICC walk, libpng's simplified API and the
// iCCP inflate, libheif with thumbnails and nclx/ICC colour, FFmpeg through the descriptor
// AVIOContext, raw previews — with lcms2 on whatever profile the file carries. The bytes are
// put in an unlinked temporary file, as the pipeline hands over a descriptor (memfd_create
// does not import into Swift). A thrown ImagingError is a correct
// answer when it is one line; limits are small so that a declared size cannot exhaust the
// fuzzer's 2 GiB.
import FuzzSupport
import Glibc
import Imaging
import Metadata

let fuzzLimits = DecodeLimits(maxPixels: 16_000_000, maxFileBytes: 16 << 20)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    guard let format = MetadataReader.sniff(Array(bytes.prefix(4096)), fileName: "fuzz.dng") else { return 0 }
    let fd = temporaryFile(data, size)
    defer { close(fd) }
    do {
        let decoded = try ImageDecoder.decode(fileDescriptor: fd, name: "fuzz", format: format, minLongSide: 256,
                                              limits: fuzzLimits)
        precondition(decoded.image.pixels.count == decoded.image.width * decoded.image.height * 3)
        // The small thumbnail and the hash on whatever came out.
        let small = Downsample.area(decoded.image, longSide: 64)
        _ = PerceptualHash.of(small)
    } catch let e as ImagingError {
        precondition(!e.description.contains("\n") && !e.problem.isEmpty, "ImagingError not one line: \(e.description.debugDescription)")
    } catch {
        preconditionFailure("not an ImagingError: \(error)")
    }
    return 0
}
