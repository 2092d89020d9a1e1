import DragAndDrop
import Foundation

/// What building drop targets needs to read, from a snapshot or inside a write transaction.
protocol BoardReading {
    func listRecords() throws -> [ListRecord]
    func rowCount(in listID: String) throws -> Int
    func topRows(in listID: String) throws -> [ItemRecord]
}

extension BoardSnapshot: BoardReading {
    func listRecords() -> [ListRecord] { lists }
    func rowCount(in listID: String) -> Int { rows(in: listID).count }
    func topRows(in listID: String) -> [ItemRecord] { rows(in: listID) }
}

extension BoardTransaction: BoardReading {
    func listRecords() throws -> [ListRecord] { try lists() }
    func topRows(in listID: String) throws -> [ItemRecord] { try rows(in: listID) }
}

extension BoardReading {
    /// The page's drop targets with each list's delegate, chosen by the list's kind.
    func dropTargets() throws -> DropTargets {
        var targets = DropTargets()
        for list in try listRecords() {
            let target = ListTarget(id: list.id, rowCount: try rowCount(in: list.id))
            switch ListKind(rawValue: list.kind) {
            case .cat: targets.add(target, delegate: CatDropDelegate(name: list.title))
            case .places: targets.add(target, delegate: PlacesDropDelegate())
            case .people: targets.add(target, delegate: PeopleDropDelegate())
            case .toyBoxes: targets.add(target, delegate: ToyBoxesDropDelegate(rows: try topRows(in: list.id).map(BoardItem.init)))
            case nil: continue
            }
        }
        targets.add(ZoneTarget(id: ImageWellDelegate.id), delegate: ImageWellDelegate())
        targets.add(ZoneTarget(id: LabelDelegate.id), delegate: LabelDelegate())
        return targets
    }
}
