import JSONWriting

extension HTTPError {
    /// `{"error":{"code":…,"message":…}}`, written by hand: errors such as 404 are answered at the rate of
    /// static files, and a `JSONEncoder` per response cost more than the rest of the request.
    var jsonBody: [UInt8] {
        var json = JSONWriter(capacity: 64 + message.utf8.count)
        json.beginObject()
        json.key("error")
        json.beginObject()
        json.field("code", code)
        json.field("message", message)
        json.endObject()
        json.endObject()
        return json.bytes
    }
}
