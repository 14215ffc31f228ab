import Foundation
import Testing
@testable import Places

/// Diacritic- and case-insensitive: GeoNames writes "Reykjavík", the test data "Reykjavik".
func folded(_ s: String) -> String { s.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil) }

@Suite struct GazetteerTests {
    // The cities of scripts/make-camera-roll (name, country, lat, lon; it writes GeoNames' spelling).
    static let cities: [(String, String, Double, Double)] = [
        ("Lisbon", "Portugal", 38.7167, -9.1333), ("Paris", "France", 48.8534, 2.3488),
        ("New York City", "United States", 40.7143, -74.0060), ("Tokyo", "Japan", 35.6895, 139.6917),
        ("Sydney", "Australia", -33.8679, 151.2073), ("Cape Town", "South Africa", -33.9258, 18.4232),
        ("Reykjavik", "Iceland", 64.1355, -21.8954), ("Rio de Janeiro", "Brazil", -22.9064, -43.1822),
        ("Kyoto", "Japan", 35.0211, 135.7538), ("Barcelona", "Spain", 41.3888, 2.1590),
        ("Vancouver", "Canada", 49.2497, -123.1193), ("Marrakesh", "Morocco", 31.6342, -7.9999),
        ("Edinburgh", "United Kingdom", 55.9521, -3.1965), ("Queenstown", "New Zealand", -45.0302, 168.6627),
        ("Honolulu", "United States", 21.3069, -157.8583),
    ]

    @Test func everyTestDataCityResolvesFromJitteredPoints() {
        let g = Gazetteer.shared
        #expect(g.count > 50_000)
        var rng = SystemRandomNumberGenerator()
        for (name, country, lat, lon) in Self.cities {
            for _ in 0..<200 {
                let la = lat + Double.random(in: -0.02...0.02, using: &rng)
                let lo = lon + Double.random(in: -0.02...0.02, using: &rng)
                let p = g.place(near: la, lon: lo)
                #expect(p.map { folded($0.city) } == folded(name), "\(name) at \(la),\(lo): \(String(describing: p))")
                #expect(p?.country == country, "\(name) at \(la),\(lo)")
            }
        }
    }

    @Test func theMiddleOfAnOceanIsNowhere() {
        #expect(Gazetteer.shared.place(near: -40, lon: -120) == nil)   // South Pacific
        #expect(Gazetteer.shared.place(near: 30, lon: -40) == nil)     // North Atlantic
        #expect(Gazetteer.shared.place(near: 90, lon: 0) == nil)       // North Pole
        #expect(Gazetteer.shared.place(near: -90, lon: 123) == nil)    // South Pole
    }

    @Test func invalidCoordinatesAreNil() {
        #expect(Gazetteer.shared.place(near: .nan, lon: 0) == nil)
        #expect(Gazetteer.shared.place(near: 0, lon: .nan) == nil)
        #expect(Gazetteer.shared.place(near: 91, lon: 0) == nil)
        #expect(Gazetteer.shared.place(near: -90.5, lon: 0) == nil)
        #expect(Gazetteer.shared.place(near: .infinity, lon: 0) == nil)
    }

    @Test func theAntimeridianIsSeamless() {
        // Synthetic places on both sides of ±180°: the grid wraps.
        let g = Gazetteer(cities: [
            .init(name: "East", country: "Fiji", lat: -17, lon: 179.95, population: 10_000),
            .init(name: "West", country: "Fiji", lat: -17, lon: -179.95, population: 10_000),
        ])
        #expect(g.place(near: -17, lon: -179.99)?.city == "West")
        #expect(g.place(near: -17, lon: 179.99)?.city == "East")
        #expect(g.place(near: -17, lon: 180.0)?.city != nil)
        #expect(g.place(near: -17, lon: -179.8)?.city == "West")  // East is 16 km further, across the seam
        #expect(g.place(near: -17, lon: 179.8)?.city == "East")
        // The real gazetteer: from just west of the seam (-179.8°), Labasa (179.36°E) is ~90 km away.
        let p = Gazetteer.shared.place(near: -16.43, lon: -179.8, within: 100)
        #expect(p?.city == "Labasa")
        #expect(p?.country == "Fiji")
        #expect(Gazetteer.shared.place(near: -18.14, lon: 178.42)?.city == "Suva")
        #expect(Gazetteer.shared.place(near: -18.14, lon: 178.42 - 360)?.city == "Suva")
    }

    @Test func nearThePolesEveryLongitudeIsSearched() {
        let g = Gazetteer(cities: [.init(name: "Camp", country: "Antarctica", lat: -89.9, lon: 100, population: 5000)])
        #expect(g.place(near: -89.95, lon: -80)?.city == "Camp")  // across the pole, ~17 km
        #expect(g.place(near: -90, lon: 0)?.city == "Camp")
    }

    @Test func lookupTime() {
        let g = Gazetteer.shared
        _ = g.place(near: 0, lon: 0)
        let n = 20_000
        let start = ContinuousClock.now
        var hits = 0
        for i in 0..<n {
            let (_, _, lat, lon) = Self.cities[i % Self.cities.count]
            if g.place(near: lat + Double(i % 7) * 0.003, lon: lon) != nil { hits += 1 }
        }
        let per = (ContinuousClock.now - start) / n
        print("Gazetteer lookup: \(per) per call (\(hits)/\(n) hits, \(g.count) places)")
        #expect(hits == n)
    }
}
