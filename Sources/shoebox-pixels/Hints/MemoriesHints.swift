import ShoeboxCommands
import Memories
import PhotoLibrary

extension MemoriesRemedy: CommandWorded {
    package var commandHint: String {
        switch self {
        case .listYears: "`shoebox memories sources` lists the years there are"
        case .listPlaces: "`shoebox memories sources` lists the places there are"
        case .listPeople: "`shoebox memories sources` lists the people there are; `shoebox analyze` finds faces"
        case .analyzeForScores: "`shoebox analyze` scores them"
        }
    }
}
