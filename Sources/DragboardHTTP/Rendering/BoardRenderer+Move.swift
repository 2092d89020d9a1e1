import Dragboard
import Mustache

extension BoardRenderer {
    /// A row's move page: the destinations its drop would be taken on, as a plain form.
    func movePage(board: String, item: String, title: String, destinations: [BoardService.MoveDestination], nowhere: String? = nil, csrf: String, op: String) -> String {
        let context: [String: Any] = [
            "boardID": board, "item": item, "title": title, "csrf": csrf, "op": op,
            "destinations": destinations.map { ["value": $0.value, "label": $0.label] as [String: Any] },
            "hasDestinations": !destinations.isEmpty,
            "nowhere": nowhere ?? "No list or zone of this board takes \(title).",
        ]
        return library.render(context, withTemplate: "move") ?? ""
    }
}
