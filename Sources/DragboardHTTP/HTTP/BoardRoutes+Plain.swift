import Dragboard
import DragboardStore
import Foundation
import MicroHTTP

/// What a browser without JavaScript gets besides the forms themselves: a deletion asks first
/// (a page with the question), every change says what it did on the board it returns to (the
/// `done` operation's words) with an Undo button, and undo and redo are plain forms too.
extension BoardService {
    func addPlainRoutes(to router: inout Router) {
        for redo in [false, true] {
            router.post(redo ? "/boards/:board/redo" : "/boards/:board/undo", bodyLimit: 1024) { [self] request in
                try Self.form(request) { fields, _ in
                    let browser = try RequestGuard.checkFormWrite(request, fields: fields)
                    let board = try Self.boardID(request)
                    let answer = try undo(browser: browser, board: board, op: try Self.op(fields), redo: redo, visitor: Visitor.of(request))
                    return EditResponse(version: answer.version, changes: answer.changes, message: answer.message,
                                        location: answer.board == board ? "/boards/\(board)" : "/boards/\(answer.board)")
                }
            }
        }
    }

    /// The words of the operation `op` (a plain form's, named by the board's `done` query) with an
    /// Undo button, for the board page's status place; nothing for an unknown or bad id.
    func notice(done op: String?, board: String, csrf: String, mayEdit: Bool) -> String {
        guard let op, WireGrammar.idProblem(op) == nil, let json = try? store.operationResponse(op),
              let words = (try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])?["message"] as? String,
              !words.isEmpty else { return "" }
        return renderer.notice(Self.sentence(words), board: board, csrf: csrf, op: Self.newID(), mayUndo: mayEdit)
    }

    /// A deletion a plain form asked for: the question first, unless it was answered (`confirmed`)
    /// or a script asks (it confirms in the page). `consequence`: what goes with it, in words.
    static func confirmation(_ request: Request, fields: [String: String], question: String, consequence: String, answer: String,
                             back: String, renderer: BoardRenderer) -> Response? {
        guard fields["confirmed"] != "yes", request.headers["Accept"]?.contains("application/json") != true else { return nil }
        let page = renderer.confirmPage(question: question, consequence: consequence, answer: answer, action: request.path, back: back,
                                        csrf: fields["csrf"] ?? "", op: fields["op"] ?? newID())
        var response = Response.html(page, status: .ok)
        response.headers["Cache-Control"] = "no-store"
        return response
    }
}
