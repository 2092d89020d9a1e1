import Dragboard
import Foundation

extension BoardTransaction {
    /// Inserts new rows consecutively at the placement; returns their ids.
    ///
    /// - Throws: the placement errors of ``move(_:to:)``, and
    ///   ``StoreError/invalid(_:)`` for an id already in use or a payload that
    ///   is not valid JSON.
    @discardableResult
    public func insert(_ items: [NewItem], at placement: Placement) throws -> [String] {
        guard !items.isEmpty else { return [] }
        let ids = items.map { $0.id ?? UUID().uuidString.lowercased() }
        guard Set(ids).count == ids.count else { throw StoreError.invalid("duplicate ids in insert") }
        return try atomically {
            for (id, item) in zip(ids, items) {
                if try StoreQueries.item(db, id) != nil { throw StoreError.invalid("item \(id) already exists") }
                try requireJSON(item.payload)
            }
            let gap = try resolve(placement, moving: [])
            let keys = try orderKeys(for: gap, count: items.count, moving: [])
            for ((id, item), key) in zip(zip(ids, items), keys) {
                try insertRow(ItemRecord(
                    id: id, listID: gap.listID, containerID: gap.containerID, pos: key,
                    kind: item.kind, title: item.title, payload: item.payload, changedVersion: newVersion))
            }
            try journalInsertion(of: ids)
            return ids
        }
    }

    /// Copies existing items to the placement with new ids (same kind, title and
    /// payload); the contents of container rows are copied too, at any depth.
    /// Returns the new ids of the top-level copies, in order.
    @discardableResult
    public func copy(_ ids: [String], to placement: Placement) throws -> [String] {
        guard !ids.isEmpty else { return [] }
        return try atomically {
            let sources = try ids.map { try StoreQueries.requireItem(db, $0) }
            // Read every subtree before writing, so copying a container into itself terminates.
            let subtrees = try sources.map { try descendants(of: $0.id) }
            let gap = try resolve(placement, moving: [])
            let keys = try orderKeys(for: gap, count: sources.count, moving: [])
            var newIDs: [String] = []
            for ((source, subtree), key) in zip(zip(sources, subtrees), keys) {
                let newID = UUID().uuidString.lowercased()
                var copy = source
                copy.id = newID
                copy.listID = gap.listID
                copy.containerID = gap.containerID
                copy.pos = key
                copy.changedVersion = newVersion
                try insertRow(copy)
                var mapped = [source.id: newID]
                for var child in subtree {  // parents come before their children
                    let childID = UUID().uuidString.lowercased()
                    mapped[child.id] = childID
                    child.id = childID
                    child.listID = gap.listID
                    child.containerID = child.containerID.flatMap { mapped[$0] }
                    child.changedVersion = newVersion
                    try insertRow(child)  // keeps its key: a new container is a new scope
                }
                newIDs.append(newID)
            }
            try journalInsertion(of: newIDs)
            // Copies from another board wear this board's labels (one lookup per list copied from:
            // a copy within a board, most of them, asks once).
            var boardOfList: [String: String?] = [:]
            for (source, copy) in zip(sources, newIDs) where CardDetails.of(payload: source.payload).labels.isEmpty == false {
                if boardOfList[source.listID] == nil { boardOfList[source.listID] = try StoreQueries.board(ofList: source.listID, db, likely: boardID) }
                if let board = boardOfList[source.listID] ?? nil, board != boardID { try carryLabels(of: copy, from: board) }
            }
            return newIDs
        }
    }

    /// Everything nested in `id`, breadth first (parents before children).
    func descendants(of id: String) throws -> [ItemRecord] {
        var result: [ItemRecord] = []
        var queue = [id]
        while !queue.isEmpty {
            let children = try StoreQueries.contents(db, of: queue.removeFirst())
            result += children
            queue += children.map(\.id)
        }
        return result
    }

    func insertRow(_ item: ItemRecord) throws {
        try db.cachedStatement(sql: """
            INSERT INTO item (id, listID, containerID, pos, kind, title, payload, changedVersion)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [
                item.id, item.listID, item.containerID, item.pos,
                item.kind, item.title, item.payload, item.changedVersion,
            ])
    }

    func requireJSON(_ payload: String) throws {
        // Checked here, not by the database, so both engines refuse exactly the same payloads.
        guard (try? JSONSerialization.jsonObject(with: Data(payload.utf8), options: .fragmentsAllowed)) != nil else {
            throw StoreError.invalid("payload is not valid JSON")
        }
    }
}
