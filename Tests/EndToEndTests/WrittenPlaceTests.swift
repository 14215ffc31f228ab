import Foundation
import Testing
import TestSupport

/// Issue 32: a place a person wrote wins over the gazetteer's guess from GPS — a sidecar's
/// "Tórshavn" used to lose to the GPS's "Arezzo" — in the file, its sidecar, a TIFF and a raw file.
@Suite struct WrittenPlaceTests {
    static let arezzo = ["-GPSLatitude=43.4633", "-GPSLatitudeRef=N", "-GPSLongitude=11.8796", "-GPSLongitudeRef=E"]

    static func place(_ f: CameraFiles, _ path: String) throws -> [String: String] {
        let a = try #require(try f.cli.assetsByPath()[path], "\(path) not indexed")
        return (a["place"] as? [String: Any] ?? [:]).compactMapValues { $0 as? String }
    }

    @Test func aSidecarsCityWinsOverTheGPSGuessAndTheGuessStaysWithoutOne() throws {
        let f = try CameraFiles()
        try f.jpeg("IMG_0001.JPG", tags: Self.arezzo)
        try f.jpeg("IMG_0002.JPG", tags: Self.arezzo)
        let sidecar = xmpSidecar(person: "Ana Lima", city: "Tórshavn").replacingOccurrences(of: "Portugal", with: "Faroe Islands")
        try Data(sidecar.utf8).write(to: f.url("IMG_0001.xmp"))
        _ = try f.scan()
        #expect(try Self.place(f, "IMG_0001.JPG") == ["city": "Tórshavn", "country": "Faroe Islands"])
        #expect(try Self.place(f, "IMG_0002.JPG") == ["city": "Arezzo", "country": "Italy"])
        // The albums and the filters follow the written place.
        #expect(Array(try f.cli.assetsByPath(["--place", "Tórshavn"]).keys) == ["IMG_0001.JPG"])
    }

    @Test func theFilesOwnXMPAndIPTCPlacesWinToo() throws {
        let f = try CameraFiles()
        try f.jpeg("xmp.jpg", tags: Self.arezzo + ["-XMP-photoshop:City=Reykjavík", "-XMP-photoshop:Country=Iceland"])
        try f.jpeg("iptc.jpg", tags: Self.arezzo + ["-IPTC:City=Lyon", "-IPTC:Country-PrimaryLocationName=France"])
        try FileManager.default.copyItem(atPath: TestRoll.repositoryRoot.appendingPathComponent("test-data/photos/coffee.tif").path,
                                         toPath: f.url("scan.tif").path)
        _ = try f.scan()
        #expect(try Self.place(f, "xmp.jpg") == ["city": "Reykjavík", "country": "Iceland"])
        #expect(try Self.place(f, "iptc.jpg") == ["city": "Lyon", "country": "France"])
        // The real TIFF: GPS near Arezzo, XMP City "Tórshavn".
        #expect(try Self.place(f, "scan.tif") == ["city": "Tórshavn", "country": "Faroe Islands"])
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: FileManager.default.homeDirectoryForCurrentUser
        .appendingPathComponent(".cache/shoebox-tools/pidng/bin/python").path)))
    func aNEFsIPTCAndXMPAreRead() throws {
        let f = try CameraFiles()
        try f.dng("DSC_0001.NEF.tmp", tags: Self.arezzo + ["-IPTC:City=Lyon", "-IPTC:Country-PrimaryLocationName=France",
                                                          "-IPTC:Keywords=press"])
        try FileManager.default.moveItem(at: f.url("DSC_0001.NEF.tmp"), to: f.url("DSC_0001.NEF"))
        try f.dng("DSC_0002.NEF.tmp", tags: ["-XMP-iptcExt:PersonInImage=Rui Costa", "-XMP-photoshop:City=Porto"])
        try FileManager.default.moveItem(at: f.url("DSC_0002.NEF.tmp"), to: f.url("DSC_0002.NEF"))
        _ = try f.scan()
        #expect(try Self.place(f, "DSC_0001.NEF") == ["city": "Lyon", "country": "France"])
        #expect(try f.cli.assetsByPath()["DSC_0001.NEF"]?["keywords"] as? [String] == ["press"])
        #expect(try Self.place(f, "DSC_0002.NEF") == ["city": "Porto"])
        #expect(Array(try f.cli.assetsByPath(["--person", "Rui Costa"]).keys) == ["DSC_0002.NEF"])
    }
}
