import DragAndDrop
import Dragboard
import JSONWriting
import MicroHTTP

// The answers of drop, target and end, live changes, and a drop request for its fingerprint,
// written by hand (see ``JSONWritable``).

extension BoardAPI.Change: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.field("after", after)
        json.field("html", html)
        json.field("item", item)
        json.field("kind", kind.rawValue)
        json.field("list", list)
        json.endObject()
    }
}

extension JSONWriter {
    /// A list's row counts, by list id in sorted order (as `.sortedKeys` writes a dictionary).
    mutating func field(_ name: StaticString, _ counts: [String: Int]?) {
        guard let counts else { return }
        key(name)
        beginObject()
        for (list, count) in counts.sorted(by: { $0.key < $1.key }) {
            key(list)
            value(count)
        }
        endObject()
    }
}

extension BoardAPI.DropResponse: JSONWritable {
    /// The rows' HTML, once rendered, is most of it.
    var expectedJSONSize: Int { 384 + changes.reduce(0) { $0 + 96 + ($1.html?.utf8.count ?? 0) } }

    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.field("changes", changes)
        json.field("counts", counts)
        json.field("intent", intent)
        json.field("message", message)
        json.field("operation", operation.rawValue)
        json.field("reason", reason)
        json.field("target", target)
        json.field("version", version)
        json.endObject()
    }
}

extension BoardAPI.EndResponse: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.field("announcement", announcement)
        json.field("operation", operation.rawValue)
        json.field("target", target)
        json.field("version", version)
        json.endObject()
    }
}

extension BoardAPI.TargetResponse: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.field("announcement", announcement)
        json.field("destination", destination)
        json.field("handled", handled)
        json.field("proposal", proposal)
        json.endObject()
    }
}

extension BoardAPI.LiveChanges: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.field("changes", changes)
        json.field("counts", counts)
        json.field("version", version)
        json.endObject()
    }
}

extension BoardAPI.Location: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.field("fraction", fraction)
        json.field("item", item)
        json.field("row", row)
        json.endObject()
    }
}

/// A drop request is written only for its fingerprint (see ``BoardService/Fingerprint``).
extension BoardAPI.DropRequest: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.field("copy", copy)
        if let data {
            json.key("data")
            json.beginArray()
            for pair in data {
                json.beginArray()
                for text in pair { json.value(text) }
                json.endArray()
            }
            json.endArray()
        }
        if let files {
            json.key("files")
            json.beginArray()
            for file in files {
                if let file { json.value(file) } else { json.null() }
            }
            json.endArray()
        }
        json.field("location", location)
        json.field("op", op)
        json.field("shown", shown?.rawValue)
        json.field("target", target)
        json.field("version", version)
        json.endObject()
    }
}

extension BoardService.Fingerprint: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.field("request", request)
        json.field("token", token)
        json.endObject()
    }
}
