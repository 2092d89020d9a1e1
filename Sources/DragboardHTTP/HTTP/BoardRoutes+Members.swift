import Dragboard
import DragboardStore
import MicroHTTP

extension BoardService {
    /// A board's members: everyone who may open it sees the list; owners add, change and remove
    /// (plain form posts, 303 back to the page).
    func addMemberRoutes(to router: inout Router) {
        router.get("/boards/:board/members") { [self] request in
            try Self.mapped {
                let board = try Self.boardID(request)
                return Self.page(request) { csrf in try membersPage(board: board, visitor: Visitor.of(request), csrf: csrf) }
            }
        }
        func post(_ path: String, _ change: @escaping @Sendable (BoardService, String, [String: String]) throws -> Void) {
            router.post(path, bodyLimit: 4 * 1024) { [self] request in
                try Self.mapped {
                    let board = try Self.boardID(request)
                    let fields = try request.formFields()
                    _ = try RequestGuard.checkFormWrite(request, fields: fields)
                    do {
                        try change(self, board, fields)
                    } catch let error as StoreError {
                        // A refusal a person can fix (an unknown name, the last owner): the page again, saying why.
                        guard case .invalid(let reason) = error else { throw error }
                        // A script (Accept: application/json) gets the refusal as JSON.
                        if request.headers["Accept"]?.contains("application/json") == true, !request.prefersHTML {
                            throw DragboardError.unprocessable(reason)
                        }
                        return Response.html(try membersPage(board: board, visitor: Visitor.of(request), csrf: Visitor.of(request).browserToken,
                                                             error: reason), status: .unprocessableContent)
                    }
                    return .redirect(to: "/boards/\(board)/members")
                }
            }
        }
        post("/boards/:board/members") { service, board, fields in
            try service.setMember(board: board, name: fields["username"] ?? "", role: fields["role"])
        }
        post("/boards/:board/members/role") { service, board, fields in
            try service.setMember(board: board, name: fields["username"] ?? "", role: fields["role"])
        }
        post("/boards/:board/members/remove") { service, board, fields in
            let removed = try service.store.removeMember(named: fields["username"] ?? "", from: board)
            if let removed { service.revoke(removed, board: board) }
        }
    }

    private func membersPage(board: String, visitor: Visitor, csrf: String, error: String? = nil) throws -> String {
        guard let record = try store.board(board) else { throw DragboardError.notFound("unknown board") }
        let access = try visitor.access ?? access(visitor, board: board)
        return renderer.members(try store.members(of: board), board: record, access: access, csrf: csrf, op: Self.newID(),
                                who: renderer.who(visitor.account, board: board, csrf: csrf), error: error)
    }

    private func setMember(board: String, name: String, role: String?) throws {
        guard let role = role.flatMap(BoardRole.init(rawValue:)) else { throw DragboardError.badRequest("role is owner, editor or viewer") }
        let member = try store.setMember(named: name, role: role, on: board)
        if !role.mayEdit { revoke(member.account, board: board) }
    }

    /// Someone lost their place (or their right to change) on `board`: their live streams there
    /// close (the page reconnects with what they may now do), and their drags over it end at
    /// their next request, saying why.
    func revoke(_ account: Account, board: String) {
        live.disconnect(account: account.id, board: board)
    }
}
