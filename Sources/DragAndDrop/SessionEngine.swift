import Foundation

/// The state machine of one drag and drop session: UIKit's rules, with no I/O.
///
/// A value per session. Each event method calls the delegates in UIKit's order, enforces the
/// engine's rules whatever the delegates answer, and returns what the caller must do next:
/// draw a proposal, apply placements, tell the source the outcome.
///
/// ```swift
/// var engine = SessionEngine.beginDrag(from: cats, at: [IndexPath(row: 0)], delegate: catDrag, targets: page)!
/// let table = engine.proposalTable()                      // sent to the browser at dragstart
/// _ = try engine.enter(.list("cat-2"))
/// switch try engine.drop(on: .list("cat-2"), at: .row(1, fraction: 0.2)) {
/// case .perform(let result): apply(result.placements)      // one transaction
/// case .refuse(let proposal): show(proposal)
/// }
/// engine.conclude()
/// let outcome = engine.end()                               // tells every entered target and the source
/// ```
public struct SessionEngine: Sendable {
    /// Where the session is in its life.
    public enum Phase: Hashable, Sendable {
        case dragging
        case dropped(DropOperation, on: DropTargetID)
        case ended
    }

    /// The session as drop targets see it.
    public internal(set) var dropSession: DropSession
    public internal(set) var phase: Phase = .dragging
    /// The target under the pointer, if any.
    public internal(set) var currentTarget: DropTargetID?
    public private(set) var targets: DropTargets
    /// The documented zones used to resolve `automatic`.
    public var automaticZones: AutomaticIntentZones = .standard

    var canHandleAnswers: [DropTargetID: Bool] = [:]
    /// Targets that saw enter, update or exit, in first-contact order: all get did-end.
    var touchedTargets: [DropTargetID] = []
    var concluded = false
    var outcome: SessionOutcome?
    var source: (list: ListTarget, delegate: any ListDragDelegate)?
    var openPlaceholders: Set<DropPlaceholderID> = []
    var placeholderSeed = 1

    /// A session for a drag that came from another app or origin: `localDragSession` is nil, so it can only copy.
    public init(externalItems items: [DragItem], targets: DropTargets, registry: TypeRegistry = .standard) {
        self.dropSession = DropSession(items: items, localDragSession: nil, registry: registry)
        self.targets = targets
    }

    /// Begins a drag of `indexPaths` in `list`, asking `delegate` for the items of each row in
    /// list order. Returns nil when the delegate gives no items: no drag begins.
    public static func beginDrag(
        from list: ListTarget, at indexPaths: [IndexPath], delegate: any ListDragDelegate,
        targets: DropTargets, registry: TypeRegistry = .standard
    ) -> SessionEngine? {
        var dragSession = DragSession()
        dragSession.sourceList = list
        var included: [IndexPath] = []
        for indexPath in indexPaths.sorted() {
            let items = delegate.itemsForBeginning(&dragSession, at: indexPath, in: list)
            guard !items.isEmpty else { continue }
            dragSession.items += items
            included.append(indexPath)
        }
        guard !dragSession.items.isEmpty else { return nil }
        dragSession.sourceIndexPaths = included
        dragSession.allowsMoveOperation = delegate.dragSessionAllowsMoveOperation(dragSession, in: list)
        dragSession.isRestrictedToDraggingApplication = delegate.dragSessionIsRestrictedToDraggingApplication(dragSession, in: list)
        delegate.dragSessionWillBegin(dragSession, in: list)
        var engine = SessionEngine(externalItems: dragSession.items, targets: targets, registry: registry)
        engine.dropSession = DropSession(items: dragSession.items, localDragSession: dragSession, registry: registry)
        engine.source = (list, delegate)
        return engine
    }

    /// The drag session when the drag started in this app.
    public var dragSession: DragSession? { dropSession.localDragSession }

    /// Replaces the page's targets, e.g. after another viewer's drop changed row counts.
    public mutating func updateTargets(_ targets: DropTargets) {
        self.targets = targets
    }

    /// Records whether the user holds the copy modifier; later proposals see it.
    public mutating func setCopyModifierPressed(_ pressed: Bool) {
        dropSession.isCopyModifierPressed = pressed
    }
}

/// How a session ended, for the source and for the caller.
public struct SessionOutcome: Hashable, Sendable {
    /// `copy` or `move` when a drop was performed, otherwise `cancel`.
    public var operation: DropOperation
    /// The target that took the drop.
    public var target: DropTargetID?
    /// Every target that received did-end, in order.
    public var endedTargets: [DropTargetID]
}
