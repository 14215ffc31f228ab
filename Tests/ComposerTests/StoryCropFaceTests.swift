import Composer
import Foundation
import TestSupport
import XCTest

/// Story bands over real group photos (`test-data/faces`, faces boxed by hand): whatever the
/// number of bands, every face is whole in its band or not in it, and the largest face is whole,
/// whenever some window of the band's shape can do that (tried at every pixel). The faces given to the layout are the hand boxes, as the
/// analysis would give them (the detector finds these 24 of 24: FacesTests.GroupPhotoTests).
final class StoryCropFaceTests: XCTestCase {
    /// The band's crop as a share of the photo.
    static func crop(_ photo: GroupPhotos.Photo, bands: Int) -> (x: Double, y: Double, w: Double, h: Double) {
        let height = StoryLayout.bands(bands)[0].height
        let faces = photo.normalisedFaces.map { StoryLayout.Box(x: $0.x, y: $0.y, w: $0.w, h: $0.h) }
        let f = StoryLayout.fill(sourceWidth: photo.width, sourceHeight: photo.height, width: StoryLayout.width, height: height, faces: faces)
        let sw = Double(f.scaledWidth), sh = Double(f.scaledHeight)
        return (Double(f.x) / sw, Double(f.y) / sh, Double(StoryLayout.width) / sw, Double(height) / sh)
    }

    func testEveryFaceIsWholeOrOutOfTheBand() throws {
        var judged = 0
        for photo in try GroupPhotos.all() {
            for bands in 1...4 {
                let crop = Self.crop(photo, bands: bands)
                let fates = GroupPhotos.fates(of: photo, crop: crop)
                let label = "\(photo.file) in a band of a \(bands)-photo story, crop \(crop)"
                // Not when no window could (a face taller than a quarter band; three faces
                // spread wider than the band and too close to leave one out).
                guard GroupPhotos.cutFreeExists(photo, w: crop.w, h: crop.h) else { continue }
                XCTAssertFalse(fates.contains(.cut), "\(label): \(fates)")
                // Among faces of about the same size (within 20 %), whichever is kept.
                let big = photo.faces[photo.largest]
                let kept = photo.faces.indices.filter { fates[$0] == .whole }
                XCTAssertTrue(kept.contains { photo.faces[$0][2] * photo.faces[$0][3] >= 0.8 * big[2] * big[3] }, "\(label): \(fates)")
                judged += 1
            }
        }
        XCTAssertGreaterThanOrEqual(judged, 40, "most of the 44 crops can keep every face whole or out")
    }

    /// The case: people side by side whose faces cannot all fit a narrow band; the
    /// band used to centre on the gap between them (one's chin, the other's forehead).
    func testFacesThatCannotAllFitKeepOneWholeNotTheGap() throws {
        let pair = try XCTUnwrap(GroupPhotos.all().first { $0.file == "qt-logo.jpg" })
        let crop = Self.crop(pair, bands: 1)
        let fates = GroupPhotos.fates(of: pair, crop: crop)
        XCTAssertEqual(fates.filter { $0 == .whole }.count, 1, "\(fates)")
        XCTAssertFalse(fates.contains(.cut), "\(fates)")
    }
}
