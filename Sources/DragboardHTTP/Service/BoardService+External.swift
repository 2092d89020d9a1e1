import DragAndDrop
import Dragboard
import DragboardStore
import Foundation
import MicroHTTP
import Synchronization

extension BoardService {
    /// A drag from another app or origin entered the page: its items are promises of the types
    /// the browser shows, loaded from the drop's payload only when the drop is performed.
    func beginExternal(_ request: BoardAPI.ExternalRequest, owner: String, address: String? = nil, visitor: Visitor? = nil) throws -> BoardAPI.BeginResponse {
        guard request.types.count <= 32, request.files.count <= 16 else { throw DragboardError.unprocessable("too many types or files") }
        let registry = kit.types
        let payload = DropPayload(uploadDirectory: imagesDirectory.appendingPathComponent("uploads/\(request.token)"),
                                  declaredFiles: request.files.count)
        let items = ExternalDrag.items(types: request.types, files: request.files, payload: payload, registry: registry)
        let board = request.board ?? BoardStore.defaultBoardID
        let user = try visitor.flatMap { try dragUser($0, source: nil, drop: board) }
        let (version, targets) = try store.read(board: board) { tx in (tx.baseVersion, try tx.dropTargets(kit)) }
        var engine = SessionEngine(externalItems: items, targets: targets, registry: registry)
        engine.setUser(user)
        let table = BoardAPI.Table(engine.proposalTable())
        let token = try sessions.insert(engine, token: request.token, owner: owner, address: address, user: visitor?.account?.id, payload: payload, board: board,
                                        version: version)
        return BoardAPI.BeginResponse(token: token, version: version, count: items.count, allowsMove: false, restricted: false, table: table,
                                      uploads: .init(types: ImageFormat.allCases.map(\.rawValue), maxBytes: Self.maximumImageSize))
    }

    /// Another window of this app recognised the session's type in a drag: it gets the same
    /// session's table (moves allowed — same origin is the same app).
    func join(_ token: String, board: String? = nil, owner: String, visitor: Visitor? = nil) throws -> BoardAPI.BeginResponse {
        let entry = try sessions.entry(token, owner: owner)
        let board = board ?? entry.board
        // A window of a board the person cannot open joins nothing (404), and their role there rules the drop.
        let local = entry.engine.withLock { $0.dragSession != nil }
        let user = try visitor.flatMap { try dragUser($0, source: local ? entry.board : nil, drop: board) }
        let (version, targets) = try store.read(board: board) { tx in (tx.baseVersion, try tx.dropTargets(kit, movingLists: entry.movesLists)) }
        entry.dropBoard.withLock { $0 = board }
        return entry.engine.withLock { engine in
            engine.updateTargets(targets)
            if visitor?.account != nil { engine.setUser(user) }
            return BoardAPI.BeginResponse(token: token, version: version, count: engine.dropSession.items.count,
                                          allowsMove: engine.dropSession.allowsMoveOperation,
                                          restricted: engine.dragSession?.isRestrictedToDraggingApplication ?? false,
                                          table: BoardAPI.Table(engine.proposalTable()))
        }
    }

    /// Streams a dropped file of an external session to disk, checking its magic bytes first.
    /// Only a person who may drop on the board takes uploads (a viewer's drop would be refused anyway).
    package func uploadSink(_ token: String, request: Request, owner: String) throws -> any RequestBodySink {
        let entry = try sessions.entry(token, owner: owner)
        guard let payload = entry.payload else { throw DragboardError.badRequest("only drops from outside upload files") }
        let visitor = Visitor.of(request)
        if visitor.account != nil, let refusal = try dragUser(of: entry, token: token, visitor: visitor)?.refusal {
            throw DragboardError.forbidden(refusal)
        }
        // The browser percent-encodes the name; it is a label, so odd characters are dropped.
        let raw = request.headers["X-File-Name"] ?? ""
        let name = String(WireGrammar.cleanedName(raw.removingPercentEncoding ?? raw).prefix(200))
        // Refused before a byte is stored when the board's images, with the files other drags hold, are at
        // their quota, or the drag's, the address's or the server's share of waiting files is used up. A
        // body sent in chunks has no length: it reserves the largest file allowed, trimmed once complete.
        let declared = request.headers["Content-Length"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        let reserved = min(declared ?? Self.maximumImageSize, Self.maximumImageSize)
        let waiting = sessions.uploads.total
        try store.read(board: entry.dropBoard.withLock { $0 }) { try checkImageQuota(adding: 1, bytes: reserved + waiting, tx: $0) }
        try sessions.reserveUpload(reserved, for: entry)
        do {
            return try ImageUploadSink(payload: payload, name: name.isEmpty ? "image" : name, limit: Self.maximumImageSize, reserved: reserved) { [sessions] bytes in
                sessions.releaseUpload(bytes, for: entry)
            }
        } catch {
            sessions.releaseUpload(reserved, for: entry)
            throw error
        }
    }
}
