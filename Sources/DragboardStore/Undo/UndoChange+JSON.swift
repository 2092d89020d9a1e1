import Dragboard
import Foundation
import JSONWriting

extension UndoChange {
    /// `changes` as the undo history stores them: the JSON of their `Codable` conformance. Row
    /// changes (all a drop makes) are written by hand, since this runs inside every drop's write
    /// transaction; an entry with any other change goes through `JSONEncoder` whole.
    static func encoded(_ changes: [UndoChange]) throws -> String {
        var json = JSONWriter(capacity: 256 * changes.count)
        json.beginArray()
        for change in changes {
            guard case .item(let before, let after) = change else {
                return String(decoding: try JSONEncoder().encode(changes), as: UTF8.self)
            }
            // `{"item":{"before":…,"after":…}}`, a nil state left out, as the synthesized conformance does.
            json.beginObject()
            json.key("item")
            json.beginObject()
            json.field("before", before)
            json.field("after", after)
            json.endObject()
            json.endObject()
        }
        json.endArray()
        return String(decoding: json.bytes, as: UTF8.self)
    }
}

extension UndoItemState: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.key("record")
        json.beginObject()
        json.field("id", record.id)
        json.field("listID", record.listID)
        json.field("containerID", record.containerID)
        json.field("pos", record.pos)
        json.field("kind", record.kind)
        json.field("title", record.title)
        json.field("payload", record.payload)
        json.field("changedVersion", record.changedVersion)
        json.endObject()
        json.field("previous", previous)
        json.field("next", next)
        json.endObject()
    }
}
