import Curation
import Foundation
import Hummingbird
import PhotoLibrary

/// `GET /media/curation/share`: the selected originals as a download where the browser offers
/// no share sheet — one file as itself, several as a zip whose entries are *stored* (StoredZip),
/// so each comes out byte for byte the original. Every original is opened (and checked to be
/// the file the index knows) before the answer starts, so a photo gone since is one clear error,
/// not half an archive; then the archive is sent entry by entry, each in chunks: never the
/// whole archive, nor a whole video, in memory.
struct CurationShareDownload {
    let app: WebApp
    static let chunk = OriginalResponse.chunk

    func response(_ request: Request) async throws -> Response {
        let session = app.session
        let files = try await Blocking.run { () throws -> [(CurationSharedFile, OriginalFile)] in
            try Curation.sharedFiles(session).map { ($0, try session.openOriginal($0.asset)) }
        }
        if files.count == 1 {
            return try await OriginalResponse(app: app).response(files[0].0.asset, request: request, download: true)
        }
        var headers = HTTPFields()
        headers[.contentType] = "application/zip"
        headers[.cacheControl] = "no-store"
        let photos = files.filter { !$0.0.isCompanion }.count
        headers[.contentDisposition] = "attachment; filename=\"Curated photos (\(photos)).zip\""
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            var zip = StoredZip()
            for (file, original) in files {
                let size = Int(original.stat.size)
                let modified = Date(timeIntervalSince1970: Double(original.stat.mtimeNS) / 1e9)
                let crc = try await Blocking.run { try Self.crc(original, size: size, name: file.asset.path) }
                try await writer.write(ByteBuffer(bytes: zip.header(name: file.name, size: UInt64(size), crc: crc, modified: modified)))
                var sent: UInt32 = 0
                var offset = 0
                while offset < size {
                    let start = offset
                    let bytes = try await Blocking.run {
                        try withExtendedLifetime(original) {
                            try OriginalResponse.read(original.descriptor, at: start, count: min(Self.chunk, size - start), name: file.asset.path)
                        }
                    }
                    sent = StoredZip.crc32(bytes, continuing: sent)
                    try await writer.write(ByteBuffer(bytes: bytes))
                    offset += bytes.count
                }
                // Changed while it was sent: the download fails rather than hold a wrong copy.
                guard sent == crc else { throw ShoeboxError(.fileChanged, "\(file.asset.path) changed while it was being shared") }
            }
            try await writer.write(ByteBuffer(bytes: zip.finish()))
            try await writer.finish(nil)
        })
    }

    /// The CRC-32 of the file's `size` bytes (the zip's local header comes before them).
    static func crc(_ original: OriginalFile, size: Int, name: String) throws -> UInt32 {
        try withExtendedLifetime(original) {
            var crc: UInt32 = 0
            var offset = 0
            while offset < size {
                let bytes = try OriginalResponse.read(original.descriptor, at: offset, count: min(chunk, size - offset), name: name)
                crc = StoredZip.crc32(bytes, continuing: crc)
                offset += bytes.count
            }
            return crc
        }
    }
}
