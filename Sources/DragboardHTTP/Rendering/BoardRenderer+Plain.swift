import Mustache

/// The pages and parts a browser without JavaScript gets besides the board: what a change did,
/// and a deletion's question.
extension BoardRenderer {
    /// A change's words with an Undo button, shown where the board page says things.
    func notice(_ message: String, board: String, csrf: String, op: String, mayUndo: Bool) -> String {
        let context: [String: Any] = ["message": message, "boardID": board, "csrf": csrf, "op": op, "mayUndo": mayUndo]
        return library.render(context, withTemplate: "notice") ?? ""
    }

    /// A page that asks before a deletion: yes posts `action` again, confirmed; Cancel goes `back`.
    func confirmPage(question: String, consequence: String, answer: String, action: String, back: String, csrf: String, op: String) -> String {
        let context: [String: Any] = ["question": question, "consequence": consequence, "answer": answer, "back": back,
                                      "action": action, "csrf": csrf, "op": op]
        return library.render(context, withTemplate: "confirm") ?? ""
    }
}
