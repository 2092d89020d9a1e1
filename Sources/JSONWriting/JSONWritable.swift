/// A type written by hand with a ``JSONWriter``: the answers of every drag (begin, drop, end)
/// and the undo entry every drop stores were a large share of the server's CPU through `JSONEncoder`.
///
/// Each type writes the same JSON as its `Encodable` conformance with `.sortedKeys` (keys in
/// sorted order, nil optionals left out); the tests hold the two to the same decoded value.
public protocol JSONWritable {
    func write(to json: inout JSONWriter)
    /// About how many bytes the JSON takes, so the buffer is allocated once.
    var expectedJSONSize: Int { get }
}

extension JSONWritable {
    public var expectedJSONSize: Int { 256 }

    /// The value as JSON bytes.
    public var jsonBytes: [UInt8] {
        var json = JSONWriter(capacity: expectedJSONSize)
        write(to: &json)
        return json.bytes
    }

    /// The value as a JSON string.
    public var jsonString: String { String(decoding: jsonBytes, as: UTF8.self) }
}

extension JSONWriter {
    public mutating func field(_ name: StaticString, _ value: (some JSONWritable)?) {
        guard let value else { return }
        key(name)
        value.write(to: &self)
    }

    public mutating func field(_ name: StaticString, _ values: [some JSONWritable]) {
        key(name)
        beginArray()
        for value in values { value.write(to: &self) }
        endArray()
    }
}
