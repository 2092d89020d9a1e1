import Dragboard
import Foundation

/// The kit's `row` template compiled for the page's hot loop: thousands of rows a list, each
/// through swift-mustache's context lookups, `String(describing:)` and per-character escaping,
/// were most of a page's render time. A row template that uses only the row's own fields (plain,
/// `{{{triple}}}` and `{{#flag}}…{{/flag}}`) renders here as bytes, with the same output; any other
/// row template is left to swift-mustache.
struct RowTemplate: Sendable {
    enum Field: String, Sendable { case id, listID, kind, title, detail, badges, drag, hasDrag }
    indirect enum Piece: Sendable {
        case text([UInt8])
        case escaped(Field)
        case raw(Field)
        case section(Field, [Piece])
    }

    let pieces: [Piece]

    /// `nil` when `source` uses anything but the row's fields.
    init?(source: String) {
        var rest = Substring(source)
        guard let pieces = Self.parse(&rest, closing: nil), rest.isEmpty else { return nil }
        self.pieces = pieces
    }

    private static func parse(_ rest: inout Substring, closing: Field?) -> [Piece]? {
        var pieces: [Piece] = []
        while !rest.isEmpty {
            guard let open = rest.range(of: "{{") else {
                pieces.append(.text(Array(rest.utf8)))
                rest = rest[rest.endIndex...]
                break
            }
            if open.lowerBound > rest.startIndex { pieces.append(.text(Array(rest[..<open.lowerBound].utf8))) }
            let triple = rest[open.upperBound...].hasPrefix("{")
            let start = triple ? rest.index(after: open.upperBound) : open.upperBound
            guard let close = rest[start...].range(of: triple ? "}}}" : "}}") else { return nil }
            var tag = rest[start..<close.lowerBound].trimmingCharacters(in: .whitespaces)
            rest = rest[close.upperBound...]
            let sigil = tag.first
            if sigil == "#" || sigil == "/" { tag = String(tag.dropFirst()).trimmingCharacters(in: .whitespaces) }
            guard let field = Field(rawValue: tag) else { return nil }
            switch sigil {
            case "#" where !triple:
                guard field == .hasDrag, let inner = parse(&rest, closing: field) else { return nil }
                pieces.append(.section(field, inner))
            case "/" where !triple:
                return field == closing ? pieces : nil
            default:
                guard field != .hasDrag else { return nil }
                pieces.append(triple ? .raw(field) : .escaped(field))
            }
        }
        return closing == nil ? pieces : nil
    }

    func render(_ row: RowView, into out: inout [UInt8]) {
        Self.render(pieces, row, into: &out)
    }

    private static func render(_ pieces: [Piece], _ row: RowView, into out: inout [UInt8]) {
        for piece in pieces {
            switch piece {
            case .text(let bytes): out.append(contentsOf: bytes)
            case .escaped(let field): escape(value(field, row), into: &out)
            case .raw(let field): out.append(contentsOf: value(field, row).utf8)
            case .section(_, let inner): if !row.drag.isEmpty { render(inner, row, into: &out) }
            }
        }
    }

    private static func value(_ field: Field, _ row: RowView) -> String {
        switch field {
        case .id: row.id
        case .listID: row.listID
        case .kind: row.kind
        case .title: row.title
        case .detail: row.detail
        case .badges: row.badges
        case .drag: row.drag
        case .hasDrag: ""
        }
    }

    /// swift-mustache's HTML escaping (`<>&"'`), on bytes.
    static func escape(_ text: String, into out: inout [UInt8]) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "&"): out.append(contentsOf: [0x26, 0x61, 0x6D, 0x70, 0x3B])              // &amp;
            case UInt8(ascii: "<"): out.append(contentsOf: [0x26, 0x6C, 0x74, 0x3B])                    // &lt;
            case UInt8(ascii: ">"): out.append(contentsOf: [0x26, 0x67, 0x74, 0x3B])                    // &gt;
            case UInt8(ascii: "\""): out.append(contentsOf: [0x26, 0x71, 0x75, 0x6F, 0x74, 0x3B])       // &quot;
            case UInt8(ascii: "'"): out.append(contentsOf: [0x26, 0x23, 0x33, 0x39, 0x3B])              // &#39;
            default: out.append(byte)
            }
        }
    }
}
