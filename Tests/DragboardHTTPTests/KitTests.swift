import DragboardTesting

@testable import DragboardStore
import Foundation
import Testing
@testable import Dragboard
@testable import DragboardHTTP

/// What the kit does with what an app did not register, and its defaults.
@Suite struct KitTests {
    struct Shelf: ListKind {
        var id: String { "shelf" }
        func dropDelegate(for list: BoardList) -> any ListDropDelegate { Accepting() }
    }

    struct Accepting: ListDropDelegate {
        func canHandle(_ session: DropSession, in list: ListTarget) -> Bool { true }
        func dropSessionDidUpdate(_ session: DropSession, in list: ListTarget, withDestinationIndexPath destinationIndexPath: IndexPath?) -> DropProposal {
            DropProposal(operation: .move, intent: .insertAtDestinationIndexPath)
        }
        func performDrop(in list: ListTarget, with coordinator: inout DropCoordinator) throws {}
    }

    static let kit = BoardKit(lists: [Shelf()], seed: BoardSeed(lists: [
        (ListRecord(id: "shelf", title: "Shelf", kind: "shelf", position: 0), [NewItem(id: "mug", kind: "mug", title: "Mug <b>")]),
        (ListRecord(id: "attic", title: "Attic", kind: "retired-kind", position: 1), [NewItem(id: "lamp", kind: "text", title: "Lamp")]),
    ]))

    @Test func aListOfAnUnregisteredKindIsShownButTakesNoDrops() async throws {
        let board = try await TestBoard(kit: Self.kit, transport: .live)
        defer { board.remove() }
        #expect(try board.get("/boards/demo").contains(#"data-list="attic""#))
        let targets = try board.service.store.read { try $0.dropTargets(Self.kit) }
        #expect(targets.ids == [.list("shelf")])
    }

    @Test func aRowOfAnUnregisteredKindIsItsTitleAsTextAndEscapedHTML() throws {
        let item = BoardItem(id: "mug", listID: "shelf", kind: "mug", title: "Mug <b>")
        let representations = try Self.kit.itemProvider(for: item).publicRepresentations(in: Self.kit.types)
        #expect(representations.map(\.mimeType) == ["text/html", "text/plain"])
        #expect(String(decoding: representations[0].data, as: UTF8.self) == "<p><strong>Mug &lt;b&gt;</strong></p>")
        #expect(String(decoding: representations[1].data, as: UTF8.self) == "Mug <b>")
    }

    @Test func dropContentBecomesANewItemByDefault() throws {
        let list = ListRecord(id: "shelf", title: "Shelf", kind: "shelf", position: 0)
        #expect(try Shelf().newItem(from: "Cup", in: list) == NewItem(kind: "text", title: "Cup"))
        #expect(try Shelf().newItem(from: NewItem(kind: "mug", title: "Jar"), in: list) == NewItem(kind: "mug", title: "Jar"))
        #expect(throws: DragboardError.self) { try Shelf().newItem(from: 42, in: list) }
    }
}
