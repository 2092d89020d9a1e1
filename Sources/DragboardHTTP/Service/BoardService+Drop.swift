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
        let started = ContinuousClock.now
        defer { metrics.dropDuration.record(ContinuousClock.now - started) }
        let target = try request.target.id
        let location = try request.location?.dropLocation ?? .noRow
        // Made before the write (encoding and hashing the request is the costliest part of the
        // record), so it never holds up the operations of the batch this drop commits in.
        let fingerprint = BoardStore.fingerprint(of: Fingerprint(token: token, request: request).jsonBytes)
        var changed = false
        let kept = KeptFiles()
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
        // The session as it was before the drop, put back if the transaction fails: a drop answered
        // "try again" (the database went away) must find its drag still there when it is sent again.
        let before = Mutex<(entry: DragSessions.Entry, engine: SessionEngine)?>(nil)
        do {
            // The rows the answer shows are read in the transaction (`committed`), but their HTML and
            // the answer's JSON are made after the commit: the write transaction holds only the change,
            // its undo entry, its operation record (kept without HTML) and those reads.
            result = try store.perform(board: board, operationID: request.op, fingerprint: fingerprint, stored: { $0 }, prepare: { _ in },
                                       committed: { [self] tx, stored in try rendered(stored, tx: tx, fresh: fresh.withLock { $0 }) }) { tx in
                let entry = try sessions.entry(token, owner: owner)
                tx.recordUndo(for: historyOwner, actionName: "")
                try fill(entry.payload, from: request)
                let release = DropDecision.Release(target: target, location: location, hoveredItem: request.location?.item, seenVersion: request.version,
                                                   shown: request.shown, copy: request.copy ?? false)
                let decision = DropDecision(kit: kit, landing: landing(tx: tx, kept: kept))
                let outcome = try entry.engine.withLock { engine in
                    before.withLock { if $0 == nil { $0 = (entry, engine) } }
                    return try decision.drop(release, engine: &engine, movesLists: entry.movesLists, user: user, on: tx, version: tx.baseVersion)
                }
                let response: BoardAPI.DropResponse
                switch outcome {
                case .refused(let proposal):
                    response = BoardAPI.DropResponse(operation: proposal.operation, intent: proposal.intent.rawValue, reason: proposal.reason,
                                                     message: proposal.reason ?? "Nothing was dropped.", target: request.target,
                                                     version: tx.baseVersion, changes: [])
                case .landed(let proposal, let landed):
                    tx.recordUndo(for: historyOwner, actionName: Self.actionName(landed.message))
                    told = Activity.words(of: authorName, landed.message)
                    tx.recordActivity(by: authorName, told ?? "")
                    changed = tx.hasChanges
                    let changes = landed.changes.map(BoardAPI.Change.init)
                    response = BoardAPI.DropResponse(operation: proposal.operation, intent: proposal.intent.rawValue, reason: nil,
                                                     message: changed ? landed.message : "Nothing changed: \(landed.message)",
                                                     target: request.target, version: tx.resultingVersion, changes: changed ? changes : [],
                                                     counts: changed ? try counts(changes, tx: tx) : nil)
                }
                fresh.withLock { $0 = response }
                return response.jsonString
            }
        } catch {
            // The transaction rolled back: images it moved into the image folder belong to nothing,
            // and the drag is as it was.
            for file in kept.files { try? FileManager.default.removeItem(at: file) }
            if let (entry, engine) = before.withLock({ $0 }) { entry.engine.withLock { $0 = engine } }
            throw error
        }
        // What the drag's end tells the page it began in: this board's version now, or the one the
        // rows left (a drop in another board's window).
        if let liveEntry, let version = liveEntry.board == board ? result.version : result.departures.first(where: { $0.board == liveEntry.board })?.version {
            liveEntry.reached.withLock { $0 = max($0, version) }
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
