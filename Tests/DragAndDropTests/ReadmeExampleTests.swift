import Foundation
import Testing
import DragAndDrop

// README-EXAMPLE-BEGIN
/// A list of toys: one toy moves between lists; several are copied; people are forbidden.
struct ToyListDelegate: ListDropDelegate {
    func canHandle(_ session: DropSession, in list: ListTarget) -> Bool {
        session.canLoadObjects(ofClass: String.self)
    }

    func dropSessionDidUpdate(_ session: DropSession, in list: ListTarget,
                              withDestinationIndexPath destination: IndexPath?) -> DropProposal {
        if session.hasItemsConforming(toTypeIdentifiers: ["com.example.person"]) {
            return .forbidden("Toys only")
        }
        let operation: DropOperation = session.items.count == 1 ? .move : .copy
        return DropProposal(operation: operation, intent: .insertAtDestinationIndexPath)
    }

    func performDrop(in list: ListTarget, with coordinator: inout DropCoordinator) throws {
        let titles = try coordinator.session.loadObjects(ofClass: String.self)
        let start = coordinator.destinationIndexPath?.row ?? list.rowCount
        for (offset, (item, title)) in zip(coordinator.items, titles).enumerated() {
            coordinator.drop(item, toRowAt: IndexPath(row: start + offset), content: title)
        }
    }
}
// README-EXAMPLE-END

@Suite struct ReadmeExampleTests {
    @Test func theReadmeShowsThisCompiledExample() throws {
        let here = URL(fileURLWithPath: #filePath)
        let root = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        func example(in text: String) -> String? {
            guard let begin = text.range(of: "// README-EXAMPLE-BEGIN\n"), let end = text.range(of: "// README-EXAMPLE-END") else { return nil }
            return String(text[begin.upperBound..<end.lowerBound])
        }
        let source = try #require(example(in: try String(contentsOf: here, encoding: .utf8)))
        let readme = try String(contentsOf: root.appendingPathComponent("docs/kit.md"), encoding: .utf8)
        #expect(readme.contains(source), "README.md must show the example of ReadmeExampleTests.swift verbatim")
    }

    @Test func theExampleWorks() throws {
        var page = DropTargets()
        page.add(ListTarget(id: "toys", rowCount: 2), delegate: ToyListDelegate())
        var engine = SessionEngine(externalItems: [DragItem(itemProvider: ItemProvider(object: "Ball"))], targets: page)
        let result = try #require(try engine.drop(on: .list("toys"), at: .row(1, fraction: 0.8)).result)
        #expect(result.proposal.operation == .copy)   // from another app: the move became a copy
        #expect(result.placements.first?.destination == .row(IndexPath(row: 2)))
        #expect(result.placements.first?.content as? String == "Ball")
    }
}
