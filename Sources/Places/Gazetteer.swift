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

    /// Loaded lazily, once, from the files embedded at build time (Resources/, by the EmbedFiles
    /// plugin: the installed binary needs nothing beside it).
    public static let shared: Gazetteer = {
        guard let cities = EmbeddedFiles.base64["cities.tsv"].flatMap({ Data(base64Encoded: $0) }),
              let countries = EmbeddedFiles.base64["countries.tsv"].flatMap({ Data(base64Encoded: $0) })
        else { return Gazetteer(cities: []) }
        return Gazetteer(citiesTSV: cities, countriesTSV: countries)
    }()

    static let earthRadiusKm = 6371.0088
    static let density = 3000.0 // people per km²
    static let nearFloorKm = 1.0

    let cities: [City]
    /// 1°×1° cells (index (lat + 90) * 360 + (lon + 180)) in one flat array: the cities of cell k
    /// are `cellCities[cellStart[k]..<cellStart[k + 1]]`. One allocation instead of 64,800 arrays.
    private let cellStart: [Int32]
    private let cellCities: [Int32]

    public var count: Int { cities.count }

    init(cities: [City]) {
        self.cities = cities
        let cellCount = 180 * 360
        var start = [Int32](repeating: 0, count: cellCount + 1)
        let cellOf = cities.map { Self.cell(Self.row($0.lat), Self.col($0.lon)) }
        for k in cellOf { start[k + 1] += 1 }
        for k in 0..<cellCount { start[k + 1] += start[k] }
        var fill = start
        var order = [Int32](repeating: 0, count: cities.count)
        for (i, k) in cellOf.enumerated() {
            order[Int(fill[k])] = Int32(i)
            fill[k] += 1
        }
        self.cellStart = start
        self.cellCities = order
    }

    /// Reads the two TSV files (`name, country code, lat, lon, population` and `code, country`).
    /// Parsed as bytes, not with `String.split`: the 69,000 lines are read at every process start
    /// that meets a photo with GPS, and splitting Swift strings by character took ~50 % of a
    /// small cold scan's CPU time.
    public init(cities citiesURL: URL, countries countriesURL: URL) throws {
        self.init(citiesTSV: try Data(contentsOf: citiesURL), countriesTSV: try Data(contentsOf: countriesURL))
    }

    /// The same from the files' bytes.
    public init(citiesTSV: Data, countriesTSV: Data) {
        var names: [String: String] = [:]
        Self.forEachLine(countriesTSV) { fields in
            guard fields.count >= 2 else { return }
            names[fields.string(0)] = fields.string(1)
        }
        var list: [City] = []
        list.reserveCapacity(70_000)
        Self.forEachLine(citiesTSV) { fields in
            guard fields.count >= 5, let lat = fields.double(2), let lon = fields.double(3) else { return }
            let code = fields.string(1)
            list.append(City(name: fields.string(0), country: names[code] ?? code,
                             lat: lat, lon: lon, population: fields.double(4) ?? 0))
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
        let bounds = SearchBounds(km: km, dLat: dLat, cosMax: cosMax)

        var nearest: (d: Double, i: Int)?
        var best: (score: Double, i: Int)?
        let width = min(2 * colSpan + 1, 360)  // columns wrap across ±180°, each visited once
        for r in r0...r1 {
            for k in 0..<width {
                let col = ((c - colSpan + k) % 360 + 360) % 360
                let k = Self.cell(r, col)
                for i in cellCities[Int(cellStart[k])..<Int(cellStart[k + 1])] {
                    let city = cities[Int(i)]
                    if bounds.excludes(lat, lon, city.lat, city.lon) { continue }
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

    /// Cities that are surely farther than `km` by their latitude or longitude alone: skipped
    /// before the haversine (a sine, two cosines and an arcsine), which measured every city of
    /// the up to 3×5 cells searched — most of them 50–200 km away — and was the gazetteer
    /// lookup's whole cost (~3 % of a cold scan's CPU, issue 33). Conservative by a margin, so the
    /// cities that remain, and the place chosen, are the same as without it.
    struct SearchBounds {
        /// Latitude difference (degrees) beyond which a city is farther than `km`: the distance
        /// is at least the arc of the latitude difference.
        let latLimit: Double
        /// Longitude difference (degrees, 0…180) beyond which it is farther: the haversine's
        /// term `cos φ1 cos φ2 sin²(Δλ/2)` alone exceeds `sin²(δ/2)` when both latitudes are
        /// within `cosMax`'s. Infinite where no such bound holds (near a pole, a wide radius).
        let lonLimit: Double

        init(km: Double, dLat: Double, cosMax: Double) {
            let margin = 1 + 1e-9
            latLimit = km <= 1000 ? dLat * margin : .infinity
            let s = sin(km / Gazetteer.earthRadiusKm / 2) / cosMax
            lonLimit = km <= 1000 && cosMax > 1e-6 && s < 1 ? 2 * asin(s) * 180 / .pi * margin : .infinity
        }

        func excludes(_ lat: Double, _ lon: Double, _ cityLat: Double, _ cityLon: Double) -> Bool {
            if abs(cityLat - lat) > latLimit { return true }
            var dLon = abs(cityLon - lon)
            if dLon > 180 { dLon = 360 - dLon }
            return dLon > lonLimit
        }
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
