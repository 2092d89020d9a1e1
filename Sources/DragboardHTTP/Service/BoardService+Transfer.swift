import Dragboard
import DragboardStore
import Foundation

extension BoardService {
    /// Makes a board from an export file (Trello's or Dragboard's own), all of it or nothing, undone
    /// through `author`'s history; `creator` owns it. Returns its id and what was imported and skipped.
    func importBoard(_ bytes: [UInt8], op: String, author: ChangeAuthor?, creator: Account?) throws -> (board: String, message: String) {
        let imported = try BoardImport(file: bytes)
        return try store.importBoard(imported, id: Self.newID(), listKinds: Set(kit.listKinds.map(\.id)), operationID: op,
                                     fingerprint: BoardStore.fingerprint(of: bytes), creator: creator) { tx, made in
            guard let author else { return }
            tx.recordUndo(for: author.undoOwner, actionName: "Import the board \(made.title)")
            tx.recordActivity(by: author.name, Activity.words(of: author.name, made.summary))
        }
    }
}
