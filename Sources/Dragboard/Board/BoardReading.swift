import DragAndDrop
import Foundation

/// What building drop targets needs to read, from a snapshot or inside a write transaction.
protocol BoardReading {
    func listRecords() throws -> [ListRecord]
    func rowCount(in listID: String) throws -> Int
    func topRows(in listID: String) throws -> [ItemRecord]
    /// The top-level rows of `listID` whose kind is one of `kinds`, in display order.
    func containerRows(in listID: String, kinds: [String]) throws -> [ItemRecord]
    /// How many rows the container row `containerID` of `listID` holds.
    func rowCount(in listID: String, container containerID: String) throws -> Int
    /// Whether the kit's zones are targets here.
    var hasZones: Bool { get }
}

extension BoardSnapshot: BoardReading {
    func listRecords() -> [ListRecord] { lists }
    func rowCount(in listID: String) -> Int { rows(in: listID).count }
    func topRows(in listID: String) -> [ItemRecord] { rows(in: listID) }
    func containerRows(in listID: String, kinds: [String]) -> [ItemRecord] { rows(in: listID).filter { kinds.contains($0.kind) } }
    func rowCount(in listID: String, container containerID: String) -> Int { contents(of: containerID).count }
    var hasZones: Bool { true }
}

extension BoardTransaction: BoardReading {
    func listRecords() throws -> [ListRecord] { try lists() }
    func topRows(in listID: String) throws -> [ItemRecord] { try rows(in: listID) }
    func rowCount(in listID: String, container containerID: String) throws -> Int { try rowCount(listID, containerID) }
}

extension BoardReading {
    /// The targets of a session: the board's lists and zones, or, for lists dragged by their
    /// headers, only the board as the collection of its lists.
    func dropTargets(_ kit: BoardKit, movingLists: Bool) throws -> DropTargets {
        guard movingLists else { return try dropTargets(kit) }
        var targets = DropTargets()
        targets.add(ListTarget(id: BoardKit.listsTargetID, rowCount: try listRecords().count), delegate: ListOrderDropDelegate())
        return targets
    }

    /// The page's drop targets: each list with the delegate its kind builds for it (a list of
    /// an unregistered kind takes no drops), then the kit's zones.
    func dropTargets(_ kit: BoardKit) throws -> DropTargets {
        var targets = DropTargets()
        for list in try listRecords() {
            guard let kind = kit.listKind(list.kind) else { continue }
            let count = try rowCount(in: list.id)
            let rows = kind.dropDelegateReadsRows ? try topRows(in: list.id).map(BoardItem.init) : nil
            targets.add(ListTarget(id: list.id, rowCount: count), delegate: kind.dropDelegate(for: BoardList(record: list, rowCount: count, rows: rows)))
            try addContainerTargets(of: list, kit, to: &targets)
        }
        for zone in kit.zones where hasZones {
            targets.add(ZoneTarget(id: zone.id), delegate: zone.dropDelegate())
        }
        return targets
    }
}

extension BoardReading {
    /// Each container row of `list` whose contents are a list of their own is a target (whether
    /// the page shows it open or closed), with the delegate its kind builds for it.
    func addContainerTargets(of list: ListRecord, _ kit: BoardKit, to targets: inout DropTargets) throws {
        let kinds = kit.contentsListKinds
        guard !kinds.isEmpty else { return }
        for row in try containerRows(in: list.id, kinds: kinds) {
            let container = BoardContainer(item: BoardItem(row), list: list, rowCount: try rowCount(in: list.id, container: row.id))
            guard let delegate = kit.itemKind(row.kind).contentsDropDelegate(for: container) else { continue }
            targets.add(ListTarget(id: row.id, rowCount: container.rowCount), delegate: delegate)
        }
    }
}
