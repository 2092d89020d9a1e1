import Dragboard
import DragboardStore
import Foundation
import JSONWriting
import Passwords

extension BoardService {
    /// What an undo or redo answers: like an edit (the version and the changes, applied by the
    /// browser as any change), plus where the history now stands.
    struct UndoResponse: Decodable, Equatable {
        var version: Int
        var changes: [BoardAPI.Change]
        var message: String
        /// The board the change was on.
        var board: String
        /// The action taken back or done again ("Move Milk").
        var action: String
        var undo: UndoState
        /// Each list's row count after the change (see ``BoardService/counts(_:tx:)``).
        var counts: [String: Int]? = nil
    }

    /// The history key of a browser: a digest of its cookie identity, so the database never
    /// holds the cookie itself.
    static func historyOwner(_ browser: String) -> String {
        String(SHA256.hex(Array("undo\u{1F}\(browser)".utf8)).prefix(32))
    }

    /// An action's name from a change's message: "Moved Milk to Done." → "Move Milk to Done".
    static func actionName(_ message: String) -> String {
        var words = message.split(separator: " ", maxSplits: 1).map(String.init)
        let verbs = ["Moved": "Move", "Copied": "Copy", "Added": "Add", "Renamed": "Rename", "Deleted": "Delete",
                     "Removed": "Remove", "Put": "Put", "Created": "Create", "Set": "Set", "Kept": "Keep", "Labelled": "Label"]
        if let first = words.first, let verb = verbs[first] { words[0] = verb }
        var name = words.joined(separator: " ")
        if name.hasSuffix(".") { name.removeLast() }
        return String(name.prefix(200))
    }

    /// Takes back (or does again) the newest change `browser` made on `board` (nil: anywhere);
    /// see ``BoardStore/undo(owner:board:redo:operationID:imageAvailable:respond:)``. The board's
    /// viewers get the changes live, like a drop's.
    /// `visitor`: whose history (the person's, or with no accounts the browser's); only an editor
    /// of the board the change was on may take it back.
    func undo(browser: String, board: String?, op: String, redo: Bool, visitor: Visitor? = nil) throws -> UndoResponse {
        let owner = Self.historyOwner(visitor?.historyIdentity ?? browser)
        if let visitor, visitor.account != nil {
            if let board {
                try access(visitor, board: board).requireEditor()
            } else if let changed = try store.nextUndoBoard(owner: owner, redo: redo), try store.board(changed) != nil {
                // (A board that no longer exists is one this person's own change deleted: taking that back restores it.)
                try access(visitor, board: changed).requireEditor()
            }
        }
        var effects = UndoEffects()
        let author = visitor?.account?.name ?? Activity.someone
        var told: String?
        let outcome = try store.undo(owner: owner, board: board, redo: redo, operationID: op, imageAvailable: { [imagesDirectory] id in
            FileManager.default.fileExists(atPath: imagesDirectory.appendingPathComponent("removed/\(id)").path)
                || FileManager.default.fileExists(atPath: imagesDirectory.appendingPathComponent(id).path)
        }) { tx, applied, action in
            effects = applied
            let state = UndoState(undoActionName: try BoardStore.entry(tx.db, owner: owner, board: board, redo: false)?.actionName,
                                  redoActionName: try BoardStore.entry(tx.db, owner: owner, board: board, redo: true)?.actionName)
            let changes = try tx.changes(of: applied, kit: kit).map { try shown($0, tx: tx) }
            told = Activity.words(of: author, "\(redo ? "Redid" : "Undid") “\(action)”.")
            tx.recordActivity(by: author, told ?? "")
            return UndoResponse(version: tx.resultingVersion, changes: changes,
                                message: "\(redo ? "Redid" : "Undid") “\(action)”.", board: tx.boardID,
                                action: action, undo: state, counts: try counts(changes, tx: tx)).jsonString
        }
        let response = try JSONDecoder().decode(UndoResponse.self, from: Data(outcome.result.response.utf8))
        guard !outcome.result.replayed else { return response }
        // A board an undo brought back (its deletion, or its creation redone) comes back without
        // members: the person who brought it back owns it, so it does not vanish from them.
        if let account = visitor?.account, try store.board(outcome.board) != nil, try store.members(of: outcome.board).isEmpty {
            try store.setMember(named: account.name, role: .owner, on: outcome.board)
        }
        for id in effects.restoredImages { moveImageFile(id, from: "removed/", to: "") }
        for id in effects.removedImages { moveImageFile(id, from: "", to: "removed/") }
        live.broadcast(event: "changes", board: outcome.board, version: response.version,
                       json: BoardAPI.LiveChanges(version: response.version, changes: response.changes, counts: response.counts).jsonString)
        for departure in outcome.result.departures {
            let changes = [BoardAPI.Change(kind: .resync, item: BoardKit.listsTargetID)]
            live.broadcast(event: "changes", board: departure.board, version: departure.version,
                           json: BoardAPI.LiveChanges(version: departure.version, changes: changes).jsonString)
        }
        if let told { tellActivity(board: outcome.board, version: response.version, author: author, words: told) }
        return response
    }

    /// Where `browser`'s undo and redo stand on `board` (nil: anywhere).
    func undoState(browser: String, board: String?) throws -> UndoState {
        try store.undoState(owner: Self.historyOwner(browser), board: board)
    }

    /// Keeps a removed image's file while the undo history may bring it back (in `removed/`).
    func retireImageFile(_ id: String) {
        moveImageFile(id, from: "", to: "removed/")
    }

    private func moveImageFile(_ id: String, from: String, to: String) {
        let source = imagesDirectory.appendingPathComponent(from + id)
        let destination = imagesDirectory.appendingPathComponent(to + id)
        // Made when first needed: most boards never remove an image.
        try? FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? FileManager.default.removeItem(at: destination)
        try? FileManager.default.moveItem(at: source, to: destination)
    }

    /// Deletes the files of removed images older than the history that could bring them back.
    func pruneRetiredImages(now: Date = Date()) {
        Self.removeEntries(of: imagesDirectory.appendingPathComponent("removed"), olderThan: now - BoardStore.undoRetention)
    }

    /// Removes what `folder` holds that was last modified before `date`.
    static func removeEntries(of folder: URL, olderThan date: Date) {
        let entries = (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: [.contentModificationDateKey])) ?? []
        for entry in entries {
            let modified = (try? entry.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate) ?? date
            if modified < date { try? FileManager.default.removeItem(at: entry) }
        }
    }
}
