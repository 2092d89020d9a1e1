import Dragboard

/// A card's badges on its tile: what it holds besides its title, at a glance. Built as bytes
/// beside the row template (they run for every row of a page); a row without details has none.
extension BoardRenderer {
    func badges(of record: ItemRecord, labels: BoardLabels) -> String {
        let details = CardDetails.of(payload: record.payload)
        guard !details.isEmpty else { return "" }
        var html = "<span class=\"badges\">"
        let worn = details.labels.compactMap { labels[$0] }
        if !worn.isEmpty {
            html += "<span class=\"badge\" data-badge=\"labels\">"
            for label in worn {
                html += "<span class=\"chip\" data-color=\"\(label.color.rawValue)\">\(HTMLEscaping.escape(label.name))</span>"
            }
            html += "</span>"
        }
        if let due = details.due, let day = DueDate(due) {
            html += "<span class=\"badge\" data-badge=\"due\" data-due=\"\(due)\"><span class=\"visually-hidden\">Due </span><time datetime=\"\(due)\">\(day.words)</time></span>"
        }
        if !details.description.isEmpty {
            html += "<span class=\"badge\" data-badge=\"description\" title=\"This card has a description\"><span class=\"visually-hidden\">Has a description</span></span>"
        }
        if !details.checklist.isEmpty {
            let done = details.checkedCount, total = details.checklist.count
            html += "<span class=\"badge\" data-badge=\"checklist\" title=\"Checklist: \(done) of \(total) done\"\(done == total ? " data-complete" : "")>"
                + "<span class=\"visually-hidden\">Checklist </span>\(done)/\(total)</span>"
        }
        return html + "</span>"
    }
}
