import DragAndDrop
import Dragboard
import DragboardStore
import Foundation
import JSONWriting
import Synchronization

extension BoardService {
    /// `drop`: the engine decides again against the current state, the delegate lands the
    /// items, and the placements are applied in the same write transaction as the operation id
    /// — a retried drop answers the stored response and changes nothing.
    ///
    /// The answer's version is the store's: a drop that wrote nothing (a row dropped onto its
    /// own spot, a refusal) answers the version it saw, no changes, and is broadcast to no one.
    ///
    /// `visitor`: who drops. Only an editor of the board may (403 with the reason otherwise), and
    /// the change joins their undo history.
    func drop(_ token: String, _ request: BoardAPI.DropRequest, owner: String, visitor: Visitor? = nil) throws -> String {
        let target = try request.target.id
        var location = try request.location?.dropLocation ?? .noRow
        // Made before the write (encoding and hashing the request is the costliest part of the
        // record), so it never holds up the operations of the batch this drop commits in.
        let fingerprint = BoardStore.fingerprint(of: Fingerprint(token: token, request: request).jsonBytes)
        var changed = false
        var storedFiles: [URL] = []
        let result: OperationResult
        // The board of the window the drop happens in (a retry of a drop whose session has
        // ended is answered from its record, whatever board is named here).
        let liveEntry = try? sessions.entry(token, owner: owner)
        let board = liveEntry?.dropBoard.withLock { $0 } ?? BoardStore.defaultBoardID
        var user: DragUser?
        if let visitor, visitor.account != nil, let liveEntry {
            user = try dragUser(of: liveEntry, token: token, visitor: visitor)
            if let refusal = user?.refusal { throw DragboardError.forbidden(refusal) }
        }
        let historyOwner = Self.historyOwner(visitor?.historyIdentity ?? owner)
        let authorName = visitor?.account?.name ?? Activity.someone
        var told: String?
        // The answer as the transaction made it, so the rendering need not parse it back from its record.
        let fresh = Mutex<BoardAPI.DropResponse?>(nil)
        do {
            // The rows the answer shows are read in the transaction (`committed`), but their HTML and
            // the answer's JSON are made after the commit: the write transaction holds only the change,
            // its undo entry, its operation record (kept without HTML) and those reads.
            result = try store.perform(board: board, operationID: request.op, fingerprint: fingerprint, stored: { $0 }, prepare: { _ in },
                                       committed: { [self] tx, stored in try rendered(stored, tx: tx, fresh: fresh.withLock { $0 }) }) { tx in
                let entry = try sessions.entry(token, owner: owner)
                tx.recordUndo(for: historyOwner, actionName: "")
                try fill(entry.payload, from: request)
                return try entry.engine.withLock { engine in
                    var working = engine
                    // Always, whatever version the client says it saw: a client is not trusted
                    // to know what someone else did since.
                    try working.dropSession.checkItemsUnmoved(on: tx)
                    if tx.baseVersion != request.version {
                        location = try location.rebased(hoveredItem: request.location?.item, target: target, on: tx)
                    }
                    working.updateTargets(try tx.dropTargets(kit, movingLists: entry.movesLists))
                    if visitor?.account != nil { working.setUser(user) }
                    working.setCopyModifierPressed(request.copy ?? false)
                    let response: BoardAPI.DropResponse
                    switch try working.drop(on: target, at: location, shownOperation: request.shown) {
                    case .refuse(let proposal):
                        response = BoardAPI.DropResponse(operation: proposal.operation, intent: proposal.intent.rawValue, reason: proposal.reason,
                                                         message: proposal.reason ?? "Nothing was dropped.", target: request.target,
                                                         version: tx.baseVersion, changes: [])
                    case .perform(let result):
                        let applied = try apply(result, session: working.dropSession, tx: tx, storedFiles: &storedFiles)
                        tx.recordUndo(for: historyOwner, actionName: Self.actionName(applied.message))
                        told = Activity.words(of: authorName, applied.message)
                        tx.recordActivity(by: authorName, told ?? "")
                        working.conclude()
                        changed = tx.hasChanges
                        response = BoardAPI.DropResponse(operation: result.proposal.operation, intent: result.proposal.intent.rawValue, reason: nil,
                                                         message: changed ? applied.message : "Nothing changed: \(applied.message)",
                                                         target: request.target, version: tx.resultingVersion, changes: changed ? applied.changes : [],
                                                         counts: changed ? try counts(applied.changes, tx: tx) : nil)
                    }
                    engine = working
                    fresh.withLock { $0 = response }
                    return response.jsonString
                }
            }
        } catch {
            // The transaction rolled back: images it moved into the image folder belong to nothing.
            for file in storedFiles { try? FileManager.default.removeItem(at: file) }
            throw error
        }
        if changed {
            live.broadcast(event: "changes", board: board, version: result.version, json: result.response)
            broadcastDepartures(result.departures)
            if let told { tellActivity(board: board, version: result.version, author: authorName, words: told) }
        }
        return result.response
    }

    /// Hands a drop from outside its strings and files; the session's promises read them.
    private func fill(_ payload: DropPayload?, from request: BoardAPI.DropRequest) throws {
        guard let payload else { return }
        var strings: [String: String] = [:]
        for pair in request.data ?? [] where pair.count == 2 {
            strings[pair[0].lowercased()] = pair[1]
        }
        guard !strings.isEmpty || (request.files ?? []).contains(where: { $0 != nil }) else { throw DragboardError.unprocessable("the drop is empty") }
        payload.setStrings(strings)
        try payload.bindFiles(request.files ?? [])
    }

    /// What makes two drop requests the same operation.
    struct Fingerprint {
        var token: String
        var request: BoardAPI.DropRequest
    }
}
