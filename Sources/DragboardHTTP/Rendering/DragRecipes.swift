import DragAndDrop
import Dragboard
import Foundation

/// Per item kind, how the browser composes a row's public representations at `dragstart` from
/// the row's title alone, so the page need not carry them pre-rendered on every row.
///
/// Learned from the kind itself: its representations of a probe row whose title is a sentinel
/// are cut at the sentinel, and the cut is kept only if it reproduces the kind's own output for a
/// second row with a title full of characters that need escaping (and another id). A kind whose
/// output depends on more than its title, or escapes it in a way the browser cannot repeat, gets
/// no recipe: its rows keep their representations pre-rendered.
struct DragRecipes: Sendable {
    /// How the title is escaped where it stands in a representation; the browser has the same four.
    enum Escape: String, Sendable, CaseIterable {
        case raw, html, json
        case jsonSlashes = "json/"

        func apply(_ text: String) -> String {
            switch self {
            case .raw: text
            case .html: HTMLEscaping.escape(text)
            case .json: Self.jsonString(text, slashes: false)
            case .jsonSlashes: Self.jsonString(text, slashes: true)
            }
        }

        /// The inside of a JSON string as `JSON.stringify` writes it (titles with control
        /// characters never use a recipe, see ``DragRecipes/covers(_:)``).
        private static func jsonString(_ text: String, slashes: Bool) -> String {
            var out = ""
            out.reserveCapacity(text.utf8.count)
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "/" where slashes: out += "\\/"
                default: out.unicodeScalars.append(scalar)
                }
            }
            return out
        }
    }

    struct Representation: Sendable {
        var mimeType: String
        var escape: Escape
        /// The representation cut where the title goes.
        var parts: [String]
    }

    let byKind: [String: [Representation]]
    /// `{"kind": [[mime, escape, [part, …]], …]}` for the page's `data-drag-recipes`.
    let json: String

    private static let sentinel = "\u{E000}"
    private static let probeTitle = "<b class=\"x\">Tea & 'cake'</b> / \\ é 🐈"

    init(kit: BoardKit) {
        var byKind: [String: [Representation]] = [:]
        for kind in kit.itemKinds {
            if let recipe = Self.learn(kind.id, kit: kit) { byKind[kind.id] = recipe }
        }
        self.byKind = byKind
        let object = byKind.mapValues { $0.map { [$0.mimeType, $0.escape.rawValue, $0.parts] as [Any] } }
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        json = String(decoding: data, as: UTF8.self)
    }

    /// Whether `record`'s representations are its kind's recipe applied to its title: a kind with
    /// a recipe, no kind-specific data, and a title the HTML parser gives back unchanged (no
    /// control characters: it turns CR LF into LF and NUL into U+FFFD).
    func covers(_ record: ItemRecord) -> Bool {
        byKind[record.kind] != nil && (record.payload == "{}" || record.payload.isEmpty)
            && !record.title.utf8.contains { $0 < 0x20 || $0 == 0x7F }
    }

    private static func learn(_ kind: String, kit: BoardKit) -> [Representation]? {
        let probe = representations(kit, BoardItem(id: "\u{E001}probe", listID: "\u{E001}list", kind: kind, title: sentinel))
        let check = representations(kit, BoardItem(id: "\u{E002}check", listID: "\u{E002}list", kind: kind, title: probeTitle))
        guard let probe, let check, probe.count == check.count else { return nil }
        var recipe: [Representation] = []
        for (cut, expected) in zip(probe, check) {
            guard cut.mimeType == expected.mimeType else { return nil }
            let parts = cut.data.components(separatedBy: sentinel)
            guard let escape = Escape.allCases.first(where: { same(parts.joined(separator: $0.apply(probeTitle)), expected.data, cut.mimeType) }) else { return nil }
            recipe.append(Representation(mimeType: cut.mimeType, escape: escape, parts: parts))
        }
        return recipe
    }

    /// JSON is compared as values: an encoded object's keys may come out in any order.
    static func same(_ composed: String, _ expected: String, _ mimeType: String) -> Bool {
        guard composed != expected else { return true }
        guard mimeType.hasSuffix("json"),
              let left = try? JSONSerialization.jsonObject(with: Data(composed.utf8), options: [.fragmentsAllowed]) as? NSObject,
              let right = try? JSONSerialization.jsonObject(with: Data(expected.utf8), options: [.fragmentsAllowed]) as? NSObject else { return false }
        return left == right
    }

    private static func representations(_ kit: BoardKit, _ item: BoardItem) -> [(mimeType: String, data: String)]? {
        guard let pairs = try? kit.itemProvider(for: item).publicRepresentations(in: kit.types) else { return nil }
        return pairs.map { ($0.mimeType, String(decoding: $0.data, as: UTF8.self)) }
    }
}
