import Dragboard
import DragboardStore
import Foundation

extension BoardAPI {
    /// The rows of a list (or a container's contents) that follow the row `after`, rendered as the
    /// page renders rows, at `version`: what a page appends to a list as it scrolls.
    struct RowsResponse: Codable {
        var version: Int
        var list: String
        /// The row these follow (nil: from the first).
        var after: String?
        /// How many rows `html` holds.
        var count: Int
        /// How many rows the list holds at `version`.
        var total: Int
        var html: String
    }
}

extension BoardService {
    /// The most rows one request for more may ask for.
    static let maximumRowsPerRequest = 1000
    /// The most rows a page shows of one list when asked for a wider window (no JavaScript).
    static let maximumPageWindow = 100_000

    /// Up to `count` rows of `list` (a list of `board`, or a container on it) after the row `after`,
    /// read in one read transaction: the version said is the one the rows were read at.
    ///
    /// A cursor, not an index, so no OFFSET scan: the rows come from the `item_order` index at the
    /// same cost at row 9,900 as at row 100. A cursor that is no longer in the list (moved or
    /// deleted since the page saw it) is a conflict: the page catches up and asks again.
    func rows(board: String, list: String, after: String?, count: Int) throws -> BoardAPI.RowsResponse {
        guard (1...Self.maximumRowsPerRequest).contains(count) else {
            throw DragboardError.badRequest("count must be between 1 and \(Self.maximumRowsPerRequest)")
        }
        return try store.read(board: board) { tx in
            let lists = try tx.lists()
            let (listID, containerID): (String, String?)
            if lists.contains(where: { $0.id == list }) {
                (listID, containerID) = (list, nil)
            } else if let container = try? tx.item(list), container.containerID == nil, kit.hasContentsList(container.kind),
                      lists.contains(where: { $0.id == container.listID }) {
                (listID, containerID) = (container.listID, container.id)
            } else {
                throw DragboardError.notFound("unknown list \(list)")
            }
            var cursor: ItemRecord?
            if let after {
                guard let row = try? tx.item(after), lists.contains(where: { $0.id == row.listID }) else {
                    throw DragboardError.notFound("unknown row \(after)")
                }
                guard row.listID == listID, row.containerID == containerID else {
                    throw DragboardError.conflict("the row \(after) is no longer in this list")
                }
                cursor = row
            }
            let rows = try tx.firstRows(listID: listID, containerID: containerID, after: cursor, limit: count)
            var contents: [String: [ItemRecord]] = [:]
            var totals: [String: Int] = [:]
            for row in rows where containerID == nil && kit.isContainer(row.kind) {
                contents[row.id] = try tx.firstRows(listID: listID, containerID: row.id, limit: kit.rowWindow)
                totals[row.id] = try tx.rowCount(listID, row.id)
            }
            let html = renderer.rows(rows, contents: { contents[$0] ?? [] }, total: { totals[$0] }, labels: try labels(for: rows, tx: tx))
            return BoardAPI.RowsResponse(version: tx.baseVersion, list: list, after: after, count: rows.count,
                                         total: try tx.rowCount(listID, containerID), html: html)
        }
    }

    /// Each list's row count as `tx` sees it, when `changes` touch rows (nil otherwise): a page
    /// that shows only a list's first rows cannot count what happens beyond them (a row removed
    /// or moved there), so every change of rows says the totals. Counted in the write
    /// transaction and kept with the operation, so a replay answers exactly the same.
    func counts(_ changes: [BoardAPI.Change], tx: BoardTransaction) throws -> [String: Int]? {
        guard changes.contains(where: { [.insert, .remove, .replace].contains($0.kind) }) else { return nil }
        return Dictionary(try tx.listCounts().map { ($0.list, $0.count) }, uniquingKeysWith: { first, _ in first })
    }
}
