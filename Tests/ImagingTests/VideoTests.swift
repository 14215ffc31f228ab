import Foundation
import Testing
@testable import Imaging
import Metadata
import TestSupport

/// A movie's poster frame, upright by the track's display matrix (a phone held upright records
/// landscape frames and a 90° rotation).
@Suite("video poster frames", .enabled(if: Fixtures.available))
struct VideoTests {
    let dir: URL
    let upright: URL
    init() throws {
        dir = try Fixtures.folder()
        upright = dir.appendingPathComponent("upright.png")
        try Fixtures.run("convert", [Fixtures.photo("path.jpg"), "-resize", "208x320!", upright.path])
    }

    /// A 2-second H.264 movie of the upright picture stored turned as orientation `o` says,
    /// tagged with the rotation a player must apply (checked against ffmpeg's own autorotate
    /// in `ffmpegAgrees`).
    func movie(_ o: Int, rotate: Int, ext: String) throws -> URL {
        let stored = dir.appendingPathComponent("stored\(o).png")
        try Fixtures.run("convert", [upright.path] + Fixtures.inverseTurn[o]! + [stored.path])
        let url = dir.appendingPathComponent("rot\(rotate).\(ext)")
        try Fixtures.run("ffmpeg", ["-v", "error", "-y", "-loop", "1", "-i", stored.path, "-t", "2", "-r", "10",
                                    "-c:v", "libx264", "-pix_fmt", "yuv420p", "-crf", "12", url.path])
        // exiftool writes the track header's matrix as a phone does (Rotation=90: turn clockwise
        // to show); FFmpeg 5.1's own `-metadata:s:v rotate=` is dropped when encoding and
        // written with the opposite sign when stream-copying.
        if rotate != 0 { try Fixtures.run("exiftool", ["-q", "-overwrite_original", "-Rotation=\(rotate)", url.path]) }
        return url
    }

    @Test("rotate=90/180/270 (and none) give an upright poster frame of the right shape and content",
          arguments: [(1, 0, "mp4"), (6, 90, "mp4"), (3, 180, "mov"), (8, 270, "mov")])
    func rotation(o: Int, rotate: Int, ext: String) throws {
        let url = try movie(o, rotate: rotate, ext: ext)
        let truth = try Fixtures.reference(upright)
        let d = try Fixtures.decode(url, ext == "mp4" ? .mp4 : .mov)
        #expect(d.image.width == 208 && d.image.height == 320, "rotate \(rotate): \(d.image.width)×\(d.image.height)")
        #expect(d.fullWidth == 208 && d.fullHeight == 320)
        let difference = Fixtures.mad(d.image, truth)
        #expect(difference < 8, "rotate \(rotate): mean difference \(difference)")
        #expect(!d.damaged)
        // 10 % of 2 s is earlier than 0.5 s: the frame at 0.2 s.
        if case .videoFrame(let seconds) = d.source { #expect(abs(seconds - 0.2) < 0.11, "\(seconds)") }
        else { Issue.record("source \(d.source)") }
    }

    @Test("an HEVC MOV (what a Live Photo's movie is) rotated 90° decodes upright")
    func hevcMOV() throws {
        let stored = dir.appendingPathComponent("stored6.png")
        try Fixtures.run("convert", [upright.path] + Fixtures.inverseTurn[6]! + [stored.path])
        let url = dir.appendingPathComponent("live.mov")
        try Fixtures.run("ffmpeg", ["-v", "error", "-y", "-loop", "1", "-i", stored.path, "-t", "1", "-r", "15",
                                    "-c:v", "libx265", "-x265-params", "log-level=error", "-pix_fmt", "yuv420p", "-tag:v", "hvc1", url.path])
        try Fixtures.run("exiftool", ["-q", "-overwrite_original", "-Rotation=90", url.path])
        let d = try Fixtures.decode(url, .mov)
        #expect(d.image.width == 208 && d.image.height == 320)
        #expect(Fixtures.mad(d.image, try Fixtures.reference(upright)) < 8)
    }

    @Test("ffmpeg's autorotate of the test movie is upright too, so the tag means what the test assumes")
    func ffmpegAgrees() throws {
        let url = try movie(6, rotate: 90, ext: "mp4")
        let frame = dir.appendingPathComponent("ffmpeg.png")
        try Fixtures.run("ffmpeg", ["-v", "error", "-y", "-ss", "0.2", "-i", url.path, "-frames:v", "1", frame.path])
        #expect(Fixtures.mad(try Fixtures.reference(frame), try Fixtures.reference(upright)) < 8)
        #expect(Fixtures.mad(try Fixtures.reference(frame), try Fixtures.decode(url, .mp4).image) < 3)
    }

    @Test("decoding reads the descriptor with pread only: its offset is left where the caller had it")
    func descriptorOffset() throws {
        let movie = try movie(1, rotate: 0, ext: "mp4")
        let jpeg = dir.appendingPathComponent("still.jpg"), heic = dir.appendingPathComponent("still.heic")
        try Fixtures.run("convert", [upright.path, jpeg.path])
        try Fixtures.run("heif-enc", ["-q", "80", jpeg.path, "-o", heic.path])
        for (url, format) in [(movie, MediaFormat.mp4), (jpeg, .jpeg), (heic, .heic)] {
            let fd = open(url.path, O_RDONLY)
            defer { close(fd) }
            #expect(lseek(fd, 7, SEEK_SET) == 7)
            _ = try ImageDecoder.decode(fileDescriptor: fd, name: url.lastPathComponent, format: format, minLongSide: 256)
            #expect(lseek(fd, 0, SEEK_CUR) == 7, "\(url.lastPathComponent)")
        }
    }

    @Test("a movie without a video stream says so")
    func audioOnly() throws {
        let url = dir.appendingPathComponent("sound.mp4")
        try Fixtures.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=1", "-c:a", "aac", url.path])
        let error = try #require(throws: ImagingError.self) { try Fixtures.decode(url, .mp4) }
        #expect(error.code == .noVideoStream)
    }

    @Test("a truncated movie fails clearly or gives a frame, never crashes")
    func truncatedMovie() throws {
        let url = try movie(1, rotate: 0, ext: "mp4")
        let bytes = try Data(contentsOf: url)
        let cut = dir.appendingPathComponent("cut.mp4")
        try bytes.prefix(bytes.count / 3).write(to: cut)
        do {
            let d = try Fixtures.decode(cut, .mp4)
            #expect(d.image.width == 208)
        } catch let error as ImagingError {
            #expect(!error.description.contains("\n"))
        }
    }
}
