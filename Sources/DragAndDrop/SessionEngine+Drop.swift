import Foundation

extension SessionEngine {
    /// What the caller must do after a drop.
    public enum DropAction: Sendable {
        /// Nothing is applied: the proposal in force was `cancel` or `forbidden`.
        case refuse(DropProposal)
        /// Apply the placements (one transaction), then call ``SessionEngine/conclude()``.
        case perform(DropResult)
    }

    /// A performed drop, for the app to apply.
    public struct DropResult: Sendable {
        public var target: DropTargetID
        public var destinationIndexPath: IndexPath?
        public var proposal: DropProposal
        public var placements: [DropPlacement]
    }

    /// The user released over `target`. The proposal is decided again against the current state
    /// and, when the browser says what it showed, the stricter operation wins. Cancel and
    /// forbidden never reach perform-drop.
    public mutating func drop(on target: DropTargetID, at location: DropLocation, shownOperation: DropOperation? = nil) throws -> DropAction {
        try requireDragging()
        try requireKnown(target)
        if currentTarget != target { try enter(target) }
        guard canHandle(target) else { return .refuse(.cancel(Self.reasonNotHandled)) }
        var resolved = try decide(target, at: location)
        if let shownOperation, shownOperation.strictness > resolved.proposal.operation.strictness {
            resolved.proposal = enforce(DropProposal(operation: shownOperation, intent: resolved.proposal.intent, reason: resolved.proposal.reason ?? Self.reasonShownRefusal), destination: resolved.destinationIndexPath, isList: true)
        }
        guard resolved.proposal.operation.performsDrop else { return .refuse(resolved.proposal) }

        var session = dropSession
        session.isPerformingDrop = true
        let sourceList = dropSession.localDragSession?.sourceList
        let sourcePaths = dropSession.localDragSession?.sourceIndexPaths ?? []
        let items = dropSession.items.enumerated().map { index, item in
            let fromHere = sourceList.map { DropTargetID.list($0.id) == target } ?? false
            return DropItem(dragItem: item, sourceIndexPath: fromHere && index < sourcePaths.count ? sourcePaths[index] : nil)
        }
        var coordinator = DropCoordinator(items: items, destinationIndexPath: resolved.destinationIndexPath, proposal: resolved.proposal,
                                          session: session, target: target, placeholderSeed: placeholderSeed)
        switch target {
        case .list(let id):
            guard let (list, delegate) = targets.list(id) else { throw DragAndDropError.unknownTarget(target) }
            try delegate.performDrop(in: list, with: &coordinator)
        case .zone(let id):
            guard let (zone, delegate) = targets.zone(id) else { throw DragAndDropError.unknownTarget(target) }
            try delegate.performDrop(in: zone, with: &coordinator)
        }
        for placement in coordinator.placements {
            if case .placeholder(let id, _) = placement.destination {
                openPlaceholders.insert(id)
                placeholderSeed = max(placeholderSeed, id.rawValue + 1)
            }
        }
        phase = .dropped(resolved.proposal.operation, on: target)
        return .perform(DropResult(target: target, destinationIndexPath: resolved.destinationIndexPath,
                                   proposal: resolved.proposal, placements: coordinator.placements))
    }

    /// The app applied the drop: like UIKit's conclude-drop, after the data source changed.
    public mutating func conclude() {
        concluded = true
    }

    /// Replaces a placeholder with the real row. False if it is unknown or already resolved.
    public mutating func commitPlaceholder(_ id: DropPlaceholderID) -> Bool {
        openPlaceholders.remove(id) != nil
    }

    /// Removes a placeholder (its data failed to load). False if it is unknown or already resolved.
    public mutating func deletePlaceholder(_ id: DropPlaceholderID) -> Bool {
        openPlaceholders.remove(id) != nil
    }

    /// Placeholders neither committed nor deleted yet.
    public var pendingPlaceholders: Set<DropPlaceholderID> { openPlaceholders }

    /// Ends the session: did-end reaches every target that ever saw enter, update or exit, and
    /// the source learns the operation (`cancel` when nothing was dropped). Calling it again
    /// returns the same outcome without calling anyone.
    @discardableResult
    public mutating func end() -> SessionOutcome {
        if let outcome { return outcome }
        if phase == .dragging, let current = currentTarget { try? exit(current) }
        let result: SessionOutcome
        switch phase {
        case .dropped(let operation, let target):
            result = SessionOutcome(operation: operation, target: target, endedTargets: touchedTargets)
        case .dragging, .ended:
            result = SessionOutcome(operation: .cancel, target: nil, endedTargets: touchedTargets)
        }
        for target in touchedTargets {
            switch target {
            case .list(let id): if let (list, delegate) = targets.list(id) { delegate.dropSessionDidEnd(dropSession, in: list) }
            case .zone(let id): if let (zone, delegate) = targets.zone(id) { delegate.dropSessionDidEnd(dropSession, in: zone) }
            }
        }
        if let (list, delegate) = source, let dragSession {
            delegate.dragSessionDidEnd(dragSession, in: list, operation: result.operation)
        }
        phase = .ended
        outcome = result
        return result
    }
}
