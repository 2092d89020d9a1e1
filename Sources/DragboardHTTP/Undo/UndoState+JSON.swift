import Dragboard
import JSONWriting
import MicroHTTP

/// Written by hand: `GET /api/undo` is asked by every page on load and after every change, and
/// `JSONEncoder` cost more than the rest of that request.
extension UndoState: JSONWritable {
    public func write(to json: inout JSONWriter) {
        json.beginObject()
        json.field("redoActionName", redoActionName)
        json.field("undoActionName", undoActionName)
        json.endObject()
    }
}
