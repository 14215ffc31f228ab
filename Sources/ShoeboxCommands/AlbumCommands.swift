import ArgumentParser
import Foundation
import PhotoLibrary

package struct Album: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "album",
        abstract: "Albums: folders of relative links under Albums/ that any file manager shows.",
        discussion: """
            Generated albums follow the library: Years/<yyyy>, Places/<City, Country>, People/<Name>, \
            Screenshots, Videos. User albums are yours: `album create NAME ID…`. Link names start \
            with the position, so a file manager's name order is the album's order. Deleting a link \
            by hand takes that photo out of a user album; deleting an album deletes links only.
            """,
        subcommands: [AlbumList.self, AlbumShow.self, AlbumCreate.self, AlbumAdd.self, AlbumRemove.self,
                      AlbumOrder.self, AlbumDelete.self])

    package init() {}
}

/// Says what the album sync could not do; albums switched off are one line, not an error.
func reportAlbumSync(_ r: AlbumSyncReport) {
    if let off = r.off { Terminal.message(off) }
    for line in r.movedAsideLines { Terminal.message("shoebox: warning: " + line) }
    for p in r.problems { Terminal.error(p) }
    for (album, id) in r.removedByHand { Terminal.message("took \(id) out of \"\(album)\": its link was deleted by hand") }
}

struct AlbumList: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List user and generated albums.",
        discussion: "With --json, one array: id (user albums), name, kind, path, count.")

    @OptionGroup var options: LibraryOptions

    @OptionGroup var output: JSONOutput

    func run() throws {
        try reportingErrors {
            let session = try options.session(forReading: true)
            let (library, index) = (session.library, session.index)
            let albums = try AlbumLinker(library: library, index: index).summaries()
            if output.json { return try output.print(albums.map(AlbumSummaryJSON.init)) }
            if albums.isEmpty {
                Terminal.message("No albums yet; `shoebox scan` makes the generated ones, `shoebox album create NAME ID…` yours.")
                return
            }
            Terminal.out(albums.map { a in
                "\(String(a.count).leftPadded(6))  \(a.kind.rawValue.padding(toLength: 11, withPad: " ", startingAt: 0)) \(displayPath(AlbumLinker.folderName + "/" + a.path))"
            }.joined(separator: "\n"))
        }
    }
}

struct AlbumShow: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Show an album's photos in order (a user album's name, or e.g. Years/2024).")

    @OptionGroup var options: LibraryOptions

    @Argument(help: "The album.")
    var name: String

    @OptionGroup var output: JSONOutput

    func run() throws {
        try reportingErrors {
            let session = try options.session(forReading: true)
            let (library, index) = (session.library, session.index)
            let album = try AlbumLinker(library: library, index: index).find(name)
            if output.json { return try output.print(AlbumJSON(album)) }
            Terminal.message("\(displayPath(AlbumLinker.folderName + "/" + album.path)) — \(album.entries.count) item\(album.entries.count == 1 ? "" : "s")")
            if !album.entries.isEmpty {
                Terminal.out(album.entries.map { "\(String($0.id.rawValue.prefix(13)))  \(displayPath($0.linkName))  → \(displayPath($0.assetPath))" }
                    .joined(separator: "\n"))
            }
        }
    }
}

/// `NAME ID…` arguments of the commands that change a user album.
struct AlbumMembers: ParsableArguments {
    @Argument(help: "The album's name.")
    var name: String

    @Argument(help: "Ids, id prefixes or paths.")
    var assets: [String] = []
}

struct AlbumCreate: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "create", abstract: "Make a user album, with photos in the order given.")

    @OptionGroup var options: LibraryOptions
    @OptionGroup var members: AlbumMembers

    @OptionGroup var output: JSONOutput

    func run() throws {
        try reportingErrors {
            try options.session().write { w in
                let ids = try w.resolve(members.assets).map(\.id)
                let linker = AlbumLinker(library: w.library, index: w.index)
                let (album, report) = try linker.create(name: members.name, ids: ids)
                reportAlbumSync(report)
                let shown = try linker.find(album.name)
                if output.json {
                    try output.print(AlbumJSON(shown))
                } else {
                    Terminal.out("Created the album \"\(album.name)\" (\(shown.entries.count) item\(shown.entries.count == 1 ? "" : "s")): \(displayPath(AlbumLinker.folderName + "/" + album.folder))")
                }
            }
        }
    }
}

struct AlbumAdd: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Add photos to the end of a user album.")

    @OptionGroup var options: LibraryOptions
    @OptionGroup var members: AlbumMembers

    @OptionGroup var output: JSONOutput

    func validate() throws {
        if members.assets.isEmpty { throw ValidationError("name at least one photo to add") }
    }

    func run() throws {
        try reportingErrors {
            try options.session().write { w in
                let ids = try w.resolve(members.assets).map(\.id)
                let linker = AlbumLinker(library: w.library, index: w.index)
                let (album, added, report) = try linker.add(to: members.name, ids: ids)
                reportAlbumSync(report)
                if output.json {
                    try output.print(AlbumJSON(try linker.find(album.name)))
                } else {
                    Terminal.out("Added \(added) to \"\(album.name)\"" + (added < ids.count ? " (\(ids.count - added) already in it)" : "") + ".")
                }
            }
        }
    }
}

struct AlbumRemove: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "remove", abstract: "Take photos out of a user album (the files stay).")

    @OptionGroup var options: LibraryOptions
    @OptionGroup var members: AlbumMembers
    @OptionGroup var output: JSONOutput

    func validate() throws {
        if members.assets.isEmpty { throw ValidationError("name at least one photo to take out") }
    }

    func run() throws {
        try reportingErrors {
            try options.session().write { w in
                let ids = try w.resolve(members.assets).map(\.id)
                let linker = AlbumLinker(library: w.library, index: w.index)
                let (album, removed, report) = try linker.remove(from: members.name, ids: ids)
                reportAlbumSync(report)
                if output.json {
                    try output.print(AlbumJSON(try linker.find(album.name)))
                } else {
                    Terminal.out("Took \(removed) out of \"\(album.name)\".")
                }
            }
        }
    }
}

struct AlbumOrder: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "order", abstract: "Put photos first in a user album, in the order given (the rest follow as they were).")

    @OptionGroup var options: LibraryOptions
    @OptionGroup var members: AlbumMembers
    @OptionGroup var output: JSONOutput

    func validate() throws {
        if members.assets.isEmpty { throw ValidationError("name the photos to put first") }
    }

    func run() throws {
        try reportingErrors {
            try options.session().write { w in
                let ids = try w.resolve(members.assets).map(\.id)
                let linker = AlbumLinker(library: w.library, index: w.index)
                let (album, report) = try linker.order(members.name, first: ids)
                reportAlbumSync(report)
                if output.json {
                    try output.print(AlbumJSON(try linker.find(album.name)))
                } else {
                    Terminal.out("Reordered \"\(album.name)\".")
                }
            }
        }
    }
}

struct AlbumDelete: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete a user album: its links only, never a photo.")

    @OptionGroup var options: LibraryOptions

    @Argument(help: "The album's name.")
    var name: String

    @OptionGroup var output: JSONOutput

    func run() throws {
        try reportingErrors {
            try options.session().write { w in
                let (album, report) = try AlbumLinker(library: w.library, index: w.index).delete(name)
                reportAlbumSync(report)
                if output.json { return try output.print(AlbumSummaryJSON(album)) }
                Terminal.out("Deleted the album \"\(album.name)\" (\(album.members.count) link\(album.members.count == 1 ? "" : "s"); no photo was touched).")
            }
        }
    }
}
