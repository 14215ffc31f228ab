import Foundation
import Testing
import TestSupport

/// An XMP sidecar as digiKam and darktable write one: a named MWG face region, a city, a rating
/// and keywords, for a photo whose own file says none of it.
func xmpSidecar(person: String, rating: Int = 4, city: String = "Porto") -> String {
    """
    <?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?>
    <x:xmpmeta xmlns:x="adobe:ns:meta/">
     <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
      <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/"
        xmlns:mwg-rs="http://www.metadataworkinggroup.com/schemas/regions/" xmlns:stArea="http://ns.adobe.com/xmp/sType/Area#"
        xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/" xmp:Rating="\(rating)" photoshop:City="\(city)" photoshop:Country="Portugal">
       <dc:subject><rdf:Bag><rdf:li>holiday</rdf:li><rdf:li>family</rdf:li></rdf:Bag></dc:subject>
       <mwg-rs:Regions rdf:parseType="Resource">
        <mwg-rs:RegionList><rdf:Bag><rdf:li rdf:parseType="Resource">
          <mwg-rs:Name>\(person)</mwg-rs:Name><mwg-rs:Type>Face</mwg-rs:Type>
          <mwg-rs:Area stArea:x="0.5" stArea:y="0.4" stArea:w="0.2" stArea:h="0.3" stArea:unit="normalized"/>
        </rdf:li></rdf:Bag></mwg-rs:RegionList>
       </mwg-rs:Regions>
      </rdf:Description>
     </rdf:RDF>
    </x:xmpmeta>
    <?xpacket end="w"?>
    """
}

@Suite struct XMPSidecarTests {
    @Test func aSidecarNamesThePersonAndAnEditIsSeenByTheNextScan() throws {
        let f = try CameraFiles()
        try f.jpeg("IMG_0001.JPG", tags: ["-DateTimeOriginal=2022:07:01 10:00:00"])
        try f.jpeg("darktable/DSC_0002.JPG", photo: "chelsea.jpg")
        try Data(xmpSidecar(person: "Ana Lima").utf8).write(to: f.url("IMG_0001.xmp"))
        try Data(xmpSidecar(person: "Rui Costa").utf8).write(to: f.url("darktable/DSC_0002.JPG.xmp"))
        let verbose = try f.scan(["--verbose"])
        #expect(verbose.stderr.contains("not indexed: IMG_0001.xmp"))
        #expect(!(try f.scan().stderr.contains("not indexed")), "only under --verbose")
        let all = try f.cli.assetsByPath()
        #expect(Set(all.keys) == ["IMG_0001.JPG", "darktable/DSC_0002.JPG"])
        #expect(Array(try f.cli.assetsByPath(["--person", "Ana Lima"]).keys) == ["IMG_0001.JPG"])
        #expect(Array(try f.cli.assetsByPath(["--person", "Rui Costa"]).keys) == ["darktable/DSC_0002.JPG"])
        let photo = try #require(all["IMG_0001.JPG"])
        #expect(photo["rating"] as? Int == 4)
        #expect(photo["keywords"] as? [String] == ["holiday", "family"])
        #expect(photo["xmp_sidecar"] as? String == "IMG_0001.xmp")
        #expect((photo["place"] as? [String: Any])?["city"] as? String == "Porto")
        // The photo's own capture time wins over anything the sidecar says.
        #expect((photo["taken_at"] as? String)?.hasPrefix("2022-07-01T10:00:00") == true)

        // Edited in the tool: the next scan reads the photo again (it did not change itself).
        try Data(xmpSidecar(person: "Eva Dias", rating: 2).utf8).write(to: f.url("IMG_0001.xmp"))
        let r = try f.scan()
        #expect(r.stdout.contains("1 updated"))
        #expect(try f.cli.assetsByPath(["--person", "Ana Lima"]).isEmpty)
        let edited = try #require(try f.cli.assetsByPath(["--person", "Eva Dias"])["IMG_0001.JPG"])
        #expect(edited["rating"] as? Int == 2)
        #expect(edited["id"] as? String == photo["id"] as? String)

        // Removed: the sidecar's names go with it.
        try FileManager.default.removeItem(at: f.url("IMG_0001.xmp"))
        _ = try f.scan()
        #expect(try f.cli.assetsByPath(["--person", "Eva Dias"]).isEmpty)
        #expect(try f.cli.assetsByPath()["IMG_0001.JPG"]?["rating"] is NSNull)
        // Nothing changed: nothing read again.
        #expect(try f.scan().stdout.contains("0 updated"))
    }

    /// Issue 14: keywords a tool wrote into the photo itself (IPTC-IIM as Photo Mechanic writes
    /// them, XMP `dc:subject` as Lightroom does) are listed, before a sidecar's, each once.
    @Test func theFilesOwnKeywordsAreListedBeforeTheSidecarsEachOnce() throws {
        let f = try CameraFiles()
        try f.jpeg("IMG_0010.JPG", tags: ["-IPTC:Keywords=Lisbon", "-IPTC:Keywords=tram",
                                          "-XMP-dc:Subject=tram", "-XMP-dc:Subject=yellow"])
        try f.jpeg("IMG_0011.JPG", tags: ["-IPTC:Keywords=tram", "-XMP-dc:Subject=holiday"])
        try Data(xmpSidecar(person: "Ana Lima").utf8).write(to: f.url("IMG_0011.xmp"))
        _ = try f.scan()
        let all = try f.cli.assetsByPath()
        #expect(all["IMG_0010.JPG"]?["keywords"] as? [String] == ["Lisbon", "tram", "yellow"])
        #expect(all["IMG_0011.JPG"]?["keywords"] as? [String] == ["tram", "holiday", "family"])
        #expect(try f.cli.run(["show", "IMG_0010.JPG"]).stdout.contains("keywords     Lisbon, tram, yellow"))
    }
}
