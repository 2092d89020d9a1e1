/// What people do to a card's details and a board's labels, as the domain decides it: each
/// checks its input against ``CardDetails``' rules (refusing with words, changing nothing) and
/// returns what changed, like ``BoardEdits``.
package struct CardEdits {
    package typealias Edited = BoardEdits.Edited

    /// Makes the id of a new checklist item or label.
    let newID: () -> String

    package init(newID: @escaping () -> String) {
        self.newID = newID
    }

    /// What the card-details form sends: every field the form shows, saved together.
    package struct Form: Sendable {
        package var title: String
        package var description: String
        package var due: String
        package var labels: [String]

        package init(title: String, description: String, due: String, labels: [String]) {
            self.title = title
            self.description = description
            self.due = due
            self.labels = labels
        }
    }

    /// Saves the card-details form: title, description, due date and labels.
    package func save(_ form: Form, item itemID: String, on board: some CardEditing) throws -> Edited {
        let item = try board.itemOnBoard(itemID)
        var details = CardDetails.of(payload: item.payload)
        details.description = try CardDetails.checkedDescription(form.description)
        details.due = try CardDetails.checkedDue(form.due)
        details.labels = try CardDetails.checkedLabels(form.labels, of: try board.labels())
        try board.setTitle(itemID, form.title)
        try board.setPayload(itemID, details.stored(in: item.payload))
        return changed(item, "Saved the details of \(form.title).")
    }

    /// Adds an item at the end of the card's checklist.
    package func addCheck(title: String, item itemID: String, on board: some CardEditing) throws -> Edited {
        let title = try CardDetails.checkedCheckTitle(title)
        return try editChecklist(itemID, on: board) { details, item in
            guard details.checklist.count < CardDetails.maximumChecklistCount else {
                throw DragboardError.conflict("a checklist holds at most \(CardDetails.maximumChecklistCount) items; delete one first")
            }
            details.checklist.append(CheckItem(id: newID(), title: title))
            return "Added \(title) to the checklist of \(item.title)."
        }
    }

    /// Marks a checklist item done or not done.
    package func setCheck(_ checkID: String, done: Bool, item itemID: String, on board: some CardEditing) throws -> Edited {
        try editChecklist(itemID, on: board) { details, _ in
            let index = try details.checkIndex(checkID)
            details.checklist[index].done = done
            return "\(done ? "Checked" : "Unchecked") \(details.checklist[index].title)."
        }
    }

    /// Deletes a checklist item.
    package func deleteCheck(_ checkID: String, item itemID: String, on board: some CardEditing) throws -> Edited {
        try editChecklist(itemID, on: board) { details, _ in
            let removed = details.checklist.remove(at: try details.checkIndex(checkID))
            return "Deleted \(removed.title) from the checklist."
        }
    }

    /// Moves a checklist item to `index` (0-based, counted without it; the end when larger).
    package func moveCheck(_ checkID: String, to index: Int, item itemID: String, on board: some CardEditing) throws -> Edited {
        guard index >= 0 else { throw DragboardError.badRequest("a checklist position is 0 or more; this one is \(index)") }
        return try editChecklist(itemID, on: board) { details, _ in
            let moved = details.checklist.remove(at: try details.checkIndex(checkID))
            details.checklist.insert(moved, at: min(index, details.checklist.count))
            return "Moved \(moved.title) in the checklist."
        }
    }

    private func editChecklist(_ itemID: String, on board: some CardEditing,
                               _ change: (inout CardDetails, ItemRecord) throws -> String) throws -> Edited {
        let item = try board.itemOnBoard(itemID)
        var details = CardDetails.of(payload: item.payload)
        let message = try change(&details, item)
        try board.setPayload(itemID, details.stored(in: item.payload))
        return changed(item, message)
    }

    private func changed(_ item: ItemRecord, _ message: String) -> Edited {
        // A row inside a container is shown by its container.
        let shown = item.containerID ?? item.id
        return Edited(changes: [BoardChange(kind: .replace, item: shown, list: item.listID)], message: message)
    }

    // MARK: labels

    /// Adds a label to the board.
    package func addLabel(name: String, color: String, on board: some CardEditing) throws -> Edited {
        let name = try BoardLabel.checkedName(name)
        let color = try PaletteColor.named(color)
        var labels = try board.labels()
        guard labels.all.count < BoardLabel.maximumCount else {
            throw DragboardError.conflict("a board has at most \(BoardLabel.maximumCount) labels; delete one first")
        }
        labels.all.append(BoardLabel(id: newID(), name: name, color: color))
        try board.setLabels(labels)
        return labelsChanged("Added the label \(name).")
    }

    /// Renames a label and gives it a colour.
    package func editLabel(_ labelID: String, name: String, color: String, on board: some CardEditing) throws -> Edited {
        let name = try BoardLabel.checkedName(name)
        let color = try PaletteColor.named(color)
        var labels = try board.labels()
        let index = try Self.index(of: labelID, in: labels)
        labels.all[index].name = name
        labels.all[index].color = color
        try board.setLabels(labels)
        return labelsChanged("Saved the label \(name).")
    }

    /// Deletes a label; the cards wearing it keep its id and wear it again if the deletion is undone.
    package func deleteLabel(_ labelID: String, on board: some CardEditing) throws -> Edited {
        var labels = try board.labels()
        let removed = labels.all.remove(at: try Self.index(of: labelID, in: labels))
        try board.setLabels(labels)
        return labelsChanged("Deleted the label \(removed.name).")
    }

    /// Gives the board another colour.
    package func setColor(_ color: String, on board: some CardEditing) throws -> Edited {
        let color = try PaletteColor.named(color)
        try board.setColor(color)
        return Edited(changes: [BoardChange(kind: .title, item: try board.board().id)], message: "Made the board \(color.rawValue).")
    }

    private static func index(of labelID: String, in labels: BoardLabels) throws -> Int {
        guard let index = labels.all.firstIndex(where: { $0.id == labelID }) else {
            throw DragboardError.notFound("this board has no label “\(labelID.prefix(40))”; someone may have deleted it")
        }
        return index
    }

    /// Every card may wear a label: the board's lists are read again whole.
    private func labelsChanged(_ message: String) -> Edited {
        Edited(changes: [BoardChange(kind: .resync, item: BoardKit.listsTargetID)], message: message)
    }
}
