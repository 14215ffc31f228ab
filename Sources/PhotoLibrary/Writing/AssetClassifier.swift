import Foundation
import MetadataCore

/// Decides an asset's kind from its metadata and name. Screenshots are told apart by the way
/// phones and desktops name them, or by a screen-sized image that carries no camera metadata.
enum AssetClassifier {
    static func kind(of metadata: MediaMetadata, name: String) -> AssetKind {
        if metadata.format.isVideo { return .video }
        if looksLikeScreenshotName(name) { return .screenshot }
        if metadata.format == .heic || metadata.hasCameraMetadata { return .photo }
        let w = metadata.uprightWidth, h = metadata.uprightHeight
        if screenSizes.contains(Size(w: min(w, h), h: max(w, h))) { return .screenshot }
        return .photo
    }

    static func looksLikeScreenshotName(_ name: String) -> Bool {
        let lower = name.lowercased()
        return lower.hasPrefix("screenshot") || lower.hasPrefix("screen shot") || lower.hasPrefix("scrnshot")
            || lower.hasPrefix("bildschirmfoto") || lower.hasPrefix("capture d’écran") || lower.hasPrefix("capture d'écran")
            || lower.hasPrefix("schermafbeelding") || lower.hasPrefix("captura de pantalla")
    }

    struct Size: Hashable { var w: Int; var h: Int }

    /// Portrait-normalised (short side first) screen sizes of common phones, tablets and desktops.
    static let screenSizes: Set<Size> = {
        let list: [(Int, Int)] = [
            // iPhone
            (640, 960), (640, 1136), (750, 1334), (828, 1792), (1080, 1920), (1125, 2436), (1170, 2532),
            (1179, 2556), (1242, 2208), (1242, 2688), (1284, 2778), (1290, 2796), (1206, 2622), (1320, 2868),
            (1080, 2340),
            // Android
            (720, 1280), (720, 1600), (1080, 2160), (1080, 2280), (1080, 2400), (1080, 2408), (1440, 2560),
            (1440, 2960), (1440, 3040), (1440, 3088), (1440, 3120), (1440, 3200), (1344, 2992), (1280, 2856),
            // iPad
            (1536, 2048), (1620, 2160), (1640, 2360), (1668, 2224), (1668, 2388), (2048, 2732), (1488, 2266),
            // Desktop and laptop
            (768, 1366), (900, 1440), (800, 1280), (1050, 1680), (1200, 1920), (1440, 2560), (1600, 2560),
            (1800, 2880), (2160, 3840), (1964, 3024), (2234, 3456), (1664, 2560), (1080, 1920), (1117, 1728),
            (982, 1512), (864, 1536), (1080, 2560), (1440, 3440),
        ]
        return Set(list.map { Size(w: $0.0, h: $0.1) })
    }()
}
