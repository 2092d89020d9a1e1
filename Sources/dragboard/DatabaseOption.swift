import ArgumentParser
import DragboardPostgres
import DragboardStore
import Foundation

/// `--database`, the same for the server and every command that opens its data.
struct DatabaseOption: ParsableArguments {
    @Option(name: .customLong("database"), help: ArgumentHelp(
        "The SQLite database file, or a postgres://user:password@host:port/dbname URL that several instances share.",
        discussion: "Without it, DRAGBOARD_DATABASE_URL if set, else dragboard.sqlite."
    )) var value: String?

    var path: String { value ?? ProcessInfo.processInfo.environment["DRAGBOARD_DATABASE_URL"] ?? "dragboard.sqlite" }

    func open() throws -> BoardStore { try BoardStore(database: path) }
}
