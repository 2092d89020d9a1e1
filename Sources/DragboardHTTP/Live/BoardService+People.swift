import DragAndDrop
import Dragboard
import DragboardStore
import Foundation
import Passwords
import Synchronization

extension BoardService {
    /// Tells `board`'s viewers of a change in the words of its activity (the side panel).
    func tellActivity(board: String, version: Int, author: String, words: String) {
        live.tellActivity(board: board, version: version, author: author, words: words, at: Date())
    }

    /// Tells the viewers of the board a drag is over who is moving what: at its beginning and at
    /// each change of target (`ended`: at its end). Only signed-in people's drags of rows are told.
    func tellDragging(_ entry: DragSessions.Entry, token: String, visitor: Visitor?, ended: Bool = false) {
        guard let name = visitor?.account?.name, !entry.movesLists, entry.payload == nil else { return }
        let board = entry.dropBoard.withLock { $0 }
        guard live.hasViewers(board) || live.hasViewers(entry.board) else { return }
        let items = entry.engine.withLock { $0.dropSession.items.compactMap { $0.localObject as? String } }
        guard !items.isEmpty else { return }
        var words: String?
        if !ended {
            let titles = (try? store.read(board: entry.board) { tx in items.compactMap { try? tx.item($0).title } }) ?? []
            words = titles.count == 1 ? "\(name) is moving “\(titles[0])”" : "\(name) is moving \(items.count) cards"
        }
        let event = LiveEvent.Dragging(drag: String(SHA256.hex(Array(token.utf8)).prefix(16)), user: name, items: ended ? [] : items,
                                       words: words, ended: ended)
        live.tell(event: LiveEvent.dragging, board: board, json: LiveEvent.json(event))
        if board != entry.board { live.tell(event: LiveEvent.dragging, board: entry.board, json: LiveEvent.json(event)) }
    }
}
