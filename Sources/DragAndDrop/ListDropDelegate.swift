import Foundation

/// The destination side of a list, like `UITableViewDropDelegate`.
///
/// The engine calls these in UIKit's order: `canHandle` → `didEnter` → `didUpdate`… →
/// `didExit` or `performDrop` → `didEnd`. When `canHandle` answers false the list gets no
/// further calls for the session. ``dropSessionDidUpdate(_:in:withDestinationIndexPath:)`` must
/// be a fast, pure function of its arguments: the engine also evaluates it ahead of the hover
/// to build the proposal table the browser answers `dragover` from.
public protocol ListDropDelegate: Sendable {
    /// Whether the list might accept the session's items. Default: true.
    func canHandle(_ session: DropSession, in list: ListTarget) -> Bool
    func dropSessionDidEnter(_ session: DropSession, in list: ListTarget)
    /// The proposal for a destination; `nil` means empty space (the intent becomes `unspecified`).
    func dropSessionDidUpdate(_ session: DropSession, in list: ListTarget, withDestinationIndexPath destinationIndexPath: IndexPath?) -> DropProposal
    func dropSessionDidExit(_ session: DropSession, in list: ListTarget)
    /// Places the items through the coordinator; data may be loaded only here.
    func performDrop(in list: ListTarget, with coordinator: inout DropCoordinator) throws
    /// The session ended; reaches every list that ever saw enter, update or exit.
    func dropSessionDidEnd(_ session: DropSession, in list: ListTarget)
    /// Proposals for every destination `0...rowCount`, as runs. The default asks
    /// `dropSessionDidUpdate` for each row; override it to answer for a whole list at once.
    func dropProposals(for session: DropSession, in list: ListTarget) -> [ProposalRun]
}

extension ListDropDelegate {
    public func canHandle(_ session: DropSession, in list: ListTarget) -> Bool { true }
    public func dropSessionDidEnter(_ session: DropSession, in list: ListTarget) {}
    public func dropSessionDidExit(_ session: DropSession, in list: ListTarget) {}
    public func dropSessionDidEnd(_ session: DropSession, in list: ListTarget) {}

    public func dropProposals(for session: DropSession, in list: ListTarget) -> [ProposalRun] {
        var runs = ProposalRunBuilder()
        for row in 0...list.rowCount {
            runs.append(dropSessionDidUpdate(session, in: list, withDestinationIndexPath: IndexPath(row: row, section: list.section)))
        }
        return runs.runs
    }
}

/// The destination side of a target that is not a list (an image well, a label), like `UIDropInteractionDelegate`.
public protocol DropZoneDelegate: Sendable {
    func canHandle(_ session: DropSession, in zone: ZoneTarget) -> Bool
    func dropSessionDidEnter(_ session: DropSession, in zone: ZoneTarget)
    /// Must be fast and pure, as for lists.
    func dropSessionDidUpdate(_ session: DropSession, in zone: ZoneTarget) -> DropProposal
    func dropSessionDidExit(_ session: DropSession, in zone: ZoneTarget)
    /// Takes the items through `coordinator.accept(_:content:)`; data may be loaded only here.
    func performDrop(in zone: ZoneTarget, with coordinator: inout DropCoordinator) throws
    func dropSessionDidEnd(_ session: DropSession, in zone: ZoneTarget)
}

extension DropZoneDelegate {
    public func canHandle(_ session: DropSession, in zone: ZoneTarget) -> Bool { true }
    public func dropSessionDidEnter(_ session: DropSession, in zone: ZoneTarget) {}
    public func dropSessionDidExit(_ session: DropSession, in zone: ZoneTarget) {}
    public func dropSessionDidEnd(_ session: DropSession, in zone: ZoneTarget) {}
}
