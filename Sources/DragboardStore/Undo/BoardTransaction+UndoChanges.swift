import Dragboard

extension BoardTransaction {
    /// What an undo's effects changed on the page, in domain changes (rendered by whoever shows
    /// them): rows taken away, rows (re)inserted after their predecessor, containers and zones
    /// shown again, the title, and a catch-up when lists changed.
    package func changes(of effects: UndoEffects, kit: BoardKit) throws -> [BoardChange] {
        if effects.boardGone { return [BoardChange(kind: .gone, item: boardID)] }
        var changes: [BoardChange] = []
        if effects.boardTitle != nil { changes.append(BoardChange(kind: .title, item: boardID)) }
        if !effects.lists.isEmpty || effects.labels { changes.append(BoardChange(kind: .resync, item: BoardKit.listsTargetID)) }
        var inserts: [(list: String, index: Int, id: String)] = []
        var containers: [String] = []
        for id in Set(effects.items).sorted() {
            changes.append(BoardChange(kind: .remove, item: id))
            guard let item = try? itemOnBoard(id) else { continue }
            if item.containerID == nil { inserts.append((item.listID, try index(of: id, in: item.listID) ?? 0, id)) }
        }
        for id in effects.containers.sorted() {
            var top = try? itemOnBoard(id)
            while let container = top?.containerID { top = try? item(container) }
            if let top, !containers.contains(top.id), !inserts.contains(where: { $0.id == top.id }) { containers.append(top.id) }
        }
        for insert in inserts.sorted(by: { ($0.list, $0.index) < ($1.list, $1.index) }) {
            let item = try item(insert.id)
            changes.append(BoardChange(kind: .insert, item: item.id, list: item.listID, after: try predecessor(of: item.id)))
        }
        for id in containers {
            changes.append(BoardChange(kind: .replace, item: id, list: try item(id).listID))
        }
        if hasZones {
            for zoneID in effects.zones.sorted() where kit.zone(zoneID) != nil {
                changes.append(BoardChange(kind: .zone, item: zoneID))
            }
        }
        return changes
    }
}
