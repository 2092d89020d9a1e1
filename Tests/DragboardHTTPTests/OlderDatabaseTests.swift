@testable import DragboardStore
import Foundation
import Logging
import Testing
@testable import Dragboard
@testable import DragboardHTTP
import Showcase

/// A board file written before the kit existed names its kinds with the same strings the
/// showcase registers (`cat`, `places`, `people`, `toy-boxes`; rows `toy`, `place`, `person`,
/// `box`, `text`, `link`) and needs no migration: it opens with every row where it was.
@Suite struct OlderDatabaseTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func theShowcaseRegistersTheKindStringsOlderDatabasesHold() {
        for list in ["cat", "places", "people", "toy-boxes"] { #expect(Showcase.kit.listKind(list) != nil, "list kind \(list)") }
        #expect(Showcase.kit.itemKinds.map(\.id).sorted() == ["box", "card-image", "card-link", "link", "person", "toy"])   // the kit adds its card kinds
        #expect(Showcase.kit.isContainer("box") && !Showcase.kit.isContainer("toy"))
        #expect(Showcase.kit.zones.map(\.id) == ["image-well", "label"])
    }

    @Test func aBoardWrittenBeforeTheKitOpensWithEveryRowWhereItWas() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dragboard-old-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("board.sqlite").path
        // What the pre-kit version wrote: its own literal kinds and payloads, and a label.
        let old = try BoardStore(path: path)
        try old.seedIfEmpty([
            (ListRecord(id: "cat-1", title: "Whiskers", kind: "cat", position: 0), [NewItem(id: "yarn", kind: "toy", title: "Ball of yarn")]),
            (ListRecord(id: "places", title: "Places", kind: "places", position: 1),
             [NewItem(id: "paris", kind: "place", title: "Paris"), NewItem(id: "web", kind: "link", title: "https://example.com/a", payload: #"{"url":"https://example.com/a"}"#)]),
            (ListRecord(id: "people", title: "People", kind: "people", position: 2), [NewItem(id: "ada", kind: "person", title: "Ada Lovelace", payload: #"{"age":36}"#)]),
            (ListRecord(id: "toy-boxes", title: "Toy boxes", kind: "toy-boxes", position: 3), [NewItem(id: "box-red", kind: "box", title: "Red box")]),
        ], containers: ["box-red": [NewItem(id: "duck", kind: "toy", title: "Rubber duck")]])
        _ = try old.perform(operationID: "label", fingerprint: "f") { tx in try tx.setLabel("label", text: "Hello"); return "{}" }
        let version = try old.version()

        let service = try await BoardService(kit: Showcase.kit, databasePath: path, templatesDirectory: Self.root.appendingPathComponent("Templates").path,
                                             logger: Logger(label: "test"))
        #expect(try service.store.version() == version)   // the seed left it alone
        #expect(try service.store.lists().map(\.id) == ["cat-1", "places", "people", "toy-boxes"])
        #expect(try service.store.contents(of: "box-red").map(\.id) == ["duck"])
        let page = try service.page(csrf: "0123456789abcdef0123456789abcdef")
        #expect(page.contains(#"class="title">Ada Lovelace</span> <span class="age">36</span>"#))
        // A link whose title is its address shows the address once.
        #expect(page.contains(#"class="title">https://example.com/a</span><a class="row-open""#))
        #expect(!page.contains(#"<span class="url">"#))
        #expect(page.contains(#"<span class="count" data-count="1">1</span> toy</summary>"#))
        #expect(page.contains(#"<p class="label-text">Hello</p>"#))

        let targets = try service.store.read { try $0.dropTargets(Showcase.kit) }
        #expect(targets.ids.count == 7)   // every old list takes drops, the old box's contents, and both zones
        #expect(targets.ids.contains(.list("box-red")))
    }
}
