// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Shoebox",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "shoebox", targets: ["shoebox"]),
        .executable(name: "shoebox-pixels", targets: ["shoebox-pixels"]),
        .executable(name: "shoebox-readers", targets: ["shoebox-readers"]),
        // Only for Fuzz/Package.swift, which depends on this package by path (another package can
        // use products only); automatic libraries cost `swift build` nothing.
        .library(name: "Metadata", targets: ["Metadata"]),
        .library(name: "PhotoLibrary", targets: ["PhotoLibrary"]),
        .library(name: "Imaging", targets: ["Imaging"]),
        .library(name: "Curation", targets: ["Curation"]),
        .library(name: "Tidy", targets: ["Tidy"]),
        .library(name: "Tracker", targets: ["Tracker"]),
        .library(name: "Composer", targets: ["Composer"]),
        .library(name: "WebServer", targets: ["WebServer"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    ],
    targets: [
        // Thin C system-library targets: one module map and one shim header each.
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg",
                       providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng",
                       providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CHeif", pkgConfig: "libheif",
                       providers: [.apt(["libheif-dev"])]),
        // HEVC (a HEIC's coded images) decoded directly, without libheif's copies (Imaging's
        // HEVCDecoder; libheif stays for what that path does not take).
        .systemLibrary(name: "CDe265", pkgConfig: "libde265",
                       providers: [.apt(["libde265-dev"])]),
        // XMP packets parsed by libxml2's SAX2 interface directly (Metadata's XMPTree.swift).
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0",
                       providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(name: "CExif", pkgConfig: "libexif",
                       providers: [.apt(["libexif-dev"])]),
        // Camera raw files (DNG, CR2, CR3, NEF, ARW, RAF, RW2, ORF): the thread-safe libraw_r.
        .systemLibrary(name: "CLibRaw", pkgConfig: "libraw_r",
                       providers: [.apt(["libraw-dev"])]),
        .systemLibrary(name: "CIptcData", pkgConfig: "libiptcdata",
                       providers: [.apt(["libiptcdata0-dev"])]),
        // TIFF images (scans, exports from editors): tags for Metadata, pixels for Imaging.
        .systemLibrary(name: "CTIFF", pkgConfig: "libtiff-4",
                       providers: [.apt(["libtiff-dev"])]),
        // Colour management (ICC and nclx profiles to sRGB) and video poster frames, for Imaging.
        .systemLibrary(name: "CLCMS2", pkgConfig: "lcms2",
                       providers: [.apt(["liblcms2-dev"])]),
        .systemLibrary(name: "CFFmpeg", pkgConfig: "libavformat libavcodec libavutil libswscale",
                       providers: [.apt(["libavformat-dev", "libavcodec-dev", "libavutil-dev", "libswscale-dev"])]),
        // SHA-256 (files, album links, tracker photos, web assets) from the system's OpenSSL, which
        // uses the CPU's SHA extensions: swift-crypto compiled all of BoringSSL for that one function,
        // most of a clean build's time (docs/BENCHMARKS.md, "build").
        .systemLibrary(name: "CLibCrypto", pkgConfig: "libcrypto",
                       providers: [.apt(["libssl-dev"])]),
        // libinotifytools ships no .pc file: the module map links it by name.
        .systemLibrary(name: "CInotifyTools",
                       providers: [.apt(["libinotifytools0-dev"])]),

        // PNG rows through libpng's row API (its errors longjmp: caught in C, never across Swift
        // frames) and the box reduction decoders feed rows into, so a 100-megapixel image never
        // exists at full size in memory.
        // Optimised even in debug builds: its loops touch every pixel of 100-megapixel images
        // in the tests (3–5× slower at -O0).
        .target(name: "CStreamDecode", dependencies: ["CPNG", "CDe265"], cSettings: [.unsafeFlags(["-O2"])]),

        // libheif, libtiff and LibRaw for Metadata's header readers, opened on first use (dlopen):
        // linked, they were ~5.5 ms of every scan's start (Sources/CLazyCodecs/lazy_codecs.c).
        .target(name: "CLazyCodecs", linkerSettings: [.linkedLibrary("dl")]),

        // POSIX/Linux calls Glibc's module lacks (fts, syncfs). Not "CSystem": swift-system (under
        // swift-nio, under Hummingbird) has a target of that name, and names are package-graph-wide.
        .target(name: "CShoeboxSystem"),

        // SQLite's file calls below a library resolved without following links (the index).
        .target(name: "CConfinedSQLite", dependencies: ["CShoeboxSystem"], linkerSettings: [.linkedLibrary("sqlite3")]),

        // What a file says about itself, as types, and what it is by its first bytes: no image
        // library, so the light `shoebox` links none (docs/ARCHITECTURE.md, "Two executables").
        .target(name: "MetadataCore"),
        // Reads what a file says about itself: format, dimensions, dates, GPS, people (re-exports MetadataCore).
        .target(name: "Metadata", dependencies: ["MetadataCore", "CTurboJPEG", "CPNG", "CLazyCodecs", "CExif", "CIptcData", "CLibXML2"]),

        // Pixels for the analysis pipeline: decode (JPEG, PNG, HEIC, video poster frames), upright,
        // sRGB, down-sampled once for every consumer.
        .target(name: "Imaging", dependencies: ["Metadata", "CTurboJPEG", "CPNG", "CHeif", "CLCMS2", "CFFmpeg", "CImageOps",
                                                 "CStreamDecode", "CTIFF", "CDe265"]),
        // OpenCV's area resize and pHash behind a C header (OpenCV's C++ headers do not import
        // into Swift). Debian keeps them under /usr/include/opencv4, outside the default path:
        // unsafeFlags are accepted in the root package and in a path dependency (Fuzz/). Not
        // opencv4's pkg-config, whose Libs name all ~50 OpenCV libraries (GUI ones included):
        // the three it needs are named here for SwiftPM's link and in include/module.modulemap
        // for links made by hand (Fuzz/run), which only see Swift objects' autolink entries.
        .target(name: "CImageOps", cxxSettings: [.unsafeFlags(["-I/usr/include/opencv4"])],
                linkerSettings: [.linkedLibrary("opencv_core"), .linkedLibrary("opencv_imgproc"),
                                 .linkedLibrary("opencv_img_hash")]),

        // The analysis pipeline on the library: thumbnails, perceptual hashes, faces and people,
        // stored through the core's writer; `analyze`, and `watch` in the background.
        .target(name: "Analysis", dependencies: ["PhotoLibrary", "Imaging", "Faces", "Scoring", "Metadata", "CShoeboxSystem", "LibraryWatcher",
            .product(name: "Logging", package: "swift-log")]),

        // Face detection (CenterFace through OpenCV's dnn; dlib HOG and OpenCV Haar for comparison), alignment, 128-d descriptors and chinese whispers
        // behind a plain C header. dlib is always compiled optimised: its network at -O0 is tens of
        // times slower, too slow even for tests.
        .target(name: "CVision",
                cxxSettings: [.unsafeFlags(["-I/usr/include/opencv4", "-O2"])],
                linkerSettings: [
                    .linkedLibrary("dlib"), .linkedLibrary("openblas"), .linkedLibrary("lapack"),
                    .linkedLibrary("opencv_core"), .linkedLibrary("opencv_imgproc"), .linkedLibrary("opencv_objdetect"),
                    .linkedLibrary("opencv_dnn"),
                ]),

        // Faces in decoded pixels: where they are, who they look like, which ones are one person.
        .target(name: "Faces", dependencies: ["CVision", "Imaging"]),

        // The scorer's measurements (docs/SCORING.md) behind a plain C header: blur, noise,
        // exposure, BRISQUE (OpenCV quality, opencv-data's model), saliency, Hough lines, the eye and
        // smile cascades, dlib's 68 landmarks for open eyes (libdlib-data), QR codes, and
        // Tesseract's C API for text (libtesseract-dev, tesseract-ocr-eng). Optimised in debug builds too: its loops touch every pixel.
        .target(name: "CScore",
                cxxSettings: [.unsafeFlags(["-I/usr/include/opencv4", "-O2"])],
                linkerSettings: [
                    .linkedLibrary("opencv_core"), .linkedLibrary("opencv_imgproc"), .linkedLibrary("opencv_objdetect"),
                    .linkedLibrary("opencv_quality"), .linkedLibrary("opencv_saliency"), .linkedLibrary("tesseract"),
                    .linkedLibrary("dlib"), .linkedLibrary("openblas"), .linkedLibrary("lapack"),
                ]),

        // The composite score from those measurements and the faces: components, words, utility,
        // and the ranking inside a burst.
        .target(name: "Scoring", dependencies: ["CScore", "Imaging", "PhotoLibrary"]),

        // Offline reverse geocoding: GPS to "City, Country" from a bundled GeoNames gazetteer.
        // Its gazetteer is embedded (EmbedFiles), not a resource bundle: the installed binary is one file.
        .target(name: "Places", exclude: ["Resources"], plugins: ["EmbedFiles"]),

        // The library folder: ids, index, sidecars, scanner.
        .target(name: "PhotoLibrary", dependencies: [
            "MetadataCore", "CShoeboxSystem", "CConfinedSQLite", "Places", "CLibCrypto",
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "Logging", package: "swift-log"),
        ]),

        // `shoebox watch`: the one owner of libinotifytools, feeding live changes to PhotoLibrary.
        .target(name: "LibraryWatcher", dependencies: [
            "PhotoLibrary", "Metadata", "CInotifyTools",
            .product(name: "Logging", package: "swift-log"),
        ]),

        // Curation (brief 000): a list ranked by score, a selection, sharing originals, an album.
        // `add` waits for scores in the CLI (as `analyze --wait`), so it needs no pixels itself.
        .target(name: "Curation", dependencies: ["PhotoLibrary", "CShoeboxSystem"]),

        // Tidy (brief 004): review sessions, similar shots, marked photos emptied into Recently
        // Deleted. Needs no pixels: the perceptual hashes and scores are the index's.
        .target(name: "Tidy", dependencies: ["PhotoLibrary"]),

        // Painting tracker (brief 002): projects, miniatures, recipes and photos as JSON in
        // Tracker/, photo copies in Tracker/photos/ (Metadata sniffs formats and capture times).
        .target(name: "Tracker", dependencies: ["PhotoLibrary", "MetadataCore", "CShoeboxSystem"]),

        // Memories (brief 003): sources (years, places, people), seeded selection, face-aware
        // 2×3 collages from previews or originals, saved into Collages/ or written outside.
        .target(name: "Memories", dependencies: ["PhotoLibrary", "Imaging", "Metadata"]),

        // Composer (brief 001): a draft of 1–4 photos stacked into one 1080×1920 HEIC story.
        // Imaging decodes (upright, sRGB), scales and encodes (libheif's x265).
        .target(name: "Composer", dependencies: ["PhotoLibrary", "Imaging"]),

        // The web app (`shoebox serve`): Hummingbird 2 routes onto the same session entry points as
        // the CLI; pages, scripts, styles and fonts under Web/ are embedded into the binary at build
        // time by the EmbedFiles plugin, so an installed `shoebox` needs no folder beside it.
        .target(name: "WebServer", dependencies: [
            "PhotoLibrary", "Metadata", "Imaging", "Analysis", "LibraryWatcher", "Curation", "Tidy", "Tracker",
            "Memories", "Composer", "CZlib",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "Logging", package: "swift-log"),
        ], exclude: ["Web"], plugins: ["EmbedFiles"]),
        // Build-time tool of the plugin: files of a folder into one Swift source (base64 string
        // literals, which the compiler takes in milliseconds; SwiftPM's `.embedInCode` writes byte
        // array literals, which took four minutes for 400 kB here).
        .executableTarget(name: "embed-files", path: "Plugins/EmbedFilesTool"),
        .plugin(name: "EmbedFiles", capability: .buildTool(), dependencies: ["embed-files"]),

        // Thin executable: parses arguments, prints.
        // The commands that touch no pixels, shared by both executables (docs/ARCHITECTURE.md,
        // "Two executables").
        .target(name: "ShoeboxCommands", dependencies: [
            "PhotoLibrary", "MetadataCore", "Curation", "Tidy", "Tracker",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),

        // `shoebox`: no pixel library linked, so it starts in a few milliseconds; it hands the
        // other commands to `shoebox-pixels` beside it.
        // Release only: Swift's runtime and Foundation linked in (their archives named, in a group:
        // -static-stdlib alone leaves Foundation's C parts and ICU unresolved), so the loader maps
        // 8 libraries instead of 22 — half of an everyday command's CPU (docs/BENCHMARKS.md).
        // Linked by lld with packed relative relocations (gold cannot): 17 KB of relocations the
        // loader reads at start instead of 2.1 MB: 1.5–3 MB less resident per command.
        .executableTarget(name: "shoebox", dependencies: [
            "ShoeboxCommands",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ], linkerSettings: [.unsafeFlags(["-static-stdlib", "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs", "-Xlinker", "--start-group", "-Xlinker", "-lFoundation", "-Xlinker", "-lFoundationInternationalization", "-Xlinker", "-lFoundationEssentials", "-Xlinker", "-lCoreFoundation", "-Xlinker", "-l_FoundationICU", "-Xlinker", "-l_FoundationCShims", "-Xlinker", "-l_FoundationCollections", "-Xlinker", "-lswiftSynchronization", "-Xlinker", "-ldispatch", "-Xlinker", "-lBlocksRuntime", "-Xlinker", "-lstdc++", "-Xlinker", "-lm", "-Xlinker", "--end-group"], .when(configuration: .release))]),

        // `shoebox-readers`: shoebox's commands with Metadata's readers and no pixel library, for
        // the commands that read files' headers (scan, rebuild, doctor…): the pixel stack's start
        // was ~0.1 s of every scan. Linked as `shoebox` is, in release.
        .executableTarget(name: "shoebox-readers", dependencies: [
            "ShoeboxCommands", "Metadata",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ], linkerSettings: [.unsafeFlags(["-static-stdlib", "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs", "-Xlinker", "--start-group", "-Xlinker", "-lFoundation", "-Xlinker", "-lxml2", "-Xlinker", "-lFoundationInternationalization", "-Xlinker", "-lFoundationEssentials", "-Xlinker", "-lCoreFoundation", "-Xlinker", "-l_FoundationICU", "-Xlinker", "-l_FoundationCShims", "-Xlinker", "-l_FoundationCollections", "-Xlinker", "-lswiftSynchronization", "-Xlinker", "-ldispatch", "-Xlinker", "-lBlocksRuntime", "-Xlinker", "-lstdc++", "-Xlinker", "-lm", "-Xlinker", "--end-group"], .when(configuration: .release))]),

        // Every command, with the pixel stack.
        .executableTarget(name: "shoebox-pixels", dependencies: [
            "ShoeboxCommands", "PhotoLibrary", "Metadata", "LibraryWatcher", "Analysis", "Curation", "Tidy", "Tracker",
            "Memories", "Composer", "WebServer",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            .product(name: "Logging", package: "swift-log"),
        ]),

        // Tidy's in-process figures for bench/tidy.py (open a session, next item, grouping).
        .executableTarget(name: "tidy-bench", dependencies: ["Tidy", "PhotoLibrary"], path: "bench/TidyBench"),

        // The crop rule's figures on the hand-boxed group photos for bench/crops.py.
        .executableTarget(name: "crop-bench", dependencies: ["Imaging", "Faces", "Metadata"], path: "bench/CropBench"),

        // HEIC decoding figures for bench/heic.py (libde265 directly, libheif, thumbnails).
        .executableTarget(name: "heic-bench", dependencies: ["Imaging", "Metadata"], path: "bench/HEICBench"),
        // SHA256Hasher's throughput on one file, beside sha256sum, for bench/build.py.
        .executableTarget(name: "hash-bench", dependencies: ["PhotoLibrary"], path: "bench/HashBench"),

        // Generated camera rolls with ground truth, shared by the test targets.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "MetadataTests", dependencies: ["Metadata", "TestSupport"]),
        .testTarget(name: "PhotoLibraryTests", dependencies: ["PhotoLibrary", "Metadata", "TestSupport"]),
        .testTarget(name: "AnalysisTests", dependencies: ["Analysis", "PhotoLibrary", "TestSupport"]),
        .testTarget(name: "ScoringTests", dependencies: ["Scoring", "Imaging", "PhotoLibrary", "TestSupport"]),
        .testTarget(name: "ImagingTests", dependencies: ["Imaging", "Metadata", "CLCMS2", "TestSupport"]),
        // One decode in a process of its own: the peak RSS a user sees for one file, which the
        // memory tests and BENCHMARKS.md measure (a test process's peak is every test's).
        .executableTarget(name: "imaging-probe", dependencies: ["Imaging", "Metadata"], path: "Tests/ImagingProbe"),
        .testTarget(name: "FacesTests", dependencies: ["Faces", "Imaging", "TestSupport"]),
        .testTarget(name: "PlacesTests", dependencies: ["Places", "TestSupport"]),
        .testTarget(name: "EndToEndTests", dependencies: ["shoebox", "shoebox-pixels", "TestSupport"]),
        .testTarget(name: "WatcherTests", dependencies: ["shoebox", "shoebox-pixels", "TestSupport"]),
        // `curate` through the built binary; scores given in-process through the library's writer.
        .testTarget(name: "CurationTests", dependencies: ["shoebox", "shoebox-pixels", "Curation", "PhotoLibrary", "TestSupport"]),
        // `tidy` through the built binary on generated rolls; the grouping and the session's
        // pure parts in-process.
        .testTarget(name: "TidyTests", dependencies: ["shoebox", "shoebox-pixels", "Tidy", "PhotoLibrary", "TestSupport"]),
        // `tracker` through the built binary, and the store's pure parts (file, integrity, CSV).
        .testTarget(name: "TrackerTests", dependencies: ["shoebox", "shoebox-pixels", "Tracker", "PhotoLibrary", "TestSupport"]),
        // `memories` through the built binary on an analysed roll; the pure selection and crop rules in-process.
        .testTarget(name: "MemoriesTests", dependencies: ["shoebox", "shoebox-pixels", "Memories", "PhotoLibrary", "TestSupport"]),
        // `compose` through the built binary, checked against ImageMagick references; the draft
        // and the layout as pure types.
        .testTarget(name: "ComposerTests", dependencies: ["shoebox", "shoebox-pixels", "Composer", "PhotoLibrary", "TestSupport"]),
        // Every feature's main flow through the session layer alone, in-process: exactly the calls a
        // front end makes (no subprocess, no CLI type), and the holes the session layer closes.
        .testTarget(name: "SessionTests", dependencies: ["PhotoLibrary", "Analysis", "Curation", "Tidy", "Tracker", "Memories",
                                                         "Composer", "TestSupport"]),
        // `serve`: the access rules and media rules in-process; the server through HTTP (the
        // built binary), checked against the CLI's `--json`.
        .testTarget(name: "WebServerTests", dependencies: ["shoebox", "shoebox-pixels", "WebServer", "PhotoLibrary", "TestSupport",
                                                           .product(name: "HTTPTypes", package: "swift-http-types")]),
        // The watcher loop's pure state machines: synthetic events and times, no inotify.
        .testTarget(name: "LibraryWatcherTests", dependencies: ["LibraryWatcher"]),
    ],
    cxxLanguageStandard: .cxx17
)
