import Testing
@testable import Metadata

@Suite("File-name dates")
struct FileNameDateTests {
    static let parsed: [(String, String)] = [
        ("IMG_20230514_123456.jpg", "2023-05-14T12:34:56"),
        ("PXL_20230514_123456789.jpg", "2023-05-14T12:34:56.789"),
        ("PXL_20230514_123456789.MP.jpg", "2023-05-14T12:34:56.789"),
        ("VID_20230514_123456.mp4", "2023-05-14T12:34:56"),
        ("20230514_123456.jpg", "2023-05-14T12:34:56"),
        ("IMG_20230514_123456~2.jpg", "2023-05-14T12:34:56"),
        ("IMG-20230514-WA0001.jpg", "2023-05-14T00:00:00"),
        ("VID-20191231-WA0042.mp4", "2019-12-31T00:00:00"),
        ("Screenshot 2024-05-01 at 10.11.12.png", "2024-05-01T10:11:12"),
        ("Screenshot_20240501-101112.png", "2024-05-01T10:11:12"),
        ("Screenshot_20240501-101112_Chrome.jpg", "2024-05-01T10:11:12"),
        ("Screenshot_2024-05-01-10-11-12-345_com.android.png", "2024-05-01T10:11:12"),
        ("Screen Shot 2019-03-02 at 9.41.07 PM.png", "2019-03-02T21:41:07"),
        ("Screen Shot 2019-03-02 at 12.05.00 AM.png", "2019-03-02T00:05:00"),
        ("Screen Shot 2019-03-02 at 12.05.00 PM.png", "2019-03-02T12:05:00"),
        ("Photo 2023-05-14 12 34 56.jpg", "2023-05-14T12:34:56"),
        ("2023-05-14 12.34.56.jpg", "2023-05-14T12:34:56"),
        ("2023-05-14 12.34.56-1.jpg", "2023-05-14T12:34:56"),
        ("2023-05-14.jpg", "2023-05-14T00:00:00"),
        ("holiday_2023-05-14_12-34-56.heic", "2023-05-14T12:34:56"),
        ("20230514123456.jpg", "2023-05-14T12:34:56"),
        ("2024-02-29 23.59.59.jpg", "2024-02-29T23:59:59"),
    ]

    static let rejected = [
        "IMG_0412.JPG", "20231345_999999.jpg", "DSC_12345678.jpg", "19890101_120000.jpg", "21010101_120000.jpg",
        "2023-02-30 10.00.00.jpg", "2023-13-01.jpg", "holiday.jpg", "", ".jpg", "123456789012345678.jpg",
        "Screen Shot 2019-03-32 at 1.05.00 PM.png",
    ]

    @Test("dates in file names", arguments: parsed)
    func parses(_ name: String, _ iso: String) throws {
        let d = try #require(FileNameDate.parse(name), "\(name) did not parse")
        #expect(d.iso8601 == iso)
        #expect(d.utcOffsetSeconds == nil)
        #expect(d.source == .filename)
    }

    @Test("names without a valid date", arguments: rejected)
    func rejects(_ name: String) {
        #expect(FileNameDate.parse(name) == nil, "\(name) parsed as \(FileNameDate.parse(name)?.iso8601 ?? "")")
    }

    @Test("a file-name date is the last resort inside read")
    func fallbackInRead() throws {
        // A PNG screenshot without metadata takes the date from its name.
        let url = try sampleFile("png") { $0.path.contains("Screenshot 2017") }
        let m = try readMetadata(url)
        #expect(m.takenAt?.iso8601 == "2017-06-27T18:04:42")
        #expect(m.takenAt?.source == .filename)
    }
}
