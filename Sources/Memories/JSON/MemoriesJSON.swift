import Foundation
import PhotoLibrary

/// `memories sources --json`. Public contract: `{"range", "years": [{year, count}], "places":
/// [{city, country, count}], "people": [{id, name, count}]}` — years latest first, places and
/// people most photos first; a place's `city` (or `country`) null when only the other is
/// known; a person's `name` is their id (`p3`) while unnamed; people only with ≥ 10 photos.
public struct MemorySourcesJSON: PublicJSONShape, Sendable {
    struct Year: Encodable, Sendable { var year: Int; var count: Int }
    struct PlaceCount: Encodable, Sendable {
        var city: String?
        var country: String?
        var count: Int
        enum CodingKeys: String, CodingKey { case city, country, count }
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(city, forKey: .city)  // null, not absent: scripts rely on every field
            try c.encode(country, forKey: .country)
            try c.encode(count, forKey: .count)
        }
    }
    struct Person: Encodable, Sendable { var id: String; var name: String; var count: Int }
    var range: String
    var years: [Year]
    var places: [PlaceCount]
    var people: [Person]

    public init(_ s: MemorySources, range: MemoryRange) {
        self.range = range.rawValue
        years = s.years.map { Year(year: $0.year, count: $0.count) }
        places = s.places.map { PlaceCount(city: $0.city, country: $0.country, count: $0.count) }
        people = s.people.map { Person(id: $0.id, name: $0.name, count: $0.count) }
    }
}

/// `memories collage --json`. Public contract: `{"seed", "path", "asset_id", "source", "range",
/// "cells": [{"asset_id", "path", "crop": {x, y, w, h}, "cell": {x, y, w, h}, "pixels"}], "notes"}`:
/// `path` the file written (`-o`'s as given, absolute; with `--save` relative to the library)
/// or null when neither was asked; `asset_id` the saved collage's id (null without `--save`);
/// `source` `{"year": 2019}`, `{"place": "Lisbon"}` or `{"person": "Ana"}` as asked; cells
/// best first, row by row; `crop` normalised to the upright source photo (x/y its top-left
/// corner), `cell` in collage pixels, `pixels` `preview` (the analysis pipeline's cached
/// 1024-px preview was large enough) or `original` (the file decoded); `notes` what the selection relaxed or which files a spare
/// replaced (also on stderr).
public struct CollageJSON: PublicJSONShape, Sendable {
    struct Rect: Encodable, Sendable { var x, y, w, h: Double }
    struct PixelBox: Encodable, Sendable { var x, y, w, h: Int }
    struct Cell: Encodable, Sendable {
        var asset_id: String
        var path: String
        var crop: Rect
        var cell: PixelBox
        var pixels: String
    }
    var seed: UInt64
    var path: String?
    var assetID: String?
    var source: [String: String]
    var range: String
    var cells: [Cell]
    var notes: [String]

    /// `notes` as the front end words them (by default their descriptions, which name no command).
    public init(_ c: Collage, path: String?, savedID: AssetID?, notes: [String]? = nil) {
        seed = c.seed
        self.path = path
        assetID = savedID?.rawValue
        switch c.source {
        case .year(let y): source = ["year": String(y)]
        case .place(let p): source = ["place": p]
        case .person(let p): source = ["person": p]
        }
        range = c.range.rawValue
        cells = c.cells.map { cell in
            let r = cell.crop
            return Cell(asset_id: cell.asset.id.rawValue, path: cell.asset.path,
                        crop: Rect(x: Self.round(r.x), y: Self.round(r.y), w: Self.round(r.w), h: Self.round(r.h)),
                        cell: PixelBox(x: cell.rect.x, y: cell.rect.y, w: cell.rect.width, h: cell.rect.height),
                        pixels: cell.fromPreview ? "preview" : "original")
        }
        self.notes = notes ?? c.notes.map(\.description)
    }

    /// Six decimals: a millionth of the image, far below a pixel of any camera.
    static func round(_ v: Double) -> Double { (v * 1e6).rounded() / 1e6 }

    enum CodingKeys: String, CodingKey { case seed, path, assetID = "asset_id", source, range, cells, notes }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(seed, forKey: .seed)
        try c.encode(path, forKey: .path)
        try c.encode(assetID, forKey: .assetID)
        if case let (key, value)? = source.first, key == "year", let y = Int(value) {
            try c.encode(["year": y], forKey: .source)
        } else {
            try c.encode(source, forKey: .source)
        }
        try c.encode(range, forKey: .range)
        try c.encode(cells, forKey: .cells)
        try c.encode(notes, forKey: .notes)
    }
}
