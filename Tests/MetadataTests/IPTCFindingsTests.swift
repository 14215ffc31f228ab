import Foundation
import Testing
@testable import Metadata

/// What `Fuzz/run IPTC` found in libiptcdata, kept as regression tests.
@Suite("IPTC fuzz findings")
struct IPTCFindingsTests {
    /// An APP13 payload whose IIM data set claims an extended length of 2³²−1 bytes: libiptcdata's
    /// bounds check wraps around in 32 bits and it allocates (and copies) 4 GiB.
    @Test("an extended data-set length near 4 GiB is not handed to libiptcdata")
    func hugeExtendedLength() {
        let resource: [UInt8] = Array(base64Encoded: "OEJJTQQEAAEAAAAnHAI3gAj//////////////2H/OEJJTQQE/v///wAArGscAVqA/wAcAhn/")
        #expect(IPTC.parse(photoshop: IPTC.photoshopSignature + resource) == nil)
        #expect(IPTC.wellFormedPrefix(Array(resource.dropFirst(12))).isEmpty)
    }

    @Test("well-formed data sets before a damaged one are still read")
    func prefixBeforeDamage() {
        let city = Array("Lyon".utf8)
        let iim: [UInt8] = [0x1C, 2, 90, 0, UInt8(city.count)] + city + [0x1C, 2, 101, 0x80, 0x04, 0xFF, 0xFF, 0xFF, 0xFF]
        #expect(IPTC.parse(iim: iim)?.city == "Lyon")
        let extended: [UInt8] = [0x1C, 2, 90, 0x80, 0x02, 0, UInt8(city.count)] + city
        #expect(IPTC.parse(iim: extended)?.city == "Lyon")
    }
}

extension Array where Element == UInt8 {
    init(base64Encoded s: String) { self = [UInt8](Data(base64Encoded: s) ?? Data()) }
}
