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
    /// One place, as tests build a small gazetteer and read one back (`city(at:)`).
    struct City: Sendable {
        let name: String
        let country: String
        let lat: Double
        let lon: Double
        let population: Double
    }

    /// Loaded lazily, once, from the files embedded at build time as text (Resources/, by the
    /// EmbedFiles plugin: the installed binary needs nothing beside it), read where they lie.
    public static let shared: Gazetteer = {
        guard let cities = EmbeddedFiles.text["cities.tsv"].map(embeddedBytes),
              let countries = EmbeddedFiles.text["countries.tsv"].map(embeddedBytes)
        else { return Gazetteer(cities: []) }
        return Gazetteer(citiesTSV: cities, countriesTSV: countries)
    }()

    /// A literal's bytes, not copied: a static string lives as long as the program.
    private static func embeddedBytes(_ text: StaticString) -> Data {
        text.withUTF8Buffer { bytes in
            guard let start = bytes.baseAddress else { return Data() }
            return Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: start), count: bytes.count, deallocator: .none)
        }
    }

    static let earthRadiusKm = 6371.0088
    static let density = 3000.0 // people per km²
    static let nearFloorKm = 1.0

    // The cities as columns: a lookup reads only the coordinates and populations of the cells
    // it searches, and a name becomes a String only for the place picked. (A `[City]` of two
    // Strings each was made whole at load — 69,000 names — and copied, its strings retained and
    // released, for every city a lookup looked at: ~40 % of the place's share of a cold scan.)
    private let lats: [Double]
    private let lons: [Double]
    private let populations: [Double]
    /// City i's name is `nameBytes[nameStart[i]..<nameEnd[i]]` (UTF-8).
    private let nameBytes: [UInt8]
    private let nameStart: [Int32]
    private let nameEnd: [Int32]
    /// City i's country is `countryNames[countryOf[i]]`.
    private let countryOf: [Int32]
    private let countryNames: [String]
    /// 1°×1° cells (index (lat + 90) * 360 + (lon + 180)) in one flat array: the cities of cell k
    /// are `cellCities[cellStart[k]..<cellStart[k + 1]]`. One allocation instead of 64,800 arrays.
    private let cellStart: [Int32]
    private let cellCities: [Int32]

    public var count: Int { lats.count }

    /// City i, made whole (tests; a lookup makes only the picked one's strings).
    func city(at i: Int) -> City {
        City(name: name(of: i), country: countryNames[Int(countryOf[i])], lat: lats[i], lon: lons[i], population: populations[i])
    }

    /// Every city, made whole (tests).
    var cities: [City] { (0..<count).map(city(at:)) }

    private func name(of i: Int) -> String {
        nameBytes.withUnsafeBufferPointer {
            String(decoding: UnsafeBufferPointer(rebasing: $0[Int(nameStart[i])..<Int(nameEnd[i])]), as: UTF8.self)
        }
    }

    /// The columns gathered by `Columns`, then the cells built over them.
    private init(_ c: Columns) {
        (lats, lons, populations) = (c.lats, c.lons, c.populations)
        (nameBytes, nameStart, nameEnd) = (c.nameBytes, c.nameStart, c.nameEnd)
        (countryOf, countryNames) = (c.countryOf, c.countryNames)
        let cellCount = 180 * 360
        var start = [Int32](repeating: 0, count: cellCount + 1)
        let cellOf = zip(c.lats, c.lons).map { Self.cell(Self.row($0.0), Self.col($0.1)) }
        for k in cellOf { start[k + 1] += 1 }
        for k in 0..<cellCount { start[k + 1] += start[k] }
        var fill = start
        var order = [Int32](repeating: 0, count: cellOf.count)
        for (i, k) in cellOf.enumerated() {
            order[Int(fill[k])] = Int32(i)
            fill[k] += 1
        }
        self.cellStart = start
        self.cellCities = order
    }

    /// The gazetteer of `cities` (tests' small ones).
    init(cities: [City]) {
        var c = Columns()
        var countries: [String: Int32] = [:]
        for city in cities {
            let country = countries[city.country] ?? {
                c.countryNames.append(city.country)
                countries[city.country] = Int32(c.countryNames.count - 1)
                return Int32(c.countryNames.count - 1)
            }()
            c.nameStart.append(Int32(c.nameBytes.count))
            c.nameBytes.append(contentsOf: city.name.utf8)
            c.add(nameEnd: Int32(c.nameBytes.count), country: country, lat: city.lat, lon: city.lon, population: city.population)
        }
        self.init(c)
    }

    /// Reads the two TSV files (`name, country code, lat, lon, population` and `code, country`).
    /// Parsed as bytes, not with `String.split`: the 69,000 lines are read at every process start
    /// that meets a photo with GPS, and splitting Swift strings by character took ~50 % of a
    /// small cold scan's CPU time.
    public init(cities citiesURL: URL, countries countriesURL: URL) throws {
        self.init(citiesTSV: try Data(contentsOf: citiesURL), countriesTSV: try Data(contentsOf: countriesURL))
    }

    /// The same from the files' bytes. The names stay bytes of the cities' file; a country code is
    /// looked up once for each run of lines that share it (the file is grouped by country).
    public init(citiesTSV: Data, countriesTSV: Data) {
        var names: [String: String] = [:]
        Self.forEachLine(countriesTSV) { fields in
            guard fields.count >= 2 else { return }
            names[fields.string(0)] = fields.string(1)
        }
        var c = Columns()
        c.nameBytes = [UInt8](citiesTSV)
        c.reserve(70_000)
        var previousCode: (Int, Int) = (0, 0)
        var previousCountry: Int32 = -1
        Self.forEachLine(citiesTSV) { fields in
            guard fields.count >= 5, let lat = fields.double(2), let lon = fields.double(3) else { return }
            let code = fields.ranges[1]
            if previousCountry < 0 || !fields.equal(code, previousCode) {
                let text = fields.string(1)
                c.countryNames.append(names[text] ?? text)
                previousCountry = Int32(c.countryNames.count - 1)
                previousCode = code
            }
            c.nameStart.append(Int32(fields.ranges[0].0))
            c.add(nameEnd: Int32(fields.ranges[0].1), country: previousCountry, lat: lat, lon: lon,
                  population: fields.double(4) ?? 0)
        }
        self.init(c)
    }

    /// The columns while they are gathered.
    private struct Columns {
        var lats: [Double] = [], lons: [Double] = [], populations: [Double] = []
        var nameBytes: [UInt8] = [], nameStart: [Int32] = [], nameEnd: [Int32] = []
        var countryOf: [Int32] = [], countryNames: [String] = []

        mutating func reserve(_ n: Int) {
            lats.reserveCapacity(n); lons.reserveCapacity(n); populations.reserveCapacity(n)
            nameStart.reserveCapacity(n); nameEnd.reserveCapacity(n); countryOf.reserveCapacity(n)
        }

        mutating func add(nameEnd end: Int32, country: Int32, lat: Double, lon: Double, population: Double) {
            nameEnd.append(end)
            countryOf.append(country)
            lats.append(lat); lons.append(lon); populations.append(population)
        }
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
                    let i = Int(i)
                    let cityLat = lats[i], cityLon = lons[i]
                    if bounds.excludes(lat, lon, cityLat, cityLon) { continue }
                    let d = Self.distanceKm(lat, lon, cityLat, cityLon)
                    guard d <= km else { continue }
                    if nearest == nil || d < nearest!.d { nearest = (d, i) }
                    let population = populations[i]
                    let reach = (population / (Self.density * .pi)).squareRoot()
                    if d <= reach {
                        let score = population / max(d, Self.nearFloorKm)
                        if best == nil || score > best!.score { best = (score, i) }
                    }
                }
            }
        }
        guard let pick = best?.i ?? nearest?.i else { return nil }
        return (name(of: pick), countryNames[Int(countryOf[pick])])
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
