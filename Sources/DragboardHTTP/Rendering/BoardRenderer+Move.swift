import Dragboard
import Mustache

/// What a row's move page offers: the boards it may go to, and the positions of the chosen one.
struct MovePage {
    var board: String
    var item: String
    var title: String
    var boards: [BoardRecord]
    var toBoard: String
    var targets: [BoardService.MoveTarget]
    var nowhere: String?
}

extension BoardRenderer {
    /// A row's move page: the board to move it to (a plain GET form: the page again, for that
    /// board), then the positions its drop would be taken on there, as a plain form.
    func movePage(_ page: MovePage, csrf: String, op: String) -> String {
        let context: [String: Any] = [
            "boardID": page.board, "item": page.item, "title": page.title, "csrf": csrf, "op": op, "toBoard": page.toBoard,
            "toBoardTitle": page.boards.first { $0.id == page.toBoard }?.title ?? "",
            "boards": page.boards.map { ["id": $0.id, "title": $0.title, "selected": $0.id == page.toBoard] as [String: Any] },
            "hasBoards": page.boards.count > 1,
            "targets": page.targets.map { target in
                ["label": target.label, "positions": target.positions.map { ["value": $0.value, "label": $0.label] as [String: Any] }] as [String: Any]
            },
            "hasDestinations": !page.targets.isEmpty,
            "nowhere": page.nowhere ?? "No list or zone of this board takes \(page.title).",
        ]
        return library.render(context, withTemplate: "move") ?? ""
    }
}
