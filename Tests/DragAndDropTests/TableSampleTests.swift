import Foundation
import Testing
@testable import DragAndDrop

/// Apple's table-view sample: from the same list one row moves, several cancel; from
/// elsewhere rows are copied; no destination appends at the end.
@Suite struct TableSampleTests {
    let places = ["Paris", "Lisbon", "Oslo", "Rome"]

    func engine(rows: [Int], from list: String = "places", allowsMove: Bool = true) -> SessionEngine {
        let page = targets([("places", places.count, PlacesDropDelegate()), ("other", 2, PlacesDropDelegate())])
        let source = ListTarget(id: list, rowCount: places.count)
        return SessionEngine.beginDrag(from: source, at: rows.map { IndexPath(row: $0) },
                                       delegate: TextDragDelegate(rows: places, allowsMove: allowsMove), targets: page)!
    }

    @Test func oneRowFromTheSameListMovesWithInsertAt() throws {
        var session = engine(rows: [0])
        let hover = try session.update(.list("places"), at: .row(2, fraction: 0.3))
        #expect(hover.proposal == DropProposal(operation: .move, intent: .insertAtDestinationIndexPath))
        #expect(hover.destinationIndexPath == IndexPath(row: 2))
        let result = try #require(try session.drop(on: .list("places"), at: .row(2, fraction: 0.3)).result)
        #expect(result.placements.map(\.operation) == [.move])
        #expect(result.placements.first?.destination == .row(IndexPath(row: 2)))
        #expect(result.placements.first?.item.sourceIndexPath == IndexPath(row: 0))
        #expect(result.placements.first?.content as? String == "Paris")
    }

    @Test func severalRowsFromTheSameListCancel() throws {
        var session = engine(rows: [0, 2])
        #expect(try session.update(.list("places"), at: .row(1, fraction: 0.2)).proposal.operation == .cancel)
        let refused = try #require(try session.drop(on: .list("places"), at: .row(1, fraction: 0.2)).refused)
        #expect(refused.operation == .cancel)
        #expect(session.end().operation == .cancel)
    }

    @Test func rowsFromAnotherListAreCopiedWithInsertAt() throws {
        var session = engine(rows: [1])
        let hover = try session.update(.list("other"), at: .row(0, fraction: 0.9))
        #expect(hover.proposal == DropProposal(operation: .copy, intent: .insertAtDestinationIndexPath))
        #expect(hover.destinationIndexPath == IndexPath(row: 1))
        let result = try #require(try session.drop(on: .list("other"), at: .row(0, fraction: 0.9)).result)
        #expect(result.placements.map(\.operation) == [.copy])
        #expect(result.placements.first?.item.sourceIndexPath == nil)
    }

    @Test func noDestinationAppendsAtTheEndWithUnspecifiedIntent() throws {
        var session = engine(rows: [3])
        let hover = try session.update(.list("other"), at: .noRow)
        #expect(hover.proposal.intent == .unspecified)
        #expect(hover.destinationIndexPath == nil)
        let result = try #require(try session.drop(on: .list("other"), at: .noRow).result)
        #expect(result.placements.first?.destination == .row(IndexPath(row: 2)))
    }

    @Test func externalTextIsCopiedAndNeverMoved() throws {
        let page = targets([("places", 4, PlacesDropDelegate())])
        var provider = ItemProvider()
        provider.registerData(Data("Tokyo".utf8), forTypeIdentifier: .plainText)
        var session = SessionEngine(externalItems: [DragItem(itemProvider: provider)], targets: page)
        #expect(session.dropSession.localDragSession == nil)
        let result = try #require(try session.drop(on: .list("places"), at: .row(0, fraction: 0.1)).result)
        #expect(result.proposal.operation == .copy)
        #expect(result.placements.first?.content as? String == "Tokyo")
    }

    @Test func aDestinationOutsideTheListIsRefused() throws {
        var session = engine(rows: [0])
        #expect(throws: DragAndDropError.destinationOutOfRange(4, rowCount: 4)) {
            try session.drop(on: .list("places"), at: .row(4, fraction: 0.5))
        }
        #expect(throws: DragAndDropError.unknownTarget(.list("nowhere"))) {
            try session.enter(.list("nowhere"))
        }
    }
}
