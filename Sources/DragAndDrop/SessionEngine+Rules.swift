import Foundation

extension SessionEngine {
    /// The engine's rules, applied to every answer whatever a delegate said:
    /// - a drag from another app or origin can only copy: `move` becomes `copy`;
    /// - `move` when the source does not allow moves becomes `cancel`;
    /// - a nil destination forces the `unspecified` intent;
    /// - only `cancel` and `forbidden` carry a reason, and the engine's own refusals say theirs;
    /// - a person who may not drop here (``DragUser/refusal``) is forbidden, in their words.
    func enforce(_ proposal: DropProposal, destination: IndexPath?, isList: Bool) -> DropProposal {
        var enforced = proposal
        if let refusal = dropSession.user?.refusal {
            enforced = .forbidden(refusal)
            if destination == nil || !isList { enforced.intent = .unspecified }
            return enforced
        }
        if enforced.operation == .move {
            if dropSession.localDragSession == nil {
                enforced.operation = .copy
            } else if !dropSession.allowsMoveOperation {
                enforced.operation = .cancel
                enforced.reason = Self.reasonMoveNotAllowed
            }
        }
        if destination == nil || !isList { enforced.intent = .unspecified }
        if enforced.operation.performsDrop { enforced.reason = nil }
        return enforced
    }

    /// The engine's reason when a delegate proposes `move` and the source does not allow it.
    public static let reasonMoveNotAllowed = "These items can only be copied, not moved"
    /// The engine's reason when a target's `canHandle` said no and the delegate gave none.
    public static let reasonNotHandled = "This target does not take these items"

    /// Asks the delegate of `list` about `location` and resolves `automatic` by position in the row.
    func resolve(_ location: DropLocation, in list: ListTarget, delegate: any ListDropDelegate, session: DropSession) throws -> ResolvedProposal {
        func ask(_ row: Int?) -> DropProposal {
            let indexPath = row.map { IndexPath(row: $0, section: list.section) }
            let answer = delegate.dropSessionDidUpdate(session, in: list, withDestinationIndexPath: indexPath)
            return enforce(answer, destination: indexPath, isList: true)
        }
        switch location {
        case .noRow:
            return ResolvedProposal(proposal: ask(nil), destinationIndexPath: nil)
        case .row(let row, let fraction):
            guard (0..<list.rowCount).contains(row) else {
                throw DragAndDropError.destinationOutOfRange(row, rowCount: list.rowCount)
            }
            return Self.resolveRow(row, fraction: fraction, section: list.section, zones: automaticZones, proposal: ask)
        }
    }

    /// The resolution shared by the engine and the browser (which mirrors it from the table):
    /// the hovered row's own answer decides insert-into and automatic; otherwise the gap
    /// nearest the pointer (before or after the row) is the destination.
    static func resolveRow(
        _ row: Int, fraction: Double, section: Int, zones: AutomaticIntentZones, proposal: (Int) -> DropProposal
    ) -> ResolvedProposal {
        var own = proposal(row)
        switch own.intent {
        case .insertIntoDestinationIndexPath:
            return ResolvedProposal(proposal: own, destinationIndexPath: IndexPath(row: row, section: section))
        case .automatic:
            switch zones.zone(at: fraction) {
            case .into:
                own.intent = .insertIntoDestinationIndexPath
                return ResolvedProposal(proposal: own, destinationIndexPath: IndexPath(row: row, section: section))
            case .before:
                own.intent = .insertAtDestinationIndexPath
                return ResolvedProposal(proposal: own, destinationIndexPath: IndexPath(row: row, section: section))
            case .after:
                break
            }
        case .insertAtDestinationIndexPath, .unspecified:
            if fraction < 0.5 {
                return ResolvedProposal(proposal: own, destinationIndexPath: IndexPath(row: row, section: section))
            }
        }
        // The gap after the row: that destination's answer, never into a row the pointer is not over.
        var after = proposal(row + 1)
        if after.intent == .automatic || after.intent == .insertIntoDestinationIndexPath {
            after.intent = .insertAtDestinationIndexPath
        }
        return ResolvedProposal(proposal: after, destinationIndexPath: IndexPath(row: row + 1, section: section))
    }
}

extension SessionEngine {
    /// The engine's reason when the browser showed a refusal that the current state would accept:
    /// the stricter answer wins, and the person is told why nothing happened.
    public static let reasonShownRefusal = "The drop was refused, as shown while dragging"
}
