import DragAndDrop
import Dragboard
import JSONWriting
import MicroHTTP

extension Response {
    /// A JSON answer written by hand.
    static func jsonWritten(_ value: some JSONWritable, status: HTTPStatus = .ok) -> Response {
        Response(status: status, headers: ["Content-Type": "application/json; charset=utf-8"], body: .bytes(value.jsonBytes))
    }
}

extension BoardAPI.Target: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.field("list", list)
        json.field("zone", zone)
        json.endObject()
    }
}

extension BoardAPI.Proposal: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.field("intent", intent)
        json.field("op", op.rawValue)
        json.field("reason", reason)
        json.endObject()
    }
}

extension BoardAPI.Run: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.field("count", count)
        json.field("proposal", proposal)
        json.field("start", start)
        json.endObject()
    }
}

extension BoardAPI.Variant: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.field("noRow", noRow)
        json.field("runs", runs)
        json.endObject()
    }
}

extension BoardAPI.TargetTable: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.field("copy", copy)
        json.field("handled", handled)
        json.field("menu", menu)
        json.field("name", name)
        json.field("noRow", noRow)
        json.field("runs", runs)
        json.field("target", target)
        json.endObject()
    }
}

extension BoardAPI.Table: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.field("targets", targets)
        json.key("zones")
        json.beginObject()
        json.field("bottom", zones.bottom)
        json.field("top", zones.top)
        json.endObject()
        json.endObject()
    }
}

extension BoardAPI.Uploads: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.field("maxBytes", maxBytes)
        json.key("types")
        json.beginArray()
        for type in types { json.value(type) }
        json.endArray()
        json.endObject()
    }
}

extension BoardAPI.BeginResponse: JSONWritable {
    /// A proposal table takes a few hundred bytes per target.
    var expectedJSONSize: Int { 512 + 384 * table.targets.count }

    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.field("allowsMove", allowsMove)
        json.field("announcement", announcement)
        json.field("count", count)
        json.field("nowhere", nowhere)
        json.field("restricted", restricted)
        json.field("table", table)
        json.field("token", token)
        json.field("uploads", uploads)
        json.field("version", version)
        json.endObject()
    }
}
