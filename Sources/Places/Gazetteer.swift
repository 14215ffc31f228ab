import Foundation

/// Offline reverse geocoding: GPS coordinates to "City, Country" from a GeoNames gazetteer
/// bundled as a resource (`Resources/cities.tsv`, every place of 5000 people or more;
/// regenerate with `scripts/make-gazetteer`; attribution in `Resources/ATTRIBUTION.md`).
///
/// Why hand-written: no maintained Swift or C reverse-geocoding library is packaged for Debian.
/// Debian's `libgeonames0` (`apt-cache search geonames`) is Ubuntu Touch's timezone/city *search*
/// helper: it looks places up by name for a clock settings panel, ships its own reduced data
/// and has no nearest-place query, so it does not fit. A grid over ~70k points is a page of code.
///
/// Which place: every city "reaches" as far as a city of its population would at an urban
/// density of 3000 people/km² (radius √(P / 3000π) km: Paris ~15 km, Reykjavík ~3.6 km). Among the
/// cities that reach the point, the one with the highest population per kilometre of distance
/// (P / max(d, 1 km)) wins — so a photo in a suburb or a district (GeoNames lists many city
/// districts as places) reads as the city, while a big neighbour such as Yokohama next to
/// Tokyo keeps its own name. When no city reaches the point, the nearest one within `km` wins;
/// beyond `km`, nil.
public struct Gazetteer: Sendable {
    struct City: Sendable {
        let name: String
        let country: String
        let lat: Double
        let lon: Double
        let population: Double
    }

    /// Loaded lazily, once, from the package's resources.
    public static let shared: Gazetteer = {
        guard let cities = Bundle.module.url(forResource: "cities", withExtension: "tsv", subdirectory: "Resources"),
              let countries = Bundle.module.url(forResource: "countries", withExtension: "tsv", subdirectory: "Resources"),
              let g = try? Gazetteer(cities: cities, countries: countries)
        else { return Gazetteer(cities: []) }
        return g
    }()

    static let earthRadiusKm = 6371.0088
    static let density = 3000.0 // people per km²
    static let nearFloorKm = 1.0

    private let cities: [City]
    /// 1°×1° cells: index (lat + 90) * 360 + (lon + 180) → indices into `cities`.
    private let cells: [[Int32]]

    public var count: Int { cities.count }

    init(cities: [City]) {
        self.cities = cities
        var cells = [[Int32]](repeating: [], count: 180 * 360)
        for (i, c) in cities.enumerated() { cells[Self.cell(Self.row(c.lat), Self.col(c.lon))].append(Int32(i)) }
        self.cells = cells
    }

    public init(cities citiesURL: URL, countries countriesURL: URL) throws {
        var names: [Substring: String] = [:]
        let countryText = try String(contentsOf: countriesURL, encoding: .utf8)
        for line in countryText.split(separator: "\n") {
            let f = line.split(separator: "\t", omittingEmptySubsequences: false)
            if f.count >= 2 { names[f[0]] = String(f[1]) }
        }
        var list: [City] = []
        list.reserveCapacity(70_000)
        let text = try String(contentsOf: citiesURL, encoding: .utf8)
        for line in text.split(separator: "\n") {
            let f = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard f.count >= 5, let lat = Double(f[2]), let lon = Double(f[3]) else { continue }
            list.append(City(name: String(f[0]), country: names[f[1]] ?? String(f[1]),
                             lat: lat, lon: lon, population: Double(f[4]) ?? 0))
        }
        self.init(cities: list)
    }

    /// The place a photo taken at (lat, lon) belongs to, or nil in the middle of nowhere (no
    /// place within `km`) and for invalid coordinates.
    public func place(near lat: Double, lon: Double, within km: Double = 25) -> (city: String, country: String)? {
        guard lat.isFinite, lon.isFinite, abs(lat) <= 90, km.isFinite, km >= 0 else { return nil }
        let lon = Self.normalise(lon)
        let dLat = km / (Double.pi / 180 * Self.earthRadiusKm)
        let r0 = Self.row(max(-90, lat - dLat)), r1 = Self.row(min(90, lat + dLat))
        // Widest longitude span needed over the rows searched; near a pole, every column.
        let maxLat = min(90, abs(lat) + dLat)
        let cosMax = cos(maxLat * .pi / 180)
        let colSpan = cosMax < 1e-6 ? 180 : min(180, Int((dLat / cosMax).rounded(.up)) + 1)
        let c = Self.col(lon)

        var nearest: (d: Double, i: Int)?
        var best: (score: Double, i: Int)?
        let width = min(2 * colSpan + 1, 360)  // columns wrap across ±180°, each visited once
        for r in r0...r1 {
            for k in 0..<width {
                let col = ((c - colSpan + k) % 360 + 360) % 360
                for i in cells[Self.cell(r, col)] {
                    let city = cities[Int(i)]
                    let d = Self.distanceKm(lat, lon, city.lat, city.lon)
                    guard d <= km else { continue }
                    if nearest == nil || d < nearest!.d { nearest = (d, Int(i)) }
                    let reach = (city.population / (Self.density * .pi)).squareRoot()
                    if d <= reach {
                        let score = city.population / max(d, Self.nearFloorKm)
                        if best == nil || score > best!.score { best = (score, Int(i)) }
                    }
                }
            }
        }
        guard let pick = best?.i ?? nearest?.i else { return nil }
        return (cities[pick].name, cities[pick].country)
    }

    static func normalise(_ lon: Double) -> Double {
        var l = lon.truncatingRemainder(dividingBy: 360)
        if l >= 180 { l -= 360 } else if l < -180 { l += 360 }
        return l
    }
    static func row(_ lat: Double) -> Int { min(179, max(0, Int((lat + 90).rounded(.down)))) }
    static func col(_ lon: Double) -> Int { ((Int((normalise(lon) + 180).rounded(.down)) % 360) + 360) % 360 }
    static func cell(_ r: Int, _ c: Int) -> Int { r * 360 + c }

    /// Great-circle distance (haversine).
    static func distanceKm(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let p = Double.pi / 180
        let a = sin((lat2 - lat1) * p / 2), b = sin((lon2 - lon1) * p / 2)
        let h = a * a + cos(lat1 * p) * cos(lat2 * p) * b * b
        return 2 * earthRadiusKm * asin(min(1, h.squareRoot()))
    }
}
