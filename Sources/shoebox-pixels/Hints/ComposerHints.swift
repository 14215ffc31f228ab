import ShoeboxCommands
import Composer

extension ComposerRemedy: CommandWorded {
    package var commandHint: String {
        switch self {
        case .clear: "`shoebox compose clear` starts a new draft"
        case .upgradeOrClear: "upgrade Shoebox (or `shoebox compose clear` to start a new draft)"
        case .removeOrReplace: "`shoebox compose remove POS` or `replace POS ID` first"
        case .add: "add 1–4 photos with `shoebox compose add ID|PATH…`"
        case .list: "`shoebox compose list` shows them"
        case .move: "`shoebox compose move` reorders"
        case .restoreOrRemove(let id, let position): "`shoebox restore \(id)` or `shoebox compose remove \(position)`"
        case .scanOrRemove(let position): "put its file back and `shoebox scan`, or `shoebox compose remove \(position)`"
        case .save: "`shoebox compose export --save` puts the story there (in Collages/, indexed)"
        }
    }
}
