import DragAndDrop
import Dragboard
import DragboardStore
import Foundation

extension BoardService {
    struct Applied {
        var changes: [BoardAPI.Change]
        var message: String
    }

    /// Applies a performed drop's placements and describes the changes for every viewer.
    /// Images moved into the image folder are appended to `storedFiles`, for the caller to remove if the
    /// transaction rolls back.
    func applyPlacements(_ result: SessionEngine.DropResult, session: DropSession, tx: BoardTransaction, storedFiles: inout [URL]) throws -> Applied {
        let listID: String
        switch result.target {
        case .list(let id) where id == BoardKit.listsTargetID: return try applyListOrder(result, tx: tx)
        case .list(let id): listID = id
        case .zone(let zoneID): return try applyToZone(zoneID, result, tx: tx, storedFiles: &storedFiles)
        }
        guard let list = try tx.lists().first(where: { $0.id == listID }), let kind = kit.listKind(list.kind) else {
            if let container = try contentsListContainer(listID, tx: tx) { return try applyToContainer(container, result, tx: tx, storedFiles: &storedFiles) }
            throw DragboardError.notFound("unknown list \(listID)")
        }
        let rows = result.placements.filter { if case .row = $0.destination { true } else { false } }
        let into = result.placements.filter { if case .into = $0.destination { true } else { false } }
        var changes: [BoardAPI.Change] = []
        var titles: [String] = []

        if let first = rows.first, case .row(let indexPath) = first.destination {
            let placement = Placement(listID: listID, index: indexPath.row)
            let (ids, moved, names) = try land(rows, at: placement, in: list, kind: kind, tx: tx, storedFiles: &storedFiles)
            titles += names
            for id in moved { changes.append(.init(kind: .remove, item: id)) }
            for id in ids {
                changes.append(.init(kind: .insert, item: id, list: listID, after: try tx.predecessor(of: id)))
            }
        }
        if let first = into.first, case .into(let indexPath) = first.destination {
            // The one row at that index, not the whole list (beside the hovered row a rebased drop counted).
            guard indexPath.row >= 0, let row = try tx.rowBound(at: indexPath.row, in: Gap(listID: listID, containerID: nil)),
                  case let container = try tx.item(row.id), kit.isContainer(container.kind) else {
                throw DragboardError.unprocessable("row \(indexPath.row) is not a container")
            }
            let (_, moved, names) = try land(into, at: Placement(listID: listID, containerID: container.id), in: list, kind: kind, tx: tx, storedFiles: &storedFiles)
            titles += names
            for id in moved { changes.append(.init(kind: .remove, item: id)) }
            changes.append(.init(kind: .replace, item: container.id, list: listID))
            return Applied(changes: changes, message: "Put \(Self.names(titles)) into \(container.title).")
        }
        let verb = result.proposal.operation == .move ? "Moved" : "Copied"
        if let source = session.dragSource, source.listID != listID {
            return Applied(changes: changes, message: "\(verb) \(Self.names(titles)) from \(source.title) to \(list.title).")
        }
        return Applied(changes: changes, message: "\(verb) \(Self.names(titles)) to \(list.title).")
    }

    /// Moves, copies or inserts the placements' items consecutively; returns the ids now at the
    /// destination, the ids that left where they were, and the titles.
    func land(_ placements: [DropPlacement], at placement: Placement, in list: ListRecord, kind: any ListKind,
                       tx: BoardTransaction, storedFiles: inout [URL]) throws -> ([String], [String], [String]) {
        let local = placements.compactMap { $0.item.dragItem.localObject as? String }
        if local.count == placements.count {
            let titles = try local.map { try tx.item($0).title }
            if placements.first?.operation == .move {
                try tx.move(local, to: placement)
                return (local, local, titles)
            }
            return (try tx.copy(local, to: placement), [], titles)
        }
        let newItems = try placements.map { placement -> NewItem in
            guard var content = placement.content else { throw DragboardError.unprocessable("a dropped item has no content") }
            // An image a list takes is kept like a zone's: the list kind gets it stored.
            if let image = content as? DroppedImage { content = try store(image, tx: tx, storedFiles: &storedFiles) }
            return try kind.newItem(from: content, in: list)
        }
        return (try tx.insert(newItems, at: placement), [], newItems.map(\.title))
    }

    /// Moves an uploaded image into the image folder and records it (under the list images'
    /// own zone id, so the image quota counts it), in this transaction.
    private func store(_ image: DroppedImage, tx: BoardTransaction, storedFiles: inout [URL]) throws -> StoredImage {
        try checkImageQuota(adding: 1, bytes: image.size, tx: tx)
        return StoredImage(id: try keep(image, zoneID: Self.listImagesZone, tx: tx, storedFiles: &storedFiles), name: image.name)
    }

    /// Records `image` under `zoneID` and moves its file into the image folder; returns its id.
    private func keep(_ image: DroppedImage, zoneID: String, tx: BoardTransaction, storedFiles: inout [URL]) throws -> String {
        let id = UUID().uuidString.lowercased()
        try tx.addImage(ZoneImageRecord(id: id, zoneID: zoneID, name: image.name, mimeType: image.format.rawValue, size: image.size))
        let stored = imagesDirectory.appendingPathComponent(id)
        try FileManager.default.moveItem(at: image.file, to: stored)
        storedFiles.append(stored)
        return id
    }

    /// The zone id images dropped on lists are recorded under (no zone of the page has it).
    static let listImagesZone = "_lists"

    /// The zone's kind stores what its delegate accepted, in this transaction.
    private func applyToZone(_ zoneID: String, _ result: SessionEngine.DropResult, tx: BoardTransaction, storedFiles: inout [URL]) throws -> Applied {
        guard let zone = kit.zone(zoneID) else { throw DragboardError.notFound("unknown zone \(zoneID)") }
        var stored: [URL] = []
        defer { storedFiles += stored }
        var writer = ZoneWriter(zoneID: zoneID, addImages: { [self] images in
            try checkImageQuota(adding: images.count, bytes: images.reduce(0) { $0 + $1.size }, tx: tx)
            for image in images { _ = try keep(image, zoneID: zoneID, tx: tx, storedFiles: &stored) }
        }, setText: { text in try tx.setLabel(zoneID, text: text) })
        let message = try zone.performDrop(result.placements, in: &writer)
        return Applied(changes: [.init(kind: .zone, item: zoneID)], message: message)
    }

    /// Lists dropped on the board between two others: their new order, fetched by every viewer.
    private func applyListOrder(_ result: SessionEngine.DropResult, tx: BoardTransaction) throws -> Applied {
        let ids = result.placements.compactMap { $0.item.dragItem.localObject as? String }
        guard let first = result.placements.first, case .row(let indexPath) = first.destination, ids.count == result.placements.count else {
            throw DragboardError.unprocessable("lists only move between lists")
        }
        let lists = try tx.lists()
        // The engine counts the destination among all lists; the store counts it without the moved ones.
        let before = lists.prefix(indexPath.row).filter { ids.contains($0.id) }.count
        try tx.moveLists(ids, to: indexPath.row - before)
        let titles = ids.compactMap { id in lists.first { $0.id == id }?.title }
        return Applied(changes: [.init(kind: .resync, item: BoardKit.listsTargetID)], message: "Moved the list \(Self.names(titles)).")
    }

    static func names(_ titles: [String]) -> String {
        titles.count <= 2 ? titles.joined(separator: " and ") : "\(titles.count) items"
    }
}
