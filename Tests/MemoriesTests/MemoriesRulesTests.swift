import Foundation
import Imaging
import Memories
import Testing
import TestSupport

/// The pure rules under a collage: which photos (`CollagePicker`) and which part of each
/// (`CropPlanner`), on made-up candidates and boxes.
@Suite struct MemoriesRulesTests {
    typealias C = CollagePicker.Candidate
    static let day = 86_400.0

    /// Sixty photos over 600 days, scores from the generator.
    static func pool(_ seed: UInt64 = 9, count: Int = 60) -> [C] {
        var rng = TestSupport.SplitMix64(seed: seed)
        return (0..<count).map { i in
            C(id: String(format: "a%03d", i), time: Double(i) * 10 * day, score: Double(rng.below(1000)) / 1000 * 1.4 - 0.4)
        }
    }

    @Test func picksSixAboveTheThresholdBestFirstWithSpares() {
        let choice = CollagePicker(seed: 1).choose(Self.pool(), subject: "2019")
        #expect(choice.picks.count == 6 && choice.spares.count == 4)
        #expect(choice.picks.allSatisfy { $0.score! > 0 } && choice.spares.allSatisfy { $0.score! > 0 })
        #expect(choice.picks.map { $0.score! } == choice.picks.map { $0.score! }.sorted(by: >))
        #expect(Set((choice.picks + choice.spares).map(\.id)).count == 10)
        #expect(choice.notes.isEmpty)
    }

    @Test func spreadsOverTheTimeRange() {
        // Six periods of ten photos; the best photos all in the first period.
        let pool = (0..<60).map { i in C(id: "p\(i)", time: Double(i / 10) * 100 * Self.day + Double(i), score: i < 10 ? 0.9 : 0.3) }
        let choice = CollagePicker(seed: 4).choose(pool, subject: "x")
        #expect(Set(choice.picks.map { Int($0.time! / (100 * Self.day)) }) == Set(0..<6))
    }

    @Test func theSameSeedChoosesTheSameWhateverTheOrderAndAnotherSeedReshuffles() {
        let pool = Self.pool()
        let a = CollagePicker(seed: 7).choose(pool, subject: "x")
        let b = CollagePicker(seed: 7).choose(pool.reversed(), subject: "x")
        #expect(a == b)
        let others = (8..<14).map { CollagePicker(seed: UInt64($0)).choose(pool, subject: "x").picks.map(\.id) }
        #expect(others.contains { $0 != a.picks.map(\.id) })
        #expect(Set(others.map { $0.joined() }).count >= 3, "seeds barely reshuffle: \(others)")
    }

    @Test func tooFewAboveTheThresholdAreToppedUpAndSaidSo() {
        let pool = (0..<8).map { C(id: "p\($0)", time: Double($0) * Self.day, score: $0 < 3 ? 0.5 : -0.2 - Double($0) / 100) }
        let choice = CollagePicker(seed: 1).choose(pool, subject: "Lisbon")
        #expect(choice.picks.count == 6)
        #expect(Set(["p0", "p1", "p2"]).isSubset(of: Set(choice.picks.map(\.id))))
        #expect(choice.notes.count == 1 && choice.notes[0].contains("only 3 photos of Lisbon"))
    }

    @Test func aPersonsFaceMustFillFifteenPercent() {
        var pool = Self.pool().map { var c = $0; c.faceArea = 0.05; return c }
        for i in stride(from: 0, to: 60, by: 6) { pool[i].faceArea = 0.2; pool[i].score = 0.1 }
        let choice = CollagePicker(seed: 3).choose(pool, subject: "Ana")
        #expect((choice.picks + choice.spares).allSatisfy { $0.faceArea! > 0.15 })
        #expect(choice.notes.isEmpty)
        // Only two large faces: they come first in line, smaller ones fill up, with a note.
        let few = pool.map { var c = $0; c.faceArea = ["a000", "a006"].contains(c.id) ? 0.2 : 0.05; return c }
        let relaxed = CollagePicker(seed: 3).choose(few, subject: "Ana")
        #expect(Set(["a000", "a006"]).isSubset(of: Set(relaxed.picks.map(\.id))))
        #expect(relaxed.notes.contains { $0.contains("Ana's face") })
    }

    @Test func oneFrameOfABurst() {
        let pool = (0..<12).map { C(id: "b\($0)", time: Double($0), score: 0.5 + Double($0) / 100, group: $0 < 6 ? "burst" : nil) }
        let choice = CollagePicker(seed: 2).choose(pool, subject: "x")
        #expect(choice.picks.filter { $0.group == "burst" }.count == 1)
        // A burst the analysis ranked: only its best frame, even when a lesser frame scores higher.
        let ranked = (0..<12).map { (i: Int) -> C in
            C(id: "f\(i)", time: Double(i), score: 0.5 + Double(i) / 100, lesserFrame: i < 6 && i != 2)
        }
        let picks = CollagePicker(seed: 2).choose(ranked, subject: "x").picks.map(\.id)
        #expect(!picks.contains { ["f0", "f1", "f3", "f4", "f5"].contains($0) } && picks.count == 6, "\(picks)")
    }

    /// A shot is shown once: of a similar-shot group (near-identical copies, frames seconds
    /// apart), never two photos in a collage or among its spares, whatever the seed — even when
    /// the pair are the best photos of the pool and the pool is short.
    @Test func aShotIsNeverRepeated() {
        var pool = Self.pool()
        for i in stride(from: 0, to: 60, by: 5) {
            pool[i].group = "g\(i)"; pool[i + 1].group = "g\(i)"
            pool[i + 1].time = pool[i].time; pool[i].score = 0.95; pool[i + 1].score = 0.94
        }
        for seed in 0..<200 {
            for candidates in [pool, Array(pool.prefix(12))] {
                let choice = CollagePicker(seed: UInt64(seed)).choose(candidates, subject: "x")
                let groups = (choice.picks + choice.spares).compactMap(\.group)
                #expect(Set(groups).count == groups.count, "seed \(seed): \(groups)")
            }
        }
    }

    /// A photo its cell would enlarge more than twice (an 88×100 drawing in a 582×484 cell) is
    /// never in a collage while photos of a fitting size remain, however well it scores; when
    /// they run out it fills in.
    @Test func aPhotoTooSmallForItsCellWaitsForEveryOther() {
        let enlarged = CollageLayout().enlargement(width: 88, height: 100)!
        #expect(enlarged > 6)
        var pool = Self.pool().map { var c = $0; c.enlargement = 0.6; return c }
        pool.append(C(id: "drawing", time: 5 * Self.day, score: 0.99, enlargement: enlarged))
        for seed in 0..<100 {
            let choice = CollagePicker(seed: UInt64(seed)).choose(pool, subject: "x")
            #expect(!(choice.picks + choice.spares).contains { $0.id == "drawing" }, "seed \(seed)")
        }
        let few = Array(pool.prefix(5)) + [pool.last!]
        #expect(CollagePicker(seed: 1).choose(few, subject: "x").picks.contains { $0.id == "drawing" })
    }

    // MARK: Crops

    static let aspect = 582.0 / 484.0

    @Test func aFaceIsWholeAndCentredWhenTheFrameAllows() {
        for (w, h) in [(4032, 3024), (3024, 4032), (1000, 1000)] {
            for face in [FaceBox(x: 0.45, y: 0.4, w: 0.1, h: 0.12), FaceBox(x: 0.02, y: 0.05, w: 0.15, h: 0.2),
                         FaceBox(x: 0.7, y: 0.6, w: 0.25, h: 0.3)] {
                let c = CropPlanner.crop(width: w, height: h, faces: [face], aspect: Self.aspect)
                let W = Double(w), H = Double(h)
                #expect(abs((c.w * W) / (c.h * H) - Self.aspect) < 1e-9)
                #expect(c.x >= 0 && c.y >= 0 && c.x + c.w <= 1 + 1e-12 && c.y + c.h <= 1 + 1e-12)
                #expect(c.x <= face.x && c.y <= face.y && c.x + c.w >= face.x + face.w && c.y + c.h >= face.y + face.h, "\(w)×\(h) \(face): \(c)")
                // The largest crop of that shape: one side is the whole image.
                #expect(abs(c.w - 1) < 1e-9 || abs(c.h - 1) < 1e-9)
                // Centred on the face unless an edge is in the way.
                let dx = (c.x + c.w / 2) - (face.x + face.w / 2), dy = (c.y + c.h / 2) - (face.y + face.h / 2)
                #expect(abs(dx) < 1e-9 || c.x < 1e-9 || c.x + c.w > 1 - 1e-9)
                #expect(abs(dy) < 1e-9 || c.y < 1e-9 || c.y + c.h > 1 - 1e-9)
            }
        }
    }

    @Test func noFaceMeansACentreCrop() {
        let c = CropPlanner.crop(width: 4032, height: 3024, faces: [], aspect: Self.aspect)
        #expect(abs(c.x - (1 - c.w) / 2) < 1e-9 && c.y == 0 && c.h == 1)
        let p = CropPlanner.crop(width: 3024, height: 4032, faces: [], aspect: Self.aspect)
        #expect(abs(p.y - (1 - p.h) / 2) < 1e-9 && p.x == 0 && p.w == 1)
    }

    @Test func twoFacesStayTogetherWhenTheyFit() {
        let faces = [FaceBox(x: 0.05, y: 0.3, w: 0.1, h: 0.13), FaceBox(x: 0.5, y: 0.35, w: 0.1, h: 0.13)]
        let c = CropPlanner.crop(width: 4032, height: 3024, faces: faces, aspect: Self.aspect)
        for f in faces { #expect(c.x <= f.x && c.x + c.w >= f.x + f.w) }
    }

    /// Real group photos (`test-data/faces`, boxed by hand) in a collage cell: every face whole
    /// or out of the cell, one of the largest whole, whenever some window of the cell's shape can
    /// do that; and in a tall cell, where the three people of qt-logo.jpg cannot all fit, one
    /// face whole rather than the gap between two.
    @Test func groupPhotosKeepEveryFaceWholeOrOut() throws {
        for aspect in [Self.aspect, 0.5625, 2.25] {
            for photo in try GroupPhotos.all() {
                let faces = photo.normalisedFaces.map { FaceBox(x: $0.x, y: $0.y, w: $0.w, h: $0.h) }
                let c = CropPlanner.crop(width: photo.width, height: photo.height, faces: faces, aspect: aspect)
                let fates = GroupPhotos.fates(of: photo, crop: (c.x, c.y, c.w, c.h))
                guard GroupPhotos.cutFreeExists(photo, w: c.w, h: c.h) else { continue }
                #expect(!fates.contains(.cut), "\(photo.file) in a cell of aspect \(aspect): \(fates), crop \(c)")
                let big = photo.faces[photo.largest]
                #expect(photo.faces.indices.contains { fates[$0] == .whole && photo.faces[$0][2] * photo.faces[$0][3] >= 0.8 * big[2] * big[3] },
                        "\(photo.file) in a cell of aspect \(aspect): \(fates)")
            }
        }
        let trio = try #require(try GroupPhotos.all().first { $0.file == "qt-logo.jpg" })
        let c = CropPlanner.crop(width: trio.width, height: trio.height,
                                 faces: trio.normalisedFaces.map { FaceBox(x: $0.x, y: $0.y, w: $0.w, h: $0.h) }, aspect: 0.5625)
        let fates = GroupPhotos.fates(of: trio, crop: (c.x, c.y, c.w, c.h))
        #expect(fates.filter { $0 == .whole }.count == 1 && !fates.contains(.cut), "\(fates)")
    }

    /// Of two faces of one size, the sharper is kept whole when both cannot be.
    @Test func theSharperOfTwoEqualFacesIsKept() {
        let left = FaceBox(x: 0.1, y: 0.4, w: 0.2, h: 0.25, sharpness: 4), right = FaceBox(x: 0.7, y: 0.4, w: 0.2, h: 0.25, sharpness: 12)
        let c = CropPlanner.crop(width: 2000, height: 1000, faces: [left, right], aspect: 0.8)
        #expect(c.x <= right.x && c.x + c.w >= right.x + right.w && c.x >= left.x + left.w, "\(c)")
        let blurredRight = CropPlanner.crop(width: 2000, height: 1000, faces: [FaceBox(x: 0.1, y: 0.4, w: 0.2, h: 0.25, sharpness: 12),
                                                                               FaceBox(x: 0.7, y: 0.4, w: 0.2, h: 0.25, sharpness: 4)], aspect: 0.8)
        #expect(blurredRight.x <= 0.1 && blurredRight.x + blurredRight.w >= 0.3 && blurredRight.x + blurredRight.w <= 0.7, "\(blurredRight)")
    }

    /// On a real photo of two people of one size (bar55_2.jpg), one face blurred as a missed
    /// focus would: the measure calls it less sharp, and a cell too narrow for both keeps the
    /// sharp one whole.
    @Test func aBlurredFaceOfTwoIsTheOneLeftOut() throws {
        let photo = try #require(try GroupPhotos.all().first { $0.file == "bar55_2.jpg" })
        let blurred = Scratch.root.appendingPathComponent("shoebox-blurred-\(UUID().uuidString).jpg")
        defer { try? FileManager.default.removeItem(at: blurred) }
        for (i, sharpIndex) in [(0, 1), (1, 0)] {
            let b = photo.faces[i].map { Int($0) }
            try TestRoll.run("/usr/bin/convert", [GroupPhotos.folder.appendingPathComponent(photo.file).path,
                                                  "-region", "\(b[2])x\(b[3])+\(b[0])+\(b[1])", "-blur", "0x3", "-quality", "95", blurred.path])
            let fd = open(blurred.path, O_RDONLY | O_CLOEXEC)
            defer { close(fd) }
            let image = try ImageDecoder.decode(fileDescriptor: fd, name: "blurred.jpg", format: .jpeg, minLongSide: 800, orientation: 1).image
            let faces = photo.normalisedFaces.map { f -> FaceBox in
                var box = FaceBox(x: f.x, y: f.y, w: f.w, h: f.h)
                box.sharpness = FaceCrop.sharpness(in: image, of: box)
                return box
            }
            #expect(faces[i].sharpness! < 0.7 * faces[sharpIndex].sharpness!, "\(faces.map { $0.sharpness! })")
            let c = CropPlanner.crop(width: photo.width, height: photo.height, faces: faces, aspect: 0.3)
            let fates = GroupPhotos.fates(of: photo, crop: (c.x, c.y, c.w, c.h))
            #expect(fates[sharpIndex] == .whole && fates[i] != .whole, "blurred face \(i): \(fates), crop \(c)")
        }
    }

    @Test func theLayoutIsTwoByThreeOnTwelveHundredByFifteenHundred() {
        let l = CollageLayout()
        #expect(l.count == 6 && l.width == 1200 && l.height == 1500)
        let cells = (0..<6).map(l.cell)
        #expect(cells.last!.x + cells.last!.width + l.gutter == 1200 && cells.last!.y + cells.last!.height + l.gutter == 1500)
        #expect(cells[1].x - (cells[0].x + cells[0].width) == l.gutter && cells[2].y - (cells[0].y + cells[0].height) == l.gutter)
    }
}
