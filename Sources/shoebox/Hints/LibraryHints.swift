import PhotoLibrary

extension LibraryRemedy: CommandWorded {
    var commandHint: String {
        switch self {
        case .scan: "run `shoebox scan`"
        case .scanAllowingMassRemoval: "if they are really gone, run `shoebox scan --allow-mass-removal`"
        case .rebuild: "run `shoebox rebuild` (ids are kept)"
        case .analyze: "run `shoebox analyze`"
        case .initLibrary(let path): "run `shoebox init \(path.map(shellQuote) ?? "PATH")`"
        case .restore(let id): "`shoebox restore \(id)` brings it back"
        case .listAlbums: "`shoebox album list` shows them"
        case .listPeople: "`shoebox people list` shows them"
        }
    }
}
