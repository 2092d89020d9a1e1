import DragAndDrop

/// The words a screen reader hears during a drag, composed on the server from titles and the
/// engine's decisions, so that every input (keyboard, menu, touch) hears the same sentences and
/// a refusal always carries its delegate's reason. Short, with the most important word first.
public enum Announcement {
    /// "Picked up Mug, 1 of 3 in Kitchen." — or, for several rows,
    /// "Picked up 2 items, Mug and Cup, from Kitchen."
    public static func pickedUp(_ titles: [String], position: Int, of count: Int, in list: String) -> String {
        switch titles.count {
        case 1: return "Picked up \(titles[0]), \(position) of \(count) in \(list)."
        case 2: return "Picked up 2 items, \(names(titles)), from \(list)."
        default: return "Picked up \(titles.count) items from \(list)."
        }
    }

    /// A target and what a drop there would do: "Shelf, position 2 of 3: move.",
    /// "Shelf, into Jar: move.", "Bin: copy.", "Shelf: not allowed, the shelf is
    /// full." or "Shelf: cannot drop here."
    ///
    /// - Parameters:
    ///   - position: the 1-based place the rows would take in the list, nil for zones and for
    ///     drops over no row.
    ///   - positions: how many places there are to choose from.
    ///   - into: the title of the row the items would go into (insert-into).
    public static func target(_ name: String, proposal: DropProposal, position: Int?, of positions: Int, into: String?) -> String {
        switch proposal.operation {
        case .forbidden:
            // A reason that is a sentence of its own ("You can view this board but not change it.") stays one.
            let reason = proposal.reason ?? "this target refuses these items"
            return reason.hasSuffix(".") ? "\(name): not allowed. \(reason)" : "\(name): not allowed, \(reason)."
        case .cancel:
            return "\(name): cannot drop here."
        case .copy, .move:
            let operation = proposal.operation == .move ? "move" : "copy"
            if let into { return "\(name), into \(into): \(operation)." }
            if let position { return "\(name), position \(position) of \(positions): \(operation)." }
            return "\(name): \(operation)."
        }
    }

    /// "Cancelled. Mug stays in Kitchen."
    public static func cancelled(_ titles: [String], in list: String) -> String {
        titles.isEmpty ? "Cancelled." : "Cancelled. \(names(titles)) \(titles.count == 1 ? "stays" : "stay") in \(list)."
    }

    /// "Move to Shelf" / "Copy to Bin": a destination in a move-to menu.
    public static func destination(_ name: String, operation: DropOperation) -> String {
        "\(operation == .copy ? "Copy" : "Move") to \(name)"
    }

    /// "Nothing on this board takes Mug.": a move-to menu without destinations.
    public static func nowhere(_ titles: [String]) -> String {
        "Nothing on this board takes \(names(titles))."
    }

    package static func names(_ titles: [String]) -> String {
        switch titles.count {
        case 0: return "nothing"
        case 1: return titles[0]
        case 2: return "\(titles[0]) and \(titles[1])"
        default: return "\(titles.count) items"
        }
    }
}
