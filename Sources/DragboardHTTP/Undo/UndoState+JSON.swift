import Dragboard
import JSONWriting
import MicroHTTP

/// Written by hand: `GET /api/undo` is asked by every page on load and after every change, and
/// `JSONEncoder` cost more than the rest of that request. The answers of edits and of undo are
/// written the same way: each JSON shape has one encoding.
extension UndoState: JSONWritable {
    public func write(to json: inout JSONWriter) {
        json.beginObject()
        json.field("redoActionName", redoActionName)
        json.field("undoActionName", undoActionName)
        json.endObject()
    }
}

extension UndoState: Decodable {
    private enum CodingKeys: String, CodingKey { case undoActionName, redoActionName }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(undoActionName: try container.decodeIfPresent(String.self, forKey: .undoActionName),
                  redoActionName: try container.decodeIfPresent(String.self, forKey: .redoActionName))
    }
}

extension BoardService.EditResponse: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.field("changes", changes)
        json.field("counts", counts)
        json.field("location", location)
        json.field("message", message)
        json.field("version", version)
        json.endObject()
    }
}

extension BoardService.UndoResponse: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.field("action", action)
        json.field("board", board)
        json.field("changes", changes)
        json.field("counts", counts)
        json.field("message", message)
        json.field("undo", undo)
        json.field("version", version)
        json.endObject()
    }
}
