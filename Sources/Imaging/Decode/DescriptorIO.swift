import CFFmpeg
#if canImport(Glibc)
import Glibc
#endif

/// FFmpeg reading a movie from the caller's descriptor through a custom AVIOContext: `pread`
/// at a position of our own, so the descriptor's offset is never used and no path is opened.
final class DescriptorIO {
    let fd: Int32
    let size: Int64
    var position: Int64 = 0
    private(set) var context: UnsafeMutablePointer<AVIOContext>?

    init(fd: Int32, size: Int64) throws {
        self.fd = fd
        self.size = size
        let bufferSize: Int32 = 64 << 10
        // FFmpeg owns (and may replace) the buffer: it must come from av_malloc.
        guard let buffer = av_malloc(Int(bufferSize))?.assumingMemoryBound(to: UInt8.self) else {
            throw ImagingError(.io, "", "out of memory")
        }
        let opaque = Unmanaged.passUnretained(self).toOpaque()
        context = avio_alloc_context(buffer, bufferSize, 0, opaque, { opaque, buf, count in
            let io = Unmanaged<DescriptorIO>.fromOpaque(opaque!).takeUnretainedValue()
            while true {
                let n = pread(io.fd, buf, Int(count), off_t(io.position))
                if n < 0 && errno == EINTR { continue }
                if n < 0 { return -errno }
                if n == 0 { return SHOEBOX_AVERROR_EOF }
                io.position += Int64(n)
                return Int32(n)
            }
        }, nil, { opaque, offset, whence in
            let io = Unmanaged<DescriptorIO>.fromOpaque(opaque!).takeUnretainedValue()
            if whence & SHOEBOX_AVSEEK_SIZE != 0 { return io.size }
            // AVSEEK_FORCE (a hint) is masked off; the rest is lseek's whence.
            let base: Int64
            switch whence & ~0x20000 {
            case SEEK_SET: base = 0
            case SEEK_CUR: base = io.position
            case SEEK_END: base = io.size
            default: return -1
            }
            let target = base + offset
            guard target >= 0 else { return -1 }
            io.position = target
            return target
        })
        if context == nil {
            av_free(buffer)
            throw ImagingError(.io, "", "out of memory")
        }
    }

    deinit {
        if context != nil {
            av_freep(&context!.pointee.buffer)
            avio_context_free(&context)
        }
    }
}
