import DragAndDrop

extension DropSession {
    /// Items dragged from this app must still be where the drag found them, whatever version the
    /// page says it saw: a page is not trusted to know what someone else did since.
    /// - Throws: ``DragboardError/conflict(_:)`` when one was moved or deleted meanwhile.
    package func checkItemsUnmoved(on board: some BoardWriting) throws {
        guard let source = dragSource else { return }
        if source.listID == BoardKit.listsTargetID {
            let lists = Set(try board.lists().map(\.id))
            for case let id as String in items.compactMap(\.localObject) where !lists.contains(id) {
                throw DragboardError.conflict("a list you dragged was deleted or moved to another board; the board was refreshed")
            }
            return
        }
        for dragged in items {
            guard let id = dragged.localObject as? String else { continue }
            let name = dragged.itemProvider.suggestedName.map { "“\($0)”" } ?? "a card you dragged"
            guard let item = try? board.item(id) else {
                let deleter = dragged.itemProvider.suggestedName.flatMap { try? board.deleter(ofItemTitled: $0) }
                throw DragboardError.conflict("\(name) was deleted by \(deleter ?? "someone else") while you dragged it; nothing was changed")
            }
            // A row dragged out of an open container is still in that container.
            guard (item.listID == source.listID && item.containerID == nil) || item.containerID == source.listID else {
                throw DragboardError.conflict("\(name) was moved by someone else while you dragged it; the board was refreshed")
            }
        }
    }
}

extension DropLocation {
    /// A location a stale page pointed at by index, found again by the id of the row it hovered
    /// (`hoveredItem`): rows are rebased by id, never by index.
    /// - Throws: ``DragboardError/conflict(_:)`` when that row is no longer in the target list.
    package func rebased(hoveredItem: String?, target: DropTargetID, on board: some BoardWriting) throws -> DropLocation {
        guard case .row(_, let fraction) = self, case .list(let listID) = target, listID != BoardKit.listsTargetID else { return self }
        guard let hoveredItem, let index = try board.index(of: hoveredItem, in: listID) ?? board.index(of: hoveredItem, inContainer: listID) else {
            throw DragboardError.conflict("the row you dropped on has changed since your view; the board was refreshed")
        }
        return .row(index, fraction: fraction)
    }
}
