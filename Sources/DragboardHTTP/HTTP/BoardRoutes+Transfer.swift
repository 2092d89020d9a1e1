import Dragboard
import DragboardStore
import Foundation
import MicroHTTP

extension BoardService {
    /// Import and export: `POST /boards/import` takes an export file (Trello's JSON, or Dragboard's
    /// own) from the index's form (`multipart/form-data`, field `file`) or as the body itself
    /// (`application/json`, with the `X-CSRF-Token` header); `GET /boards/<id>/export.json` and
    /// `export.csv` give a board back.
    func addTransferRoutes(to router: inout Router) {
        // Files of up to 50 MB are received only while an import slot is free (a burst is refused from
        // its head, not buffered), and read and decoded off libmicrohttpd's threads.
        router.post("/boards/import", bodyLimit: BoardImport.maximumBytes + 64 * 1024, lane: .bulk, streamingBody: { [self] request in
            let expected = request.headers["Content-Length"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            return try ImportBodySink(slots: importSlots, expectedBytes: expected.map { min($0, BoardImport.maximumBytes + 64 * 1024) }) { [self] body in
                var received = request
                received.body = body
                return try importAnswer(received)
            }
        })
        router.get("/boards/:board/export.json", lane: .bulk) { [self] request in
            try Self.mapped {
                let export = try store.export(board: try Self.boardID(request))
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                return Self.download(try encoder.encode(export), type: "application/json; charset=utf-8", name: export.board.title, suffix: "json")
            }
        }
        router.get("/boards/:board/export.csv", lane: .bulk) { [self] request in
            try Self.mapped {
                let export = try store.export(board: try Self.boardID(request))
                return Self.download(Data(export.csv.utf8), type: "text/csv; charset=utf-8", name: export.board.title, suffix: "csv")
            }
        }
    }

    /// Answers an import with its whole body: the board made (303 to it, or JSON), or the refusal in words.
    private func importAnswer(_ request: Request) throws -> Response {
        let isForm = request.headers["Content-Type"]?.lowercased().hasPrefix("multipart/form-data") == true
        let wantsJSON = !isForm || request.headers["Accept"]?.contains("application/json") == true
        do {
            let (file, op): ([UInt8], String)
            if isForm {
                let parts = try request.multipartParts()
                let fields = Dictionary(parts.filter { $0.filename == nil }.map { ($0.name, String(decoding: $0.body, as: UTF8.self)) },
                                        uniquingKeysWith: { first, _ in first })
                _ = try RequestGuard.checkFormWrite(request, fields: fields)
                guard let upload = parts.first(where: { $0.name == "file" }), !upload.body.isEmpty else {
                    throw DragboardError.badRequest("choose the export file to import")
                }
                (file, op) = (upload.body, try Self.op(fields))
            } else {
                _ = try RequestGuard.checkWrite(request)
                (file, op) = (request.body, try Self.op(["op": request.query["op"] ?? ""]))
            }
            let visitor = Visitor.of(request)
            let made = try importBoard(file, op: op, author: visitor.author, creator: visitor.account)
            let location = "/boards/\(made.board)"
            if wantsJSON {
                return .jsonWritten(EditResponse(version: 1, changes: [], message: made.message, location: location), status: .created)
            }
            return .redirect(to: location + "?done=" + op)
        } catch {
            let failure = DragboardError.from(error)
            guard let http = failure as? HTTPError else { throw failure }
            if wantsJSON { return http.response }
            return .html(Self.errorPage(http, back: "/"), status: http.status)
        }
    }

    /// A file to save, named after the board (letters, digits and dashes only in the header).
    static func download(_ data: Data, type: String, name: String, suffix: String) -> Response {
        let safe = String(name.lowercased().map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "-" }.prefix(60))
        let fileName = (safe.split(separator: "-").joined(separator: "-").isEmpty ? "board" : safe.split(separator: "-").joined(separator: "-")) + "." + suffix
        return Response(headers: ["Content-Type": type, "Content-Disposition": "attachment; filename=\"\(fileName)\"", "Cache-Control": "no-store"],
                        body: .bytes(Array(data)))
    }
}
