import Foundation
import GRDB

/// An index on one field of a feature's per-asset data (`Asset.features`), so that filtering or
/// counting by it (`FeatureCondition`) reads a few index entries instead of parsing every asset's
/// feature JSON: Tidy counts its marked photos and maybe pile on every step, in a library of
/// 100,000 assets. Declared like a `FeatureTable`, in the schema the index is opened with; created by a named
/// migration (`feature-index:<feature>.<field>:v1`). The index holds the field, then the state
/// and Live Photo columns every listing filters on, so a count is answered from the index alone.
public struct FeatureIndex: Hashable, Sendable {
    public let feature: String
    public let field: String

    public init(feature: String, field: String) {
        precondition(FeatureFields.isValidName(feature) && FeatureFields.isValidName(field),
                     "indexed feature fields are lower-case letters, digits and _")
        self.feature = feature
        self.field = field
    }


    func register(in migrator: inout DatabaseMigrator) {
        let name = "feature_\(feature)_\(field)"
        let expression = FeatureCondition.extract(feature: feature, field: field)
        migrator.registerMigration("feature-index:\(feature).\(field):v1") { db in
            try db.execute(sql: "CREATE INDEX IF NOT EXISTS \(name) ON asset(\(expression), state, live_photo_of)")
        }
    }
}
