import PhotoLibrary

extension LibraryRemedy: CommandWorded {
    package var commandHint: String {
        switch self {
        case .scan: "run `shoebox scan`"
        case .scanFirst: "run `shoebox scan` first"
        case .scanIfNew: "run `shoebox scan` if it is new"
        case .scanAllowingMassRemoval: "if they are really gone, run `shoebox scan --allow-mass-removal`"
        case .rebuild: "run `shoebox rebuild` (ids are kept)"
        case .rebuildThenRestart: "run `shoebox rebuild` (ids are kept), then start again"
        case .stopWriterThenRebuild: "stop that process (Ctrl-C where `shoebox watch` runs), then run `shoebox rebuild` (ids are kept)"
        case .analyze: "run `shoebox analyze`"
        case .initLibrary(let path?): "run `shoebox init \(shellQuote(path))`"
        case .initLibrary(nil): "run `shoebox init PATH` or pass --library PATH"
        case .initAgain: "then run `shoebox init` again"
        case .useLibrary(let path): "pass --library \(shellQuote(path))"
        case .restore(let id): "`shoebox restore \(id)` brings it back"
        case .restoreFirst(let id): "`shoebox restore \(id)` first"
        case .putBackAndScan: "its file is gone; put it back and `shoebox scan`"
        case .listAlbums: "`shoebox album list` shows them"
        case .listOrCreateAlbums: "`shoebox album list` shows them, `shoebox album create NAME ID…` makes one"
        case .deleteAlbums: "delete some with `shoebox album delete`"
        case .listPeople: "`shoebox people list` shows them"
        }
    }
}
