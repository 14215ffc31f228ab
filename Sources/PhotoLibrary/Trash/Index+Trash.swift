import Foundation
import GRDB

// The index queries `Recently Deleted` needs.

extension Index {
    func assets(state: AssetState) throws -> [Asset] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT \(Index.columns) FROM asset WHERE state = ? ORDER BY path, id",
                             arguments: [state.rawValue]).map(Index.asset(from:))
        }
    }

    func liveVideoAssets(of id: AssetID) throws -> [Asset] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT \(Index.columns) FROM asset WHERE live_photo_of = ? AND state = 'present'",
                             arguments: [id.rawValue]).map(Index.asset(from:))
        }
    }

    func trashedLiveVideoAssets(of id: AssetID) throws -> [Asset] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT \(Index.columns) FROM asset WHERE live_photo_of = ? AND state = 'trashed'",
                             arguments: [id.rawValue]).map(Index.asset(from:))
        }
    }
}
