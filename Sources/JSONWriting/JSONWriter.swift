/// JSON written straight into bytes, for the small answers a server gives many times a second:
/// a `JSONEncoder` costs more than the rest of such a request (it boxes every value, builds a
/// dictionary per object and sorts the keys again each time).
///
/// The caller writes keys in the order it wants them (the app's types write them sorted, as
/// `JSONEncoder`'s `.sortedKeys` would); commas are placed by the writer:
///
/// ```swift
/// var json = JSONWriter()
/// json.beginObject()
/// json.field("count", 3)
/// json.field("name", title)   // a nil String? writes nothing, as `encodeIfPresent` does
/// json.endObject()
/// ```
///
/// Strings are escaped as RFC 8259 requires (quote, backslash, control characters); `/` is not
/// escaped, as with `.withoutEscapingSlashes`.
public struct JSONWriter: Sendable {
    /// The JSON written so far.
    public private(set) var bytes: [UInt8]
    /// Whether the next value or key follows another at the same level.
    private var needsComma = false

    /// An empty writer with room for `capacity` bytes.
    public init(capacity: Int = 256) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// `{`: the start of an object, as a value (in an array, after a key, or at the top).
    public mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
    }

    /// `}`.
    public mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    /// `[`: the start of an array, as a value.
    public mutating func beginArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
        needsComma = false
    }

    /// `]`.
    public mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// An object's key; the next call writes its value. Keys are the program's own names (ASCII
    /// without quotes or backslashes), written as they are.
    public mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
        needsComma = false
    }

    /// A key that comes from data (a dictionary's), escaped like any string.
    public mutating func key(_ name: String) {
        separate()
        appendQuoted(name)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    /// A string value.
    public mutating func value(_ text: String) {
        separate()
        appendQuoted(text)
        needsComma = true
    }

    /// An integer value.
    public mutating func value(_ number: Int) {
        separate()
        if number >= 0, number < 10 {
            bytes.append(UInt8(ascii: "0") + UInt8(number))
        } else {
            bytes.append(contentsOf: String(number).utf8)
        }
        needsComma = true
    }

    /// A number value; it must be finite (JSON has no infinities or NaN), which the caller
    /// guarantees: a non-finite number is written as `null`.
    public mutating func value(_ number: Double) {
        separate()
        if !number.isFinite {
            bytes.append(contentsOf: "null".utf8)
        } else if number == number.rounded(), abs(number) < 1e15 {
            // `1.0` as `1`, as `JSONEncoder` writes it.
            bytes.append(contentsOf: String(Int(number)).utf8)
        } else {
            bytes.append(contentsOf: number.description.utf8)
        }
        needsComma = true
    }

    /// `true` or `false`.
    public mutating func value(_ flag: Bool) {
        separate()
        bytes.append(contentsOf: flag ? "true".utf8 : "false".utf8)
        needsComma = true
    }

    /// `null`.
    public mutating func null() {
        separate()
        bytes.append(contentsOf: "null".utf8)
        needsComma = true
    }

    /// `"name":"text"`, or nothing when `text` is nil.
    public mutating func field(_ name: StaticString, _ text: String?) {
        guard let text else { return }
        key(name)
        value(text)
    }

    /// `"name":number`, or nothing when `number` is nil.
    public mutating func field(_ name: StaticString, _ number: Int?) {
        guard let number else { return }
        key(name)
        value(number)
    }

    /// `"name":number`, or nothing when `number` is nil.
    public mutating func field(_ name: StaticString, _ number: Double?) {
        guard let number else { return }
        key(name)
        value(number)
    }

    /// `"name":true` or `false`, or nothing when `flag` is nil.
    public mutating func field(_ name: StaticString, _ flag: Bool?) {
        guard let flag else { return }
        key(name)
        value(flag)
    }

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    /// `text` as a JSON string literal. Bytes of multi-byte UTF-8 sequences are all 0x80 or
    /// more, so they are copied as they are; only ASCII needs looking at.
    private mutating func appendQuoted(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var start = 0
            for index in utf8.indices {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
                appendEscape(byte)
                start = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func appendEscape(_ byte: UInt8) {
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        default:
            let hex = Array("0123456789abcdef".utf8)
            bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
        }
    }
}
