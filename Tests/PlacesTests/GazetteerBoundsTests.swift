import Foundation
import Testing
@testable import Places

/// Issue 33: the lookup skips cities whose latitude or longitude alone puts them beyond the
/// radius (`Gazetteer.SearchBounds`) before measuring them. It must pick the same place as
/// measuring every city: checked against a brute-force reference over points near real places
/// (where the choice between neighbours is made), at high latitudes, across the ±180° seam and
/// at several radii.
@Suite struct GazetteerBoundsTests {
    /// The rule of `Gazetteer.place(near:lon:within:)` applied to every city of the gazetteer,
    /// with no grid and no bound.
    static func bruteForce(_ g: Gazetteer, _ lat: Double, _ lon: Double, within km: Double = 25) -> (city: String, country: String)? {
        guard lat.isFinite, lon.isFinite, abs(lat) <= 90 else { return nil }
        let lon = Gazetteer.normalise(lon)
        var nearest: (d: Double, i: Int)?
        var best: (score: Double, i: Int)?
        for (i, city) in g.cities.enumerated() {
            let d = Gazetteer.distanceKm(lat, lon, city.lat, city.lon)
            guard d <= km else { continue }
            if nearest == nil || d < nearest!.d { nearest = (d, i) }
            if d <= (city.population / (Gazetteer.density * .pi)).squareRoot() {
                let score = city.population / max(d, Gazetteer.nearFloorKm)
                if best == nil || score > best!.score { best = (score, i) }
            }
        }
        guard let pick = best?.i ?? nearest?.i else { return nil }
        return (g.cities[pick].name, g.cities[pick].country)
    }

    static func expectSame(_ g: Gazetteer, _ lat: Double, _ lon: Double, within km: Double = 25,
                           sourceLocation: SourceLocation = #_sourceLocation) {
        let got = g.place(near: lat, lon: lon, within: km), want = bruteForce(g, lat, lon, within: km)
        #expect(got?.city == want?.city && got?.country == want?.country,
                "\(lat),\(lon) within \(km): \(String(describing: got)) vs \(String(describing: want))", sourceLocation: sourceLocation)
    }

    @Test func pointsNearRealPlacesGetTheSamePlaceAsMeasuringEveryCity() {
        let g = Gazetteer.shared
        var rng = SplitMix(seed: 33)
        var found = 0
        // Every 149th place of the gazetteer, a point up to ~30 km from it (a radius's worth past it).
        for i in stride(from: 0, to: g.cities.count, by: 149) {
            let c = g.cities[i]
            let lat = max(-90, min(90, c.lat + rng.next(in: -0.3...0.3))), lon = c.lon + rng.next(in: -0.4...0.4)
            Self.expectSame(g, lat, lon)
            if g.place(near: lat, lon: lon) != nil { found += 1 }
        }
        #expect(found > 250, "the points must mostly find a place: \(found)")
    }

    @Test func highLatitudesTheSeamAndOtherRadiiToo() {
        let g = Gazetteer.shared
        // Svalbard, northern Greenland, Antarctica's stations, the Chukotka/Fiji seam.
        for (lat, lon) in [(78.22, 15.65), (77.47, -69.23), (-77.85, 166.67), (-89.99, 0), (89.99, 45),
                           (64.73, 177.5), (64.73, -177.5), (-16.43, -179.8), (-17.0, 179.99), (-18.14, 178.42 - 360)] {
            for km in [1.0, 25, 100, 400] { Self.expectSame(g, lat, lon, within: km) }
        }
        var rng = SplitMix(seed: 7)
        for i in stride(from: 0, to: g.cities.count, by: 997) {
            let c = g.cities[i]
            Self.expectSame(g, c.lat + rng.next(in: -1...1), c.lon + rng.next(in: -1...1), within: [5.0, 60, 150][i % 3])
        }
    }
}

/// A small seeded generator: the same points on every run.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func next(in range: ClosedRange<Double>) -> Double {
        range.lowerBound + Double(next() >> 11) / Double(1 << 53) * (range.upperBound - range.lowerBound)
    }
}
