import Foundation
import Imaging
import Metadata

// One decode in a process of its own, for the memory tests and BENCHMARKS.md: a test process
// runs other tests beside it and its peak only grows, so a 300 MB buffer there could hide under
// an earlier peak. Here the peak (VmHWM) is this decode's and the runtime's, nothing else's.
//
//   imaging-probe FILE FORMAT [MIN_LONG_SIDE]    (FORMAT: jpeg, png, heic; default side 960,
//                                                  what the analysis pipeline asks for)
// prints: width height fullWidth fullHeight source peakKiB   (source without spaces: boxReduced(factor:12))

func peakKiB() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return 0 }
    return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
}

let args = CommandLine.arguments
guard args.count >= 3, let format = MediaFormat(rawValue: args[2]) else {
    FileHandle.standardError.write(Data("usage: imaging-probe FILE jpeg|png|heic [MIN_LONG_SIDE]\n".utf8))
    exit(2)
}
let fd = open(args[1], O_RDONLY)
guard fd >= 0 else { FileHandle.standardError.write(Data("cannot open \(args[1])\n".utf8)); exit(1) }
do {
    let d = try ImageDecoder.decode(fileDescriptor: fd, name: args[1], format: format,
                                    minLongSide: args.count > 3 ? Int(args[3]) ?? 960 : 960)
    print(d.image.width, d.image.height, d.fullWidth, d.fullHeight,
          "\(d.source)".replacingOccurrences(of: " ", with: ""), peakKiB())
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
}
