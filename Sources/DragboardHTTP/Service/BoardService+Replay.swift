import Dragboard
import DragboardStore
import Foundation
import JSONWriting

extension BoardService {
    /// A drop's answer as its operation record keeps it (without the rows' HTML, so records stay
    /// small whatever the rows hold) with its rows as `tx` sees them: just after the drop's commit,
    /// or now for a replay. A row that is gone since is left out: the browser's catch-up
    /// (`/api/board`) shows the rest. The rows are read now; the returned closure renders their
    /// HTML and the JSON, later (a drop's transaction must not wait for formatting).
    /// `fresh`: the answer `stored` was written from, when the caller still has it (not for a replay).
    func rendered(_ stored: String, tx: BoardTransaction, fresh: BoardAPI.DropResponse? = nil) throws -> @Sendable () -> String {
        guard let response = fresh ?? (try? JSONDecoder().decode(BoardAPI.DropResponse.self, from: Data(stored.utf8))) else { return { stored } }
        var shown: [(change: BoardAPI.Change, view: ChangeView?)] = []
        for change in response.changes {
            switch change.kind {
            case .remove, .resync, .title, .gone:
                shown.append((change, nil))
            case .insert, .replace:
                guard let item = try? tx.item(change.item) else { continue }
                let contents = kit.isContainer(item.kind) ? try tx.rows(in: item.listID, container: item.id) : []
                shown.append((change, .row(item, contents: contents)))
            case .zone:
                guard let zone = kit.zone(change.item) else { continue }
                shown.append((change, .zone(try ZoneView(zone, tx))))
            }
        }
        let labels = try labels(for: shown.compactMap { if case .row(let item, _) = $0.view { item } else { nil } }, tx: tx)
        return { [renderer, shown] in
            var answer = response
            answer.changes = shown.map { change, view in
                var change = change
                switch view {
                case .row(let item, let contents): change.html = renderer.row(item, contents: contents, labels: labels)
                case .zone(let zone): change.html = renderer.zone(zone)
                case nil: break
                }
                return change
            }
            return answer.jsonString
        }
    }

    /// The board's labels when one of `rows` wears any (read only then: this runs for every drop).
    func labels(for rows: [ItemRecord], tx: BoardTransaction) throws -> BoardLabels {
        rows.contains { $0.payload.contains("\"labels\"") } ? try tx.labels() : BoardLabels()
    }

    /// What a change's HTML is made of, read in a transaction and rendered after it.
    private enum ChangeView: Sendable {
        case row(ItemRecord, contents: [ItemRecord])
        case zone(ZoneView)
    }
}
