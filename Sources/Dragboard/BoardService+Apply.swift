import DragAndDrop
import Foundation

extension BoardService {
    struct Applied {
        var changes: [BoardAPI.Change]
        var message: String
    }

    /// Applies a performed drop's placements and describes the changes for every viewer.
    /// Images moved into place are appended to `storedFiles`, for the caller to remove if the
    /// transaction rolls back.
    func apply(_ result: SessionEngine.DropResult, session: DropSession, tx: BoardTransaction, storedFiles: inout [URL]) throws -> Applied {
        let listID: String
        switch result.target {
        case .list(let id): listID = id
        case .zone(let zoneID): return try applyToZone(zoneID, result, tx: tx, storedFiles: &storedFiles)
        }
        let list = try tx.lists().first { $0.id == listID }
        let rows = result.placements.filter { if case .row = $0.destination { true } else { false } }
        let into = result.placements.filter { if case .into = $0.destination { true } else { false } }
        var changes: [BoardAPI.Change] = []
        var titles: [String] = []

        if let first = rows.first, case .row(let indexPath) = first.destination {
            let placement = Placement(listID: listID, index: indexPath.row)
            let (ids, moved, names) = try place(rows, at: placement, tx: tx)
            titles += names
            for id in moved { changes.append(.init(kind: .remove, item: id)) }
            for id in ids {
                let item = try tx.item(id)
                changes.append(.init(kind: .insert, item: id, list: listID, after: try tx.predecessor(of: id),
                                     html: renderer.row(item, contents: try contents(of: item, tx: tx))))
            }
        }
        if let first = into.first, case .into(let indexPath) = first.destination {
            let boxes = try tx.rows(in: listID)
            guard boxes.indices.contains(indexPath.row), boxes[indexPath.row].kind == ItemKind.box.rawValue else {
                throw DragboardError.unprocessable("row \(indexPath.row) is not a container")
            }
            let box = boxes[indexPath.row]
            let (_, moved, names) = try place(into, at: Placement(listID: listID, containerID: box.id), tx: tx)
            titles += names
            for id in moved { changes.append(.init(kind: .remove, item: id)) }
            changes.append(.init(kind: .replace, item: box.id, list: listID, html: renderer.row(try tx.item(box.id), contents: try tx.rows(in: listID, container: box.id))))
            return Applied(changes: changes, message: "Put \(Self.names(titles)) into \(box.title).")
        }
        let verb = result.proposal.operation == .move ? "Moved" : "Copied"
        let destination = list?.title ?? listID
        if let source = session.dragSource, source.listID != listID {
            return Applied(changes: changes, message: "\(verb) \(Self.names(titles)) from \(source.title) to \(destination).")
        }
        return Applied(changes: changes, message: "\(verb) \(Self.names(titles)) to \(destination).")
    }

    /// Moves, copies or inserts the placements' items consecutively; returns the ids now at the
    /// destination, the ids that left their old place, and the titles.
    private func place(_ placements: [DropPlacement], at placement: Placement, tx: BoardTransaction) throws -> ([String], [String], [String]) {
        let local = placements.compactMap { $0.item.dragItem.localObject as? String }
        if local.count == placements.count {
            let titles = try local.map { try tx.item($0).title }
            if placements.first?.operation == .move {
                try tx.move(local, to: placement)
                return (local, local, titles)
            }
            return (try tx.copy(local, to: placement), [], titles)
        }
        let incoming = placements.compactMap { $0.content as? IncomingItem }
        guard incoming.count == placements.count else { throw DragboardError.unprocessable("a dropped item has no content") }
        let newItems = incoming.map { NewItem(kind: $0.kind.rawValue, title: $0.title, payload: BoardItem.payload(age: $0.age, url: $0.url)) }
        return (try tx.insert(newItems, at: placement), [], incoming.map(\.title))
    }

    private func contents(of item: ItemRecord, tx: BoardTransaction) throws -> [ItemRecord] {
        item.kind == ItemKind.box.rawValue ? try tx.rows(in: item.listID, container: item.id) : []
    }

    /// The image well stores images (moving each upload into place); the label keeps the text.
    private func applyToZone(_ zoneID: String, _ result: SessionEngine.DropResult, tx: BoardTransaction, storedFiles: inout [URL]) throws -> Applied {
        var message = ""
        switch zoneID {
        case ImageWellDelegate.id:
            let images = result.placements.compactMap { $0.content as? IncomingImage }
            try checkImageQuota(in: zoneID, adding: images.count, bytes: images.reduce(0) { $0 + $1.size }, tx: tx)
            for image in images {
                let id = UUID().uuidString.lowercased()
                try tx.addImage(ZoneImageRecord(id: id, zoneID: zoneID, name: image.name, mimeType: image.format.rawValue, size: image.size))
                let stored = imagesDirectory.appendingPathComponent(id)
                try FileManager.default.moveItem(at: image.file, to: stored)
                storedFiles.append(stored)
            }
            message = images.count == 1 ? "Added \(images[0].name) to the image well." : "Added \(images.count) images to the image well."
        case LabelDelegate.id:
            guard let text = result.placements.first?.content as? IncomingItem else { throw DragboardError.unprocessable("nothing to show") }
            try tx.setLabel(zoneID, text: text.title)
            message = "The label shows “\(text.title)”."
        default:
            throw DragboardError.notFound("unknown zone \(zoneID)")
        }
        let html = renderer.zone(zoneID, try ZonesView(tx))
        return Applied(changes: [.init(kind: .zone, item: zoneID, html: html)], message: message)
    }

    static func names(_ titles: [String]) -> String {
        titles.count <= 2 ? titles.joined(separator: " and ") : "\(titles.count) items"
    }
}
