import CImageOps

/// A 64-bit perceptual hash (OpenCV's img_hash::PHash: grey, 32×32, DCT, the 8×8 lowest
/// frequencies against their median) for finding the same picture re-encoded, resized or
/// lightly edited: Tidy's similar shots.
public enum PerceptualHash {
    /// The hash of `image` (any size; PHash reduces it to 32×32 itself, so hashing the
    /// 256-pixel thumbnail gives the same answer as hashing the full decode, to a bit or two).
    public static func of(_ image: RGBImage) -> UInt64 {
        var hash: UInt64 = 0
        let status = image.pixels.withUnsafeBufferPointer {
            shoebox_phash($0.baseAddress, Int32(image.width), Int32(image.height), &hash)
        }
        precondition(status == 0, "img_hash::pHash failed for \(image.width)×\(image.height)")
        return hash
    }

    /// Bits that differ: 0 for the same picture, ≤ 8 for a re-encode or resize, ~32 for unrelated ones.
    public static func distance(_ a: UInt64, _ b: UInt64) -> Int { (a ^ b).nonzeroBitCount }
}
