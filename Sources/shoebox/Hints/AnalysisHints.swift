import Analysis

extension AnalysisRemedy: CommandWorded {
    var commandHint: String {
        switch self {
        case .scanThenAnalyse: "run `shoebox scan`, then it is analysed"
        }
    }
}
