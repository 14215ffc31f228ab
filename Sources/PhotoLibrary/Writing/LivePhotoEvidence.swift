import Foundation
import MetadataCore

/// Whether a photo and a movie of the same name are the two halves of one Live Photo. A camera
/// leaves one of two marks: Apple's content identifier, equal in both files, or — for files
/// that lost it (exports, older libraries indexed before it was read) — a short movie that began
/// within seconds of the photo. Anything else (a 2005 clip that shares `IMG_0001`) stays apart.
enum LivePhotoEvidence {
    /// A Live Photo movie lasts about 3 s; a little more for slow-motion exports.
    static let maximumDuration: Double = 6
    /// How far apart the two files' times may be.
    static let tolerance: Double = 3

    static func pairs(photo: MediaMetadata, video: MediaMetadata) -> Bool {
        if let a = photo.contentIdentifier, let b = video.contentIdentifier {
            return a.caseInsensitiveCompare(b) == .orderedSame
        }
        guard let duration = video.duration, duration <= maximumDuration,
              let shot = photo.takenAt, let filmed = video.takenAt else { return false }
        return closeInTime(shot, filmed)
    }

    /// A RAW and a JPEG/HEIC of the same name are one shot when the camera stamped both with the
    /// same capture time (within 1 s; a raw file's time carries no offset, so wall clocks compare).
    static func sameShot(raw: MediaMetadata, photo: MediaMetadata) -> Bool {
        guard let a = raw.takenAt, let b = photo.takenAt, a.source == .exif || a.source == .xmp else { return false }
        let wallA = a.date.timeIntervalSince1970 + Double(a.utcOffsetSeconds ?? 0)
        let wallB = b.date.timeIntervalSince1970 + Double(b.utcOffsetSeconds ?? 0)
        return abs(wallA - wallB) <= 1
    }

    /// A photo's time without an offset is its wall clock read as UTC, so it is off from the
    /// movie's (UTC) by the unknown zone: any whole quarter hour within ±14 h is accepted then.
    static func closeInTime(_ shot: CaptureDate, _ filmed: CaptureDate) -> Bool {
        let delta = shot.date.timeIntervalSince(filmed.date)
        if abs(delta) <= tolerance { return true }
        guard shot.utcOffsetSeconds == nil || filmed.utcOffsetSeconds == nil, abs(delta) <= 14 * 3600 + tolerance
        else { return false }
        let quarter = 900.0
        return abs(delta - (delta / quarter).rounded() * quarter) <= tolerance
    }
}
