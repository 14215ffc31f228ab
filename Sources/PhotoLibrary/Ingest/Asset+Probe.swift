import Foundation

extension Asset {
    /// A new asset for a file read for the first time.
    init(newFrom r: FileProbe.Result, firstSeen: Date) {
        self.init(id: AssetID(), path: r.path, state: .present, size: r.stat.size, mtimeNS: r.stat.mtimeNS,
                  inode: r.stat.inode, sha256: r.sha256, kind: .photo, metadata: r.metadata,
                  place: nil, duplicateOf: nil, livePhotoOf: nil, firstSeen: firstSeen, score: nil,
                  isUtility: false, similarGroup: nil)
        take(r)
    }

    /// Takes what was just read from the file (path, stat, content hash, metadata): the asset is
    /// present there, out of Recently Deleted, with its derived fields recomputed.
    mutating func take(_ r: FileProbe.Result) {
        path = r.path
        state = .present
        size = r.stat.size
        mtimeNS = r.stat.mtimeNS
        inode = r.stat.inode
        sha256 = r.sha256
        metadata = r.metadata
        trash = nil
        Derivation.refresh(&self)
    }

    /// Same stat as a file record: unchanged without reading it.
    func sameFile(as st: FileStat) -> Bool { size == st.size && mtimeNS == st.mtimeNS && inode == st.inode }
}

extension Index.FileRecord {
    /// Same size, modification time and inode: taken for unchanged without reading a byte.
    func sameFile(as st: FileStat) -> Bool { size == st.size && mtimeNS == st.mtimeNS && inode == st.inode }
}
