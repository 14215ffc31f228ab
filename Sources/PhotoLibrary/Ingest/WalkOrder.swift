import CShoeboxSystem
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The one order the scan's walk and the index agree on: paths compared byte by byte as UTF-8
/// (`memcmp`, SQLite's BINARY collation, what `ORDER BY path` gives). Swift's `String <` compares
/// Unicode scalars after normalisation, which is not that order, so paths are compared here.
///
/// A depth-first walk visits files in this order when it sorts each folder's entries by name
/// bytes, a folder's name taken as if it ended in "/": every path under `a/` then sorts as a
/// block where `a/` does among its siblings ("a b.jpg" < "a-b.jpg" < "a/x.jpg" < "a0.jpg",
/// since ' ' < '-' < '/' < '0').
enum WalkOrder {
    /// -1, 0 or 1 as `a` sorts before, with or after `b` in byte order.
    static func compare(_ a: String, _ b: String) -> Int {
        var a = a, b = b
        return a.withUTF8 { x in
            b.withUTF8 { y in
                let common = min(x.count, y.count)
                if common > 0, let xb = x.baseAddress, let yb = y.baseAddress {
                    let c = memcmp(xb, yb, common)
                    if c != 0 { return c < 0 ? -1 : 1 }
                }
                return x.count == y.count ? 0 : (x.count < y.count ? -1 : 1)
            }
        }
    }

    /// Whether `a` sorts strictly before `b` in byte order.
    static func precedes(_ a: String, _ b: String) -> Bool { compare(a, b) < 0 }

    /// fts(3)'s comparison of two siblings: by name bytes, a folder's name with "/" after it.
    /// fts has stat'ed both before it sorts them (no FTS_NOSTAT), so `fts_info` tells folders.
    static let siblings: @convention(c) (UnsafeMutablePointer<UnsafePointer<FTSENT>?>?,
                                         UnsafeMutablePointer<UnsafePointer<FTSENT>?>?) -> Int32 = { a, b in
        guard let a = a?.pointee, let b = b?.pointee else { return 0 }
        return Int32(compareNames(a, b))
    }

    private static let nameOffset = MemoryLayout<FTSENT>.offset(of: \FTSENT.fts_name)!

    private static func compareNames(_ a: UnsafePointer<FTSENT>, _ b: UnsafePointer<FTSENT>) -> Int {
        let x = UnsafeRawPointer(a).advanced(by: nameOffset).assumingMemoryBound(to: UInt8.self)
        let y = UnsafeRawPointer(b).advanced(by: nameOffset).assumingMemoryBound(to: UInt8.self)
        let xCount = Int(a.pointee.fts_namelen), yCount = Int(b.pointee.fts_namelen)
        let common = min(xCount, yCount)
        let c = memcmp(x, y, common)
        if c != 0 { return c < 0 ? -1 : 1 }
        // One name is a prefix of the other: compare what follows it, "/" for a folder, nothing for a file.
        let xNext = xCount > common ? Int(x[common]) : (isFolder(a) ? Int(UInt8(ascii: "/")) : -1)
        let yNext = yCount > common ? Int(y[common]) : (isFolder(b) ? Int(UInt8(ascii: "/")) : -1)
        return xNext == yNext ? 0 : (xNext < yNext ? -1 : 1)
    }

    private static func isFolder(_ e: UnsafePointer<FTSENT>) -> Bool {
        let info = Int32(e.pointee.fts_info)
        return info == FTS_D || info == FTS_DC || info == FTS_DNR
    }
}
