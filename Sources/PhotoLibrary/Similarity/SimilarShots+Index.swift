extension SimilarShots {
    /// The similar-shot group (`SimilarShots.groups`, Tidy's grouping) of each asset of `ids`
    /// that shares its shot with another of them, read from `index` a few thousand at a time.
    /// For features that must show a shot once (a memory's collage) without Tidy's sessions.
    public static func groupIDs(among ids: [AssetID], in index: Index) throws -> [AssetID: String] {
        var keys: [SimilarityKey] = []
        var start = 0
        while start < ids.count {
            var q = AssetQuery()
            q.ids = Array(ids[start..<min(ids.count, start + 5000)])
            keys += try index.similarityKeys(matching: q)
            start += 5000
        }
        var out: [AssetID: String] = [:]
        for group in groups(keys) {
            for member in group.members { out[member] = group.id }
        }
        return out
    }
}
