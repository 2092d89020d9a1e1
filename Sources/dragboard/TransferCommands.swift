import ArgumentParser
import Dragboard
import DragboardStore
import Foundation
import Showcase

/// `dragboard import [trello|dragboard] FILE`: a board from an export file, Trello's JSON or Dragboard's
/// own (told apart by their content when the format is not named), also while a server runs on the
/// same database.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Makes a board from a Trello JSON export or a Dragboard export.",
        discussion: "dragboard import trello trello-board.json --database dragboard.sqlite"
    )
    /// The formats a file may be named as.
    enum Format: String { case trello, dragboard }

    @OptionGroup var database: DatabaseOption
    @Argument(help: ArgumentHelp("[trello|dragboard] FILE: the export file (at most 50 MB), after its format if you name it.",
                                 valueName: "file"))
    var words: [String]

    func validate() throws {
        guard words.count == 1 || (words.count == 2 && Format(rawValue: words[0]) != nil) else {
            throw ValidationError("give the file, or trello or dragboard and then the file")
        }
    }

    func run() throws {
        let file = words[words.count - 1]
        let format = words.count == 2 ? Format(rawValue: words[0]) : nil
        let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? nil
        guard let size else { throw ValidationError("cannot read \(file)") }
        guard size <= BoardImport.maximumBytes else { throw ValidationError("\(file) is \(size / 1024 / 1024) MB; an import is at most 50 MB") }
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: file)))
        do {
            let imported: BoardImport
            switch format {
            case .trello: imported = try BoardImport(trello: bytes)
            case .dragboard: imported = try BoardImport(export: bytes)
            case nil: imported = try BoardImport(file: bytes)
            }
            let store = try database.open()
            let made = try store.importBoard(imported, id: UUID().uuidString.lowercased(), listKinds: Set(Showcase.kit.listKinds.map(\.id)),
                                             operationID: UUID().uuidString.lowercased(), fingerprint: BoardStore.fingerprint(of: bytes), creator: nil)
            print("\(made.message) The board is /boards/\(made.board)")
        } catch let error as DragboardError {
            throw ValidationError(error.description)
        } catch StoreError.invalid(let reason) {
            throw ValidationError(reason)
        }
    }
}

/// `dragboard export BOARD`: a board in Dragboard's export format (or its cards as CSV) on standard output.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Writes a board as Dragboard's JSON export (docs/export-schema.json), or its cards as CSV.",
        discussion: "dragboard export demo > demo.json"
    )
    @OptionGroup var database: DatabaseOption
    @Argument(help: "The board's id (the part after /boards/ in its address).") var board: String
    @Flag(help: "The cards as CSV instead.") var csv = false

    func run() throws {
        let export: BoardExport
        do {
            export = try database.open().export(board: board)
        } catch StoreError.unknownBoard {
            throw ValidationError("there is no board \(board)")
        }
        if csv {
            FileHandle.standardOutput.write(Data(export.csv.utf8))
        } else {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            FileHandle.standardOutput.write(try encoder.encode(export) + Data("\n".utf8))
        }
    }
}
