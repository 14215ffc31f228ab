import Foundation
import Testing
import TestSupport
@testable import Places

/// Issue 33: the lookup skips cities whose latitude or longitude alone puts them beyond the
/// radius (`Gazetteer.SearchBounds`) before measuring them. It must pick the same place as
/// measuring every city: checked against a brute-force reference over points near real places
/// (where the choice between neighbours is made), at high latitudes, across the ±180° seam and
/// at several radii.
@Suite struct GazetteerBoundsTests {
    /// The shared gazetteer's cities, made whole once (`cities` makes every name at each call).
    static let everyCity = Gazetteer.shared.cities

    /// The rule of `Gazetteer.place(near:lon:within:)` applied to every city of the gazetteer,
    /// with no grid and no bound.
    static func bruteForce(_ g: Gazetteer, _ lat: Double, _ lon: Double, within km: Double = 25) -> (city: String, country: String)? {
        guard lat.isFinite, lon.isFinite, abs(lat) <= 90 else { return nil }
        let lon = Gazetteer.normalise(lon)
        var nearest: (d: Double, i: Int)?
        var best: (score: Double, i: Int)?
        let cities = g.count == everyCity.count ? everyCity : g.cities
        for (i, city) in cities.enumerated() {
            let d = Gazetteer.distanceKm(lat, lon, city.lat, city.lon)
            guard d <= km else { continue }
            if nearest == nil || d < nearest!.d { nearest = (d, i) }
            if d <= (city.population / (Gazetteer.density * .pi)).squareRoot() {
                let score = city.population / max(d, Gazetteer.nearFloorKm)
                if best == nil || score > best!.score { best = (score, i) }
            }
        }
        guard let pick = best?.i ?? nearest?.i else { return nil }
        return (cities[pick].name, cities[pick].country)
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
        for i in stride(from: 0, to: Self.everyCity.count, by: 149) {
            let c = Self.everyCity[i]
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
        for i in stride(from: 0, to: Self.everyCity.count, by: 997) {
            let c = Self.everyCity[i]
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

/// The gazetteer's columns (issue 33): the bundled table read into columns holds what its lines
/// say — every line's name, country, coordinates and population — and the decimal fast path reads
/// every number of it as strtod does.
@Suite struct GazetteerColumnsTests {
    static var tables: (cities: Data, countries: Data) {
        let folder = TestRoll.repositoryRoot.appendingPathComponent("Sources/Places/Resources")
        return (try! Data(contentsOf: folder.appendingPathComponent("cities.tsv")),
                try! Data(contentsOf: folder.appendingPathComponent("countries.tsv")))
    }

    @Test func everyLineOfTheTableIsACityWithItsNameCountryAndNumbers() throws {
        let (citiesTSV, countriesTSV) = Self.tables
        var countries: [String: String] = [:]
        for line in String(decoding: countriesTSV, as: UTF8.self).split(separator: "\n") {
            let f = line.split(separator: "\t", omittingEmptySubsequences: false)
            if f.count >= 2 { countries[String(f[0])] = String(f[1]) }
        }
        let lines = String(decoding: citiesTSV, as: UTF8.self).split(separator: "\n").map {
            $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        }
        let g = GazetteerBoundsTests.everyCity
        #expect(g.count == lines.count && g.count > 50_000)
        var checked = 0
        for (i, f) in lines.enumerated() where i % 7 == 0 || f[0].utf8.count > 15 || f[0].unicodeScalars.contains { !$0.isASCII } {
            let c = g[i]
            #expect(c.name == f[0] && c.country == (countries[f[1]] ?? f[1]), "line \(i + 1): \(c.name), \(c.country)")
            #expect(c.lat == strtod(f[2], nil) && c.lon == strtod(f[3], nil) && c.population == strtod(f[4], nil),
                    "line \(i + 1): \(c.lat) \(c.lon) \(c.population) vs \(f[2]) \(f[3]) \(f[4])")
            checked += 1
        }
        #expect(checked > 10_000)
    }

    @Test func theDecimalFastPathIsStrtod() {
        var rng = SplitMix(seed: 71)
        var texts = ["0", "-0", "0.0", "12", "-12.5", ".5", "12.", "+3", "1e5", "90", "-180", "179.99999",
                     "123456789012345", "1234567890123456", "0.000000000000000000001", "3292", "-89.9999", "1.7976931348623157"]
        for _ in 0..<20_000 {
            let digits = Int(rng.next() % 15) + 1, point = Int(rng.next() % UInt64(digits + 1))
            var t = String((0..<digits).map { _ in Character(String(rng.next() % 10)) })
            if point < digits { t.insert(".", at: t.index(t.startIndex, offsetBy: point)) }
            texts.append(rng.next() % 2 == 0 ? "-" + t : t)
        }
        for text in texts {
            let bytes = Array(text.utf8)
            bytes.withUnsafeBufferPointer { buffer in
                let fields = TSVFields(bytes: buffer, ranges: [(0, buffer.count)])
                var end: UnsafeMutablePointer<CChar>? = nil
                let want = text.withCString { p -> Double? in
                    let v = strtod(p, &end)
                    return end! - UnsafeMutablePointer(mutating: p) == text.utf8.count && v.isFinite ? v : nil
                }
                let got = fields.double(0)
                #expect(got?.bitPattern == want?.bitPattern, "\(text): \(String(describing: got)) vs \(String(describing: want))")
            }
        }
    }
}
