import Foundation
import MicroHTTP
@testable import DragboardHTTP

/// The form routes of this turn (card details, checklists, labels, the board's colour, sign-in and
/// members) in the fuzzer's grammar: well-formed posts aimed at real cards, and hostile ones (forged
/// ids, invalid UTF-8 and NULs in fields, huge values, wrong types). A refused one must change nothing.
extension FuzzGenerator {
    static let palette = ["green", "yellow", "orange", "red", "purple", "blue", "teal", "pink", "grey"]

    mutating func edit() -> FuzzRequest {
        let board = rng.chance(0.92) ? "demo" : rng.pick("nope", "DEMO", "%00", "..", String(repeating: "b", count: 300))
        let card = rng.chance(0.9) ? anyID() : rng.pick("x", "%00", "%FF", String(repeating: "i", count: 300), "..%2fx")
        let check = rng.chance(0.5) ? freshToken() : rng.pick("c", "%00", "")
        let label = rng.chance(0.5) ? freshToken() : rng.pick("l", "%00")
        let (path, fields): (String, [(String, String)]) =
            switch rng.int(0...11) {
            case 0: ("/boards/\(board)/cards/\(card)", [("title", text()), ("description", text()), ("due", date()), ("label", label)])
            case 1: ("/boards/\(board)/cards/\(card)/checks", [("title", text())])
            case 2: ("/boards/\(board)/cards/\(card)/checks/\(check)", [("done", rng.pick("true", "false", "1", "", "yes"))])
            case 3: ("/boards/\(board)/cards/\(card)/checks/\(check)/delete", [])
            case 4: ("/boards/\(board)/cards/\(card)/checks/\(check)/move", [("index", rng.pick("0", "1", "-1", "99999999999999999999", "x"))])
            case 5: ("/boards/\(board)/labels", [("name", text()), ("color", color())])
            case 6: ("/boards/\(board)/labels/\(label)", [("name", text()), ("color", color())])
            case 7: ("/boards/\(board)/labels/\(label)/delete", [])
            case 8: ("/boards/\(board)/color", [("color", color())])
            case 9: ("/login", [("username", text()), ("password", text()), ("next", rng.pick("/", "//evil.example", "/boards/demo", "javascript:x"))])
            case 10: ("/boards/\(board)/members", [("username", text()), ("role", rng.pick("editor", "viewer", "owner", "god", ""))])
            default: ("/boards/\(board)/members/role", [("username", text()), ("role", rng.pick("editor", "viewer", "owner", ""))])
            }
        var encoded = (fields + [("csrf", Self.csrf), ("op", freshToken())]).map { "\($0.0)=\(Self.formEncoded($0.1))" }
        var mutation = ""
        if rng.chance(0.3), !encoded.isEmpty {
            let index = rng.int(0...encoded.count - 1)
            switch rng.int(0...4) {
            case 0: encoded[index] += rng.pick("%FF", "%C3%28", "%ED%A0%80", "%F8%88%80%80%80"); mutation = "invalid UTF-8"
            case 1: encoded[index] += "%00"; mutation = "NUL"
            case 2: encoded.append(encoded[index]); mutation = "field twice"
            case 3: encoded.remove(at: index); mutation = "field missing"
            default: encoded[index] += String(repeating: rng.pick("a", "%C3%A9", "%F0%9F%90%88"), count: rng.pick(5_000, 20_000)); mutation = "long"
            }
        }
        var headers = Self.writeHeaders
        headers["Content-Type"] = "application/x-www-form-urlencoded"
        // Mostly as the page's fetch sends forms (JSON answers); sometimes as a plain form (pages).
        headers["Accept"] = rng.chance(0.8) ? "application/json" : "text/html"
        var request = FuzzRequest(kind: "edit", method: .post, path: path, headers: headers, body: Array(encoded.joined(separator: "&").utf8), mutation: mutation)
        if rng.chance(0.05) { mutateBytes(&request) }
        return request
    }

    private mutating func text() -> String {
        rng.pick("Fix the gate", "", "  ", "<script>alert(1)</script>", "a\nb\r\nc", "Ｃａｔ 🐈‍⬛ e\u{301}", "\u{202E}evil", String(repeating: "x", count: 10_001), "Plain")
    }

    private mutating func date() -> String {
        rng.pick("", "2026-12-24", "2026-02-30", "24/12/2026", "99999-01-01", "2026-12-24T10:00")
    }

    private mutating func color() -> String {
        rng.chance(0.8) ? rng.pick(Self.palette) : rng.pick("#ff0000", "", "GREEN", "red; background:url(x)")
    }

    /// Percent-encodes everything but letters and digits, as a browser's form does.
    static func formEncoded(_ value: String) -> String {
        value.utf8.map { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) ? String(UnicodeScalar(byte)) : String(format: "%%%02X", byte)
        }.joined()
    }
}
