import Foundation
import Testing
@testable import JSONWriting

/// The hand-written JSON of the hot answers: whatever a string holds, the JSON parses back to it.
@Suite struct JSONWriterTests {
    /// Strings that break naive JSON: quotes, backslashes, every control character, slashes and
    /// markup, the line separators JavaScript once refused, multi-byte and composed characters.
    static let hostile: [String] = [
        "", "plain", #"quote " and \ backslash"#, #"\""#, "\\\\", "/slash </script> //",
        String((0..<0x20).map { Character(Unicode.Scalar($0)!) }), "a\u{0}b", "tab\there\nnew\r\n", "\u{7F}\u{80}\u{9F}",
        "\u{2028}\u{2029}", "é 🐈 👩‍👩‍👧 e\u{301}", "\u{FEFF}bom", "日本語", "\u{10FFFF}", "{\"key\":[1,2]}",
    ]

    @Test(arguments: hostile) func aStringParsesBackToItself(text: String) throws {
        var json = JSONWriter()
        json.beginArray()
        json.value(text)
        json.endArray()
        #expect(try JSONDecoder().decode([String].self, from: Data(json.bytes)) == [text])
        // And to what JSONEncoder makes of it.
        #expect(try JSONDecoder().decode([String].self, from: JSONEncoder().encode([text])) == [text])
    }

    @Test func objectsArraysAndNumbersArePunctuatedAsJSON() throws {
        var json = JSONWriter()
        json.beginObject()
        json.field("a", -42)
        json.key("b")
        json.beginArray()
        for number in [0.25, 1.0, -3.5, 1e-7, 123456789.125, 0.1 + 0.2] { json.value(number) }
        json.endArray()
        json.key("c")
        json.beginObject()
        json.key("x\"y")
        json.value(true)
        json.key("")
        json.value(false)
        json.endObject()
        json.field("d", nil as String?)
        json.key("e")
        json.beginArray()
        json.value(7)
        json.null()
        json.beginObject()
        json.endObject()
        json.endArray()
        json.endObject()
        let text = String(decoding: json.bytes, as: UTF8.self)
        #expect(text.hasPrefix(#"{"a":-42,"b":[0.25,1,-3.5,"#) && text.hasSuffix(#""e":[7,null,{}]}"#))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.bytes)) as? [String: Any])
        #expect(Set(object.keys) == ["a", "b", "c", "e"])
        // JSONDecoder: Foundation's JSONSerialization reads 0.30000000000000004 as 0.3000000000000001.
        struct Numbers: Decodable { var b: [Double]; var c: [String: Bool] }
        let numbers = try JSONDecoder().decode(Numbers.self, from: Data(json.bytes))
        #expect(numbers.b == [0.25, 1.0, -3.5, 1e-7, 123456789.125, 0.1 + 0.2])
        #expect(numbers.c == ["x\"y": true, "": false])
    }
}
