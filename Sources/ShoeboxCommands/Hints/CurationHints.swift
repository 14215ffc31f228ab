import Curation

extension CurationRemedy: CommandWorded {
    package var commandHint: String {
        switch self {
        case .clearList: "`shoebox curate clear` starts a new list"
        case .upgradeOrClearList: "upgrade Shoebox (or `shoebox curate clear` to start a new list)"
        case .addPhotos: "add photos with `shoebox curate add ID|PATH…|--album A|--year Y`"
        case .listRanks: "`shoebox curate list` shows the ranks"
        case .listMembers: "`shoebox curate list` shows it"
        case .deselect(let id): "deselect it (`shoebox curate deselect \(id)`)"
        case .putBackAndScan: "put it back and `shoebox scan`"
        case .scanThenShareAgain: "run `shoebox scan`, then share again (nothing was shared)"
        }
    }
}
