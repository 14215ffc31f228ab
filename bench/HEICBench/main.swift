// heic-bench: HEIC decoding figures for bench/heic.py, in one process (release build).
//
//     heic-bench decode FILE RUNS MIN_LONG_SIDE     CPU and wall ms of each ImageDecoder.decode
//     heic-bench thumbnails SIZE FILE…              each file to a SIZE-px JPEG thumbnail, two files at
//                                                   a time (beside `vipsthumbnail -s SIZE FILE…`)
//     heic-bench annexb FILE OUT                    the primary image's HEVC stream with start codes,
//                                                   for libde265-dec265 (a single coded image only)
// SHOEBOX_HEIC_LIBHEIF=1 in the environment decodes through libheif only (the path before).
import Foundation
import Imaging
import Metadata

func cpuSeconds() -> Double {
    var u = rusage()
    getrusage(RUSAGE_SELF.rawValue, &u)
    return Double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + Double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6
}

func now() -> Double { Date().timeIntervalSince1970 }

func decode(_ path: String, minLongSide: Int) throws -> DecodedImage {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { throw CocoaError(.fileNoSuchFile) }
    defer { close(fd) }
    return try ImageDecoder.decode(fileDescriptor: fd, name: path, format: .heic, minLongSide: minLongSide)
}

let args = Array(CommandLine.arguments.dropFirst())
switch args.first {
case "decode":
    let runs = Int(args[2])!, need = Int(args[3])!
    _ = try decode(args[1], minLongSide: need)   // page cache and libraries warm
    var cpu: [Double] = [], wall: [Double] = []
    for _ in 0..<runs {
        let c0 = cpuSeconds(), w0 = now()
        _ = try decode(args[1], minLongSide: need)
        cpu.append((cpuSeconds() - c0) * 1000)
        wall.append((now() - w0) * 1000)
    }
    print("{\"cpu_ms\": \(cpu.sorted()[runs / 2]), \"wall_ms\": \(wall.sorted()[runs / 2])}")
case "thumbnails":
    let size = Int(args[1])!
    let c0 = cpuSeconds(), w0 = now()
    let paths = Array(args.dropFirst(2))
    // Two files at a time, as the analysis pipeline decodes on both cores.
    DispatchQueue.concurrentPerform(iterations: 2) { worker in
        for path in paths.enumerated().filter({ $0.offset % 2 == worker }).map(\.element) {
            guard let d = try? decode(path, minLongSide: size),
                  (try? ThumbnailEncoder.jpeg(Downsample.area(d.image, longSide: size))) != nil else { fatalError("\(path) failed") }
        }
    }
    print("{\"cpu_s\": \(cpuSeconds() - c0), \"wall_s\": \(now() - w0)}")
case "annexb":
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: args[1])))
    let items = try HEIFItems.primary(MemoryByteSource(bytes))
    guard items.tiles.count == 1, let t = items.tiles.first else { fatalError("a grid: no single stream") }
    var out: [UInt8] = []
    for (stream, size) in [(t.parameterSets, 4), (t.data, t.lengthSize)] {
        var i = 0
        while i + size <= stream.count {
            let n = stream[i..<(i + size)].reduce(0) { $0 << 8 | Int($1) }
            out += [0, 0, 0, 1] + stream[(i + size)..<min(stream.count, i + size + n)]
            i += size + n
        }
    }
    try Data(out).write(to: URL(fileURLWithPath: args[2]))
default:
    FileHandle.standardError.write("usage: heic-bench decode FILE RUNS MIN_LONG_SIDE | thumbnails SIZE FILE… | annexb FILE OUT\n".data(using: .utf8)!)
    exit(2)
}
