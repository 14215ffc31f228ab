// swift-tools-version: 6.1
// libFuzzer targets for every parser of untrusted bytes in Shoebox. Run them with `Fuzz/run`
// (see Fuzz/README.md); this package is never part of the main `swift build` / `swift test`.
//
// Each target is a static library holding one `LLVMFuzzerTestOneInput`, not an executable:
// libFuzzer's runtime brings its own `main`, and SwiftPM links executables with
// `--defsym main=<module>_main`, which would take precedence over it. `Fuzz/run` builds the
// library with `-sanitize=fuzzer,address` for every Swift module (so Metadata and PhotoLibrary
// are instrumented too) and links it by hand with `swiftc -sanitize=fuzzer,address`.
import PackageDescription

/// Target name (Targets/<name>.swift, module Fuzz<name>) and the Shoebox product it exercises.
let fuzzTargets: [(name: String, product: String)] = [
    ("EXIF", "Metadata"),
    ("XMP", "Metadata"),
    ("IPTC", "Metadata"),
    ("PNG", "Metadata"),
    ("HEIC", "Metadata"),
    ("JPEG", "Metadata"),
    ("ISOBMFF", "Metadata"),
    ("FileNameDate", "Metadata"),
    ("DateText", "Metadata"),
    ("MetadataReader", "Metadata"),
    ("RAW", "Metadata"),
    ("TIFF", "Imaging"),
    ("HEIFItems", "Imaging"),
    ("ImageDecoder", "Imaging"),
    ("TrashInfo", "PhotoLibrary"),
    ("Sidecar", "PhotoLibrary"),
    ("UserAlbum", "PhotoLibrary"),
    ("Config", "PhotoLibrary"),
    ("Curation", "Curation"),
    ("Tidy", "Tidy"),
    ("Tracker", "Tracker"),
    ("Composer", "Composer"),
    ("WebRequest", "WebServer"),
]

/// All targets share Targets/, one file each: the others' files are excluded (SwiftPM warns otherwise).
func otherFiles(than name: String) -> [String] {
    fuzzTargets.map { "\($0.name).swift" }.filter { $0 != "\(name).swift" }
}

/// A target's dependencies: its product, and PhotoLibrary (errors are `ShoeboxError`s) for a
/// feature module's.
func dependencies(of product: String) -> [Target.Dependency] {
    var out: [Target.Dependency] = ["FuzzSupport", .product(name: product, package: "Shoebox")]
    if ["Curation", "Tidy", "Tracker", "Composer", "WebServer"].contains(product) { out.append(.product(name: "PhotoLibrary", package: "Shoebox")) }
    return out
}

let package = Package(
    name: "ShoeboxFuzz",
    products: fuzzTargets.map { .library(name: "Fuzz\($0.name)", type: .static, targets: ["Fuzz\($0.name)"]) },
    dependencies: [.package(name: "Shoebox", path: "..")],
    targets: fuzzTargets.map {
        .target(name: "Fuzz\($0.name)", dependencies: dependencies(of: $0.product),
                path: "Targets", exclude: otherFiles(than: $0.name), sources: ["\($0.name).swift"])
    } + [
        .target(name: "FuzzSupport", dependencies: [.product(name: "Metadata", package: "Shoebox")], path: "Support"),
    ]
)
