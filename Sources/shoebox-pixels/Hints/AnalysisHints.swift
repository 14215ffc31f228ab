import ShoeboxCommands
import Analysis

extension AnalysisRemedy: CommandWorded {
    package var commandHint: String {
        switch self {
        case .scanThenAnalyse: "run `shoebox scan`, then it is analysed"
        }
    }
}
