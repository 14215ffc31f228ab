import CHeif
#if canImport(Glibc)
import Glibc
#endif

/// libheif reading the caller's descriptor with `pread` at a position of its own (the
/// descriptor's offset is never used, no path is opened). libheif then reads the boxes and the
/// items it decodes, not the whole file: a 30-frame burst costs its primary frame's data, not
/// every frame's twice over (once read into memory here, once copied by
/// `heif_context_read_from_memory`: 80 MB more for a 40 MB burst, measured).
final class HEIFFileReader {
    let fd: Int32
    let size: Int64
    var position: Int64 = 0
    /// libheif keeps the pointer for the context's lifetime: allocated, not a stored struct
    /// (whose address Swift does not keep stable).
    let reader: UnsafeMutablePointer<heif_reader>

    init(fd: Int32, size: Int64) {
        self.fd = fd
        self.size = size
        reader = .allocate(capacity: 1)
        reader.initialize(to: heif_reader(
            reader_api_version: 1,
            get_position: { HEIFFileReader.of($0).position },
            read: { data, count, userdata in
                let io = HEIFFileReader.of(userdata)
                var done = 0
                while done < count {
                    let n = pread(io.fd, data! + done, count - done, off_t(io.position))
                    if n < 0 && errno == EINTR { continue }
                    if n <= 0 { return 1 }   // an error, or the file shrank under us
                    done += n
                    io.position += Int64(n)
                }
                return 0
            },
            seek: { position, userdata in
                let io = HEIFFileReader.of(userdata)
                guard position >= 0, position <= io.size else { return 1 }
                io.position = position
                return 0
            },
            wait_for_file_size: { target, userdata in
                target <= HEIFFileReader.of(userdata).size ? heif_reader_grow_status_size_reached : heif_reader_grow_status_size_beyond_eof
            }))
    }

    deinit { reader.deallocate() }

    var userdata: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    private static func of(_ userdata: UnsafeMutableRawPointer?) -> HEIFFileReader {
        Unmanaged<HEIFFileReader>.fromOpaque(userdata!).takeUnretainedValue()
    }
}
