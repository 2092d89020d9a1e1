import Foundation
import Testing
@testable import Dragboard
@testable import DragboardHTTP
import Showcase

/// Rows of a kind whose representations are made from the title alone carry none on the page:
/// the browser composes them from the kind's recipe. Everything else keeps them pre-rendered.
@Suite struct DragRecipesTests {
    let kit = Showcase.kit

    func composed(_ record: ItemRecord, _ recipes: DragRecipes) -> [[String]] {
        (recipes.byKind[record.kind] ?? []).map { [$0.mimeType, $0.parts.joined(separator: $0.escape.apply(record.title))] }
    }

    func expected(_ record: ItemRecord) throws -> [[String]] {
        try kit.itemProvider(for: BoardItem(record)).publicRepresentations(in: kit.types).map { [$0.mimeType, String(decoding: $0.data, as: UTF8.self)] }
    }

    static func record(_ kind: String, _ title: String, payload: String = "{}") -> ItemRecord {
        ItemRecord(id: "r1", listID: "l1", containerID: nil, pos: "a", kind: kind, title: title, payload: payload, changedVersion: 1)
    }

    @Test func aCoveredRowComposesExactlyWhatItsProviderWrites() throws {
        let recipes = DragRecipes(kit: kit)
        #expect(recipes.byKind["toy"] != nil && recipes.byKind["box"] != nil)
        #expect(recipes.byKind["person"] != nil)   // its JSON's keys come in any order: compared as values
        for (kind, title) in [("toy", "<i>Tea & cake</i> / \"quoted\" \\ 'single'"), ("toy", "Ball of yarn"), ("box", "Red box 🐈"), ("link", "No address yet"), ("person", "Nobody aged")] {
            let record = Self.record(kind, title)
            #expect(recipes.covers(record), "\(kind) \(title)")
            let (composed, expected) = (composed(record, recipes), try expected(record))
            #expect(composed.map { $0[0] } == expected.map { $0[0] }, "\(kind) \(title)")
            for (made, wanted) in zip(composed, expected) {
                #expect(DragRecipes.same(made[1], wanted[1], made[0]), "\(kind) \(title) \(made[0])")
            }
        }
    }

    @Test func rowsWithDataOrControlCharactersKeepTheirOwn() async throws {
        let recipes = DragRecipes(kit: kit)
        let person = Self.record("person", "Ada", payload: #"{"age":36}"#)
        #expect(!recipes.covers(person))
        #expect(!recipes.covers(Self.record("toy", "two\r\nlines")))
        #expect(!recipes.covers(Self.record("unregistered", "plain")))

        let renderer = try await BoardRenderer(templatesDirectory: TestBoard.root.appendingPathComponent("Templates").path, kit: kit)
        #expect(renderer.row(person, contents: []).contains("data-drag="))
        #expect(!renderer.row(Self.record("toy", "Ball"), contents: []).contains("data-drag="))
    }
}
