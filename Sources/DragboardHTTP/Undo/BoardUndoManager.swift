import Dragboard
import Foundation

/// One browser's undo history on a board, shaped like Foundation's `UndoManager`: every drop
/// and edit the browser made is recorded by the server with what it did, row by row, and can
/// be taken back and done again through the same path as a drop (one transaction, the
/// board's version +1, every viewer told live).
///
/// ```swift
/// let undo = service.undoManager(forBrowser: browserID, board: "demo")
/// if undo.canUndo {
///     print(undo.undoActionName)   // "Move Milk to Done"
///     try undo.undo()
/// }
/// ```
public struct BoardUndoManager: Sendable {
    let service: BoardService
    /// The browser identity (its cookie) whose history this is.
    public let browser: String
    /// The board whose changes this takes back; nil: the browser's newest change on any board.
    public let board: String?

    private var state: UndoState { (try? service.undoState(browser: browser, board: board)) ?? UndoState() }

    /// Whether there is a change to take back.
    public var canUndo: Bool { state.canUndo }
    /// Whether there is an undone change to do again (a new change empties it).
    public var canRedo: Bool { state.canRedo }
    /// The name of the change ``undo()`` takes back ("Move Milk to Done"); "" when none.
    public var undoActionName: String { state.undoActionName ?? "" }
    /// The name of the change ``redo()`` does again; "" when none.
    public var redoActionName: String { state.redoActionName ?? "" }

    /// Takes back the newest change, applied to the board as it is now; returns the message
    /// ("Undid “Move Milk to Done”.").
    /// - Throws: a 409 `HTTPError` with the reason ("“Milk” in Done was moved by someone
    ///   else since") when the change no longer applies; nothing is changed then.
    @discardableResult
    public func undo() throws -> String { try run(redo: false) }

    /// Does the most recently undone change again.
    @discardableResult
    public func redo() throws -> String { try run(redo: true) }

    private func run(redo: Bool) throws -> String {
        do {
            return try service.undo(browser: browser, board: board, op: UUID().uuidString.lowercased(), redo: redo).message
        } catch {
            throw DragboardError.from(error)
        }
    }
}

extension BoardService {
    /// The undo history of the browser with this identity (the value of its `dragboard_csrf`
    /// cookie), on `board` or, with nil, across boards.
    public func undoManager(forBrowser browser: String, board: String? = nil) -> BoardUndoManager {
        BoardUndoManager(service: self, browser: browser, board: board)
    }
}
