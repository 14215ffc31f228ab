import Foundation
import Testing
import TestSupport
import Glibc

/// XMP sidecars under `watch`: an editor saving one (in place, or through a temporary name).
struct WatcherXMPSidecarTests {
    @Test func aSidecarWrittenOrReplacedIsReadWithItsPhoto() throws {
        let w = try Watched.start()
        defer { w.stop() }
        let photo = try #require(w.sampleJPEGs.first)
        let stem = (photo as NSString).deletingPathExtension
        let person = "Zé Watcher"
        try w.write(stem + ".xmp", Array(Self.sidecar(person).utf8))
        try w.waitForLog("updated \(photo)")
        #expect(try w.cli.assetsByPath(["--person", person]).keys.contains(photo))
        // Saved the way darktable and digiKam save: a temporary file renamed over the sidecar.
        try w.write(stem + ".xmp.tmp", Array(Self.sidecar("Other Name").utf8))
        try w.rename(stem + ".xmp.tmp", stem + ".xmp")
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, try w.cli.assetsByPath(["--person", "Other Name"]).isEmpty { usleep(100_000) }
        #expect(try w.cli.assetsByPath(["--person", "Other Name"]).keys.contains(photo))
        #expect(try w.cli.assetsByPath(["--person", person]).isEmpty)
        #expect(try w.indexed() == w.diskMedia())
    }

    static func sidecar(_ person: String) -> String {
        """
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
        <rdf:Description rdf:about="" xmlns:Iptc4xmpExt="http://iptc.org/std/Iptc4xmpExt/2008-02-29/">
        <Iptc4xmpExt:PersonInImage><rdf:Bag><rdf:li>\(person)</rdf:li></rdf:Bag></Iptc4xmpExt:PersonInImage>
        </rdf:Description></rdf:RDF></x:xmpmeta>
        """
    }
}
