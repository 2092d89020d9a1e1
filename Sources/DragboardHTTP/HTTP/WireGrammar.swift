import Dragboard
import DragboardStore
import Foundation

/// The grammar of what a client names and writes, checked while a request body is decoded, so
/// no handler, store query or engine call ever sees a NUL, a control character or an id that
/// two layers would read differently (SQLite binds text up to a NUL: `"a"` and `"a\0x"` would
/// name the same row while Swift sees two).
enum WireGrammar {
    /// The longest id a client may send: item, list, zone and upload ids are UUIDs or short slugs.
    static let maximumIDLength = 64
    /// The longest MIME type a drop may announce.
    static let maximumTypeLength = 255

    /// Why `id` is not an id, or nil: 1 to 64 ASCII letters, digits, `-` or `_`.
    static func idProblem(_ id: String) -> String? {
        guard !id.isEmpty, id.utf8.count <= maximumIDLength else { return "an id is 1 to \(maximumIDLength) characters long" }
        guard id.utf8.allSatisfy(isIDByte) else { return "an id holds only letters, digits, '-' and '_'" }
        return nil
    }

    /// Why `type` is not a MIME type as a DataTransfer shows one, or nil: printable ASCII.
    static func mimeTypeProblem(_ type: String) -> String? {
        guard !type.isEmpty, type.utf8.count <= maximumTypeLength else { return "a type is 1 to \(maximumTypeLength) characters long" }
        guard type.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else { return "a type is printable ASCII without spaces" }
        return nil
    }

    /// Why `text` cannot be stored, or nil. Text keeps tabs and line breaks; NUL, the other
    /// control characters and Unicode non-characters are refused, never silently dropped or
    /// replaced, so what is stored is exactly what was sent.
    static func textProblem(_ text: String) -> String? {
        for scalar in text.unicodeScalars {
            if scalar.value == 0 { return "text must not contain NUL (U+0000)" }
            if isControl(scalar) { return "text must not contain the control character \(hex(scalar))" }
            if isNonCharacter(scalar) { return "text must not contain the non-character \(hex(scalar))" }
        }
        return nil
    }

    /// The longest title of a board, list or row, in characters.
    static let maximumTitleLength = 500

    /// Why `title` cannot name a board, list or row, or nil: 1 to 500 characters after trimming
    /// spaces, none of them a control character (not even a line break: a title is one line).
    static func titleProblem(_ title: String) -> String? {
        let trimmed = title.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return "the title is empty; type a title" }
        guard trimmed.count <= maximumTitleLength else {
            return "the title is \(trimmed.count) characters long; shorten it to \(maximumTitleLength) at most"
        }
        if let scalar = trimmed.unicodeScalars.first(where: { $0.value == 0 || $0.value == 0x09 || $0.value == 0x0A || $0.value == 0x0D || isControl($0) }) {
            return "the title contains the control character \(hex(scalar)); remove it"
        }
        if let scalar = trimmed.unicodeScalars.first(where: isNonCharacter) {
            return "the title contains the non-character \(hex(scalar)); remove it"
        }
        return nil
    }

    /// `name` with control characters and non-characters removed: a file's name is a label, not
    /// content, and names from some systems carry them.
    static func cleanedName(_ name: String) -> String {
        String(String.UnicodeScalarView(name.unicodeScalars.filter { !isControl($0) && !isNonCharacter($0) && $0.value != 0 }))
    }

    private static func isIDByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "_"): true
        default: false
        }
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: false
        case 0x00...0x1F, 0x7F...0x9F: true
        default: false
        }
    }

    private static func isNonCharacter(_ scalar: Unicode.Scalar) -> Bool {
        (0xFDD0...0xFDEF).contains(scalar.value) || scalar.value & 0xFFFE == 0xFFFE
    }

    private static func hex(_ scalar: Unicode.Scalar) -> String {
        "U+" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4)
    }
}

extension KeyedDecodingContainer {
    /// An id, or a `dataCorrupted` error naming the field and the rule it broke.
    func decodeID(forKey key: Key) throws -> String {
        let id = try decode(String.self, forKey: key)
        if let problem = WireGrammar.idProblem(id) { throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: problem) }
        return id
    }

    func decodeIDIfPresent(forKey key: Key) throws -> String? {
        try contains(key) && !decodeNil(forKey: key) ? decodeID(forKey: key) : nil
    }

    /// An array of at most `limit` ids.
    func decodeIDs(forKey key: Key, limit: Int) throws -> [String] {
        try decodeStrings(forKey: key, limit: limit, noun: "ids", problem: WireGrammar.idProblem)
    }

    /// An array of at most `limit` MIME types.
    func decodeMIMETypes(forKey key: Key, limit: Int) throws -> [String] {
        try decodeStrings(forKey: key, limit: limit, noun: "types", problem: WireGrammar.mimeTypeProblem)
    }

    /// An array of at most `limit` strings, each checked by `problem`.
    private func decodeStrings(forKey key: Key, limit: Int, noun: String, problem: (String) -> String?) throws -> [String] {
        var array = try nestedUnkeyedContainer(forKey: key)
        var strings: [String] = []
        while !array.isAtEnd {
            guard strings.count < limit else { throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "at most \(limit) \(noun)") }
            let string = try array.decode(String.self)
            if let problem = problem(string) { throw invalid(key, at: strings.count, problem) }
            strings.append(string)
        }
        return strings
    }

    /// A `dataCorrupted` error for element `index` of the array at `key`.
    func invalid(_ key: Key, at index: Int, _ problem: String) -> DecodingError {
        .dataCorrupted(.init(codingPath: codingPath + [key, ArrayIndexKey(index)], debugDescription: problem))
    }
}

/// The coding key of an array element, for error paths such as `items[3]`.
struct ArrayIndexKey: CodingKey {
    var intValue: Int?
    var stringValue: String { "\(intValue ?? 0)" }
    init(_ index: Int) { intValue = index }
    init?(intValue: Int) { self.intValue = intValue }
    init?(stringValue: String) { nil }
}
