import DragAndDrop
import Foundation

/// What building drop targets needs to read, from a snapshot or inside a write transaction.
package protocol BoardReading {
    func listRecords() throws -> [ListRecord]
    func rowCount(in listID: String) throws -> Int
    func topRows(in listID: String) throws -> [ItemRecord]
    /// The top-level rows of `listID` whose kind is one of `kinds`, in display order.
    func containerRows(in listID: String, kinds: [String]) throws -> [ItemRecord]
    /// How many rows the container row `containerID` of `listID` holds.
    func rowCount(in listID: String, container containerID: String) throws -> Int
    /// Whether the kit's zones are targets here.
    var hasZones: Bool { get }
    /// Each of `lists`' top-level row count, by list id (``rowCount(in:)`` of each, by default).
    func rowCounts(of lists: [ListRecord]) throws -> [String: Int]
    /// Each of `lists`' container rows whose kind is one of `kinds`, in display order, with how
    /// many rows each holds, by list id (``containerRows(in:kinds:)`` and
    /// ``rowCount(in:container:)``, by default).
    func containers(of lists: [ListRecord], kinds: [String]) throws -> [String: [(row: ItemRecord, rowCount: Int)]]
}

extension BoardReading {
    package func rowCounts(of lists: [ListRecord]) throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for list in lists { counts[list.id] = try rowCount(in: list.id) }
        return counts
    }

    package func containers(of lists: [ListRecord], kinds: [String]) throws -> [String: [(row: ItemRecord, rowCount: Int)]] {
        var containers: [String: [(row: ItemRecord, rowCount: Int)]] = [:]
        for list in lists {
            containers[list.id] = try containerRows(in: list.id, kinds: kinds).map { ($0, try rowCount(in: list.id, container: $0.id)) }
        }
        return containers
    }
}

extension BoardSnapshot: BoardReading {
    package func listRecords() -> [ListRecord] { lists }
    package func rowCount(in listID: String) -> Int { rows(in: listID).count }
    package func topRows(in listID: String) -> [ItemRecord] { rows(in: listID) }
    package func containerRows(in listID: String, kinds: [String]) -> [ItemRecord] { rows(in: listID).filter { kinds.contains($0.kind) } }
    package func rowCount(in listID: String, container containerID: String) -> Int { contents(of: containerID).count }
    package var hasZones: Bool { true }
}

extension BoardReading {
    /// The targets of a session: the board's lists and zones, or, for lists dragged by their
    /// headers, only the board as the collection of its lists.
    package func dropTargets(_ kit: BoardKit, movingLists: Bool) throws -> DropTargets {
        guard movingLists else { return try dropTargets(kit) }
        var targets = DropTargets()
        targets.add(ListTarget(id: BoardKit.listsTargetID, rowCount: try listRecords().count), delegate: ListOrderDropDelegate())
        return targets
    }

    /// The page's drop targets: each list with the delegate its kind builds for it (a list of
    /// an unregistered kind takes no drops), then the kit's zones.
    ///
    /// Runs on every drag start and inside every drop's write transaction: the row counts and the
    /// containers are read for all lists at once, not list by list.
    package func dropTargets(_ kit: BoardKit) throws -> DropTargets {
        var targets = DropTargets()
        let lists = try listRecords()
        let counts = try rowCounts(of: lists)
        let kinds = kit.contentsListKinds
        let containers = kinds.isEmpty ? [:] : try self.containers(of: lists.filter { kit.listKind($0.kind) != nil }, kinds: kinds)
        for list in lists {
            guard let kind = kit.listKind(list.kind) else { continue }
            let count = counts[list.id] ?? 0
            let rows = kind.dropDelegateReadsRows ? try topRows(in: list.id).map(BoardItem.init) : nil
            targets.add(ListTarget(id: list.id, rowCount: count), delegate: kind.dropDelegate(for: BoardList(record: list, rowCount: count, rows: rows)))
            for (row, rowCount) in containers[list.id] ?? [] {
                let container = BoardContainer(item: BoardItem(row), list: list, rowCount: rowCount)
                guard let delegate = kit.itemKind(row.kind).contentsDropDelegate(for: container) else { continue }
                targets.add(ListTarget(id: row.id, rowCount: container.rowCount), delegate: delegate)
            }
        }
        for zone in kit.zones where hasZones {
            targets.add(ZoneTarget(id: zone.id), delegate: zone.dropDelegate())
        }
        return targets
    }
}
