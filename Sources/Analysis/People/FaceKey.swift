import PhotoLibrary

/// A face of the library: its asset and its place in the asset's analysed faces, written
/// `<asset id>#<n>` with n from 1 (what `people` commands print and take; an id prefix works
/// as it does for assets).
public struct FaceKey: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var assetID: AssetID
    /// 0-based index into `AssetAnalysis.faces`.
    public var index: Int

    public init(assetID: AssetID, index: Int) { self.assetID = assetID; self.index = index }

    public var description: String { "\(assetID.rawValue)#\(index + 1)" }

    public static func < (a: FaceKey, b: FaceKey) -> Bool {
        a.assetID == b.assetID ? a.index < b.index : a.assetID < b.assetID
    }

    /// Splits `text` as typed ("3f2a9c…#2") into the asset part and the 0-based index; nil when
    /// it is not of that shape.
    public static func parse(_ text: String) -> (assetPart: String, index: Int)? {
        let parts = text.split(separator: "#", omittingEmptySubsequences: false)
        guard parts.count == 2, let n = Int(parts[1]), n >= 1, !parts[0].isEmpty else { return nil }
        return (String(parts[0]), n - 1)
    }
}
