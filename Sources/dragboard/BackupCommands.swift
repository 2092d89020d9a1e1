import ArgumentParser
import DragboardStore
import Foundation

/// `dragboard backup FILE`: a consistent copy of a SQLite database while the server runs on it,
/// with its images beside it (`FILE-images`).
struct BackupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copies the SQLite database (while it serves) and its images to FILE and FILE-images.",
        discussion: "dragboard backup /var/backups/dragboard-$(date +%F).sqlite --database /srv/dragboard/board.sqlite"
    )
    @OptionGroup var database: DatabaseOption
    @Option(help: "The folder of stored images; by default <database>-images.") var images: String?
    @Argument(help: "A new file for the copy.") var file: String

    func run() throws {
        do {
            try database.open().backup(to: file)
        } catch StoreError.invalid(let reason) {
            throw ValidationError(reason)
        }
        // After the database's snapshot: every image it names is there (removed ones wait in removed/ for 30 days).
        let source = images ?? database.path + "-images"
        var copied = 0
        if FileManager.default.fileExists(atPath: source) {
            try FileManager.default.copyItem(atPath: source, toPath: file + "-images")
            try? FileManager.default.removeItem(atPath: file + "-images/uploads")   // files of drags in progress belong to no board
            copied = (try? FileManager.default.contentsOfDirectory(atPath: file + "-images").count { $0 != "removed" }) ?? 0
        }
        print("Backed up \(database.path) to \(file)\(copied > 0 ? " and \(copied) images to \(file)-images" : "").")
    }
}

/// `dragboard restore FILE`: puts a backup back (stop the server first).
struct RestoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Replaces the SQLite database and its images with a backup (stop the server first).",
        discussion: "dragboard restore /var/backups/dragboard-2026-11-26.sqlite --database /srv/dragboard/board.sqlite"
    )
    @OptionGroup var database: DatabaseOption
    @Option(help: "The folder of stored images; by default <database>-images.") var images: String?
    @Argument(help: "A file made by dragboard backup.") var file: String

    func run() throws {
        guard !database.path.hasPrefix("postgres") else { throw ValidationError("this database is PostgreSQL: restore it with pg_restore (docs/operating.md)") }
        guard FileManager.default.fileExists(atPath: file) else { throw ValidationError("there is no file \(file)") }
        do {
            try BoardStore.restore(backup: file, into: database.path)
        } catch StoreError.invalid(let reason) {
            throw ValidationError(reason)
        }
        let target = images ?? database.path + "-images"
        if FileManager.default.fileExists(atPath: file + "-images") {
            try? FileManager.default.removeItem(atPath: target)
            try FileManager.default.copyItem(atPath: file + "-images", toPath: target)
        }
        print("Restored \(database.path) from \(file).")
    }
}
