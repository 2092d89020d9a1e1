import Dragboard
import Mustache

/// What a card's page shows: everything it holds, each part with the form that edits it.
struct CardPage: Sendable {
    var board: BoardRecord
    var item: ItemRecord
    var listTitle: String
    var labels: BoardLabels
    var readOnly: Bool
}

extension BoardRenderer {
    /// A card's page (`GET /boards/<id>/cards/<item>`), which the board also shows in its card
    /// dialog: the same `article[data-card]`, so it works the same with or without JavaScript.
    func cardPage(_ page: CardPage, csrf: String, op: String, who: String) -> String {
        let details = CardDetails.of(payload: page.item.payload)
        let checks = details.checklist.enumerated().map { index, check -> [String: Any] in
            [
                "id": check.id, "title": check.title, "done": check.done, "toggleTo": check.done ? "false" : "true",
                "up": index - 1, "down": index + 1, "mayGoUp": index > 0, "mayGoDown": index < details.checklist.count - 1,
            ]
        }
        let dueState = details.due.flatMap(DueDate.init).map(\.words)
        let context: [String: Any] = [
            "boardID": page.board.id, "boardTitle": page.board.title, "id": page.item.id, "cardID": page.item.id, "title": page.item.title,
            "listTitle": page.listTitle, "csrf": csrf, "op": op, "who": who, "readOnly": page.readOnly,
            "version": page.board.version,
            "description": details.description, "descriptionHTML": details.descriptionHTML, "hasDescription": !details.description.isEmpty,
            "due": details.due ?? "", "dueWords": dueState ?? "", "hasDue": dueState != nil,
            "labels": page.labels.all.map { label -> [String: Any] in
                ["id": label.id, "name": label.name, "color": label.color.rawValue, "checked": details.labels.contains(label.id)]
            },
            "hasLabels": !page.labels.all.isEmpty,
            "hasWorn": !details.labels.compactMap { page.labels[$0] }.isEmpty,
            "worn": details.labels.compactMap { page.labels[$0] }.map { ["name": $0.name, "color": $0.color.rawValue] },
            "checks": checks, "checked": details.checkedCount, "checkTotal": details.checklist.count,
        ]
        return library.render(context, withTemplate: "card") ?? ""
    }
}
