/// Where an owner's undo and redo stand on a board: what ``BoardStore/undoState(owner:board:)`` answers.
public struct UndoState: Sendable, Equatable {
    /// The action the next undo would take back ("Move Milk"), or nil when there is none.
    public var undoActionName: String?
    /// The action the next redo would do again, or nil when there is none.
    public var redoActionName: String?
    public var canUndo: Bool { undoActionName != nil }

    public init(undoActionName: String? = nil, redoActionName: String? = nil) {
        self.undoActionName = undoActionName
        self.redoActionName = redoActionName
    }

    public var canRedo: Bool { redoActionName != nil }
}
