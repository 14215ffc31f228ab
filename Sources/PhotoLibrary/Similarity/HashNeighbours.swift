/// Pairs of 64-bit perceptual hashes within a Hamming distance, without comparing every pair:
/// multi-index hashing. The 64 bits are cut into `radius + 1` blocks; two hashes that differ in
/// at most `radius` bits agree exactly on at least one block (pigeonhole), so only hashes sharing
/// a block's value are compared. Written here because no library of the stack offers it (OpenCV's
/// img_hash compares two hashes; its FLANN LSH index is approximate and may miss pairs).
struct HashNeighbours {
    let radius: Int
    private let hashes: [UInt64]
    private let blocks: [(shift: UInt64, mask: UInt64)]
    private var buckets: [[UInt64: [Int32]]]

    /// An index over `hashes` (positions are what queries return).
    init(_ hashes: [UInt64], radius: Int) {
        precondition(radius >= 0 && radius < 32)
        self.radius = radius
        self.hashes = hashes
        let count = radius + 1
        var blocks: [(shift: UInt64, mask: UInt64)] = []
        var start = 0
        for k in 0..<count {
            let width = (64 - start) / (count - k)
            blocks.append((UInt64(start), width == 64 ? ~0 : (UInt64(1) << UInt64(width)) - 1))
            start += width
        }
        self.blocks = blocks
        buckets = Array(repeating: [:], count: count)
        for (i, h) in hashes.enumerated() {
            for (b, block) in blocks.enumerated() {
                buckets[b][(h >> block.shift) & block.mask, default: []].append(Int32(i))
            }
        }
    }

    /// Positions of the hashes within `radius` of `hash`, each once, ascending.
    func neighbours(of hash: UInt64) -> [Int] {
        var found = Set<Int32>()
        for (b, block) in blocks.enumerated() {
            for i in buckets[b][(hash >> block.shift) & block.mask] ?? []
            where (hashes[Int(i)] ^ hash).nonzeroBitCount <= radius {
                found.insert(i)
            }
        }
        return found.map(Int.init).sorted()
    }
}
