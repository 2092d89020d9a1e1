import Foundation

extension BoardService {
    /// A drop's answer as its operation record keeps it (without the rows' HTML, so records stay
    /// small whatever the rows hold) with its rows rendered as `tx` sees them: just after the
    /// drop's commit, or now for a replay. A row that is gone since is left out: the browser's
    /// catch-up (`/api/board`) shows the rest.
    /// `fresh`: the answer `stored` was written from, when the caller still has it (not for a replay).
    func rendered(_ stored: String, tx: BoardTransaction, fresh: BoardAPI.DropResponse? = nil) throws -> String {
        guard var response = fresh ?? (try? JSONDecoder().decode(BoardAPI.DropResponse.self, from: Data(stored.utf8))) else { return stored }
        response.changes = try response.changes.compactMap { change -> BoardAPI.Change? in
                var change = change
                switch change.kind {
                case .remove, .resync, .title, .gone:
                    return change
                case .insert, .replace:
                    guard let item = try? tx.item(change.item) else { return nil }
                    let contents = kit.isContainer(item.kind) ? try tx.rows(in: item.listID, container: item.id) : []
                    change.html = renderer.row(item, contents: contents)
                case .zone:
                    guard let zone = kit.zone(change.item) else { return nil }
                    change.html = renderer.zone(try ZoneView(zone, tx))
                }
                return change
        }
        return response.jsonString
    }
}
