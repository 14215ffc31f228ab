import Foundation
import Testing
import Metadata
@testable import PhotoLibrary

/// Issue 32: a place a person wrote (XMP/IPTC City and Country, in the file or its sidecar) wins
/// over the gazetteer's guess from GPS, as Lightroom and digiKam show it; the guess only
/// completes what was written when it agrees.
@Suite struct DerivationPlaceTests {
    /// Arezzo, Italy: where the GPS of the photo pointed.
    static let arezzo = GPSCoordinate(lat: 43.4633, lon: 11.8796)

    static func place(city: String? = nil, country: String? = nil, gps: GPSCoordinate? = arezzo) -> Place? {
        var m = MediaMetadata(format: .jpeg, pixelWidth: 10, pixelHeight: 10)
        m.city = city
        m.country = country
        m.gps = gps
        return Derivation.place(of: m)
    }

    @Test func aWrittenCityAndCountryWinOverTheGuess() {
        #expect(Self.place(city: "Tórshavn", country: "Faroe Islands") == Place(city: "Tórshavn", country: "Faroe Islands"))
    }

    @Test func withNothingWrittenTheGuessIsThePlace() {
        #expect(Self.place() == Place(city: "Arezzo", country: "Italy"))
        #expect(Self.place(gps: nil) == nil)
    }

    @Test func theGuessCompletesAWrittenPlaceOnlyWhenItAgrees() {
        // A city the guess also finds (accents aside) takes the guess's country …
        #expect(Self.place(city: "arezzo") == Place(city: "arezzo", country: "Italy"))
        // … another city takes none rather than a wrong one.
        #expect(Self.place(city: "Tórshavn") == Place(city: "Tórshavn", country: nil))
        // A written country the guess is in takes the guess's city; another stays alone.
        #expect(Self.place(country: "italy") == Place(city: "Arezzo", country: "italy"))
        #expect(Self.place(country: "Faroe Islands") == Place(city: nil, country: "Faroe Islands"))
        #expect(Self.place(city: "", country: "") == Place(city: "Arezzo", country: "Italy"), "blank is not written")
    }
}
