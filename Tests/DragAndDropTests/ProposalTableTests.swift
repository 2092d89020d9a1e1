import Foundation
import Testing
@testable import DragAndDrop

@Suite struct ProposalTableTests {
    /// Mixed answers: rows in blocks of 100 alternate move / forbidden, every 1,000th is a container.
    struct Mixed: ListDropDelegate {
        func dropSessionDidUpdate(_ session: DropSession, in list: ListTarget, withDestinationIndexPath destinationIndexPath: IndexPath?) -> DropProposal {
            guard let row = destinationIndexPath?.row else { return DropProposal(operation: .move) }
            if row % 1000 == 999 { return DropProposal(operation: .move, intent: .automatic) }
            return (row / 100) % 2 == 0 ? DropProposal(operation: .move, intent: .insertAtDestinationIndexPath) : .forbidden("full")
        }
        func performDrop(in list: ListTarget, with coordinator: inout DropCoordinator) throws {}
    }

    @Test func tenThousandRowsCompressIntoCorrectRuns() throws {
        let rows = 10_000
        var engine = SessionEngine.beginDrag(from: ListTarget(id: "big", rowCount: rows), at: [IndexPath(row: 0)],
                                             delegate: TextDragDelegate(rows: ["x"]), targets: targets([("big", rows, Mixed())]))!
        let entry = try #require(engine.proposalTable().entry(for: .list("big")))
        #expect(entry.runs.reduce(0) { $0 + $1.count } == rows + 1)
        #expect(entry.runs.first?.start == 0)
        for (run, next) in zip(entry.runs, entry.runs.dropFirst()) {
            #expect(run.start + run.count == next.start)
            #expect(run.proposal != next.proposal)      // compact: neighbours never equal
        }
        // 100 blocks plus the 10 containers splitting their forbidden blocks: about 120 runs, not 10,001.
        #expect(entry.runs.count < 130)
        let delegate = Mixed()
        let session = engine.dropSession
        for row in stride(from: 0, through: rows, by: 7) {
            var expected = delegate.dropSessionDidUpdate(session, in: ListTarget(id: "big", rowCount: rows), withDestinationIndexPath: IndexPath(row: row))
            if expected.operation.performsDrop { expected.reason = nil }
            #expect(entry.proposal(at: row) == expected, "row \(row)")
        }
        #expect(entry.proposal(at: nil) == DropProposal(operation: .move, intent: .unspecified))
        #expect(entry.copyModifier == nil)
    }

    @Test func theTableAppliesTheEngineRules() throws {
        // From another app: move becomes copy everywhere in the table.
        var external = SessionEngine(externalItems: [DragItem(itemProvider: ItemProvider(object: "x"))], targets: targets([("l", 3, Mixed())]))
        let entry = try #require(external.proposalTable().entry(for: .list("l")))
        #expect(entry.proposal(at: 0).operation == .copy)
        #expect(entry.proposal(at: nil) == DropProposal(operation: .copy, intent: .unspecified))
    }

    @Test func copyModifierVariantAppearsOnlyWhereItDiffers() throws {
        struct CopyWithModifier: ListDropDelegate {
            func dropSessionDidUpdate(_ session: DropSession, in list: ListTarget, withDestinationIndexPath destinationIndexPath: IndexPath?) -> DropProposal {
                DropProposal(operation: session.isCopyModifierPressed ? .copy : .move, intent: .insertAtDestinationIndexPath)
            }
            func performDrop(in list: ListTarget, with coordinator: inout DropCoordinator) throws {}
        }
        var engine = SessionEngine.beginDrag(from: ListTarget(id: "a", rowCount: 1), at: [IndexPath(row: 0)], delegate: TextDragDelegate(rows: ["x"]),
                                             targets: targets([("a", 2, CopyWithModifier()), ("b", 2, Mixed())]))!
        let table = engine.proposalTable()
        #expect(table.entry(for: .list("a"))?.copyModifier?.runs == [ProposalRun(start: 0, count: 3, proposal: DropProposal(operation: .copy, intent: .insertAtDestinationIndexPath))])
        #expect(table.entry(for: .list("b"))?.copyModifier == nil)
        engine.setCopyModifierPressed(true)
        #expect(try engine.update(.list("a"), at: .row(0, fraction: 0.1)).proposal.operation == .copy)
    }

    @Test func automaticResolvesByPositionWithinTheRow() throws {
        struct Boxes: ListDropDelegate {
            func dropSessionDidUpdate(_ session: DropSession, in list: ListTarget, withDestinationIndexPath destinationIndexPath: IndexPath?) -> DropProposal {
                DropProposal(operation: .move, intent: .automatic)
            }
            func performDrop(in list: ListTarget, with coordinator: inout DropCoordinator) throws {
                for item in coordinator.items {
                    if coordinator.proposal.intent == .insertIntoDestinationIndexPath, let destination = coordinator.destinationIndexPath {
                        coordinator.drop(item, intoRowAt: destination)
                    } else {
                        coordinator.drop(item, toRowAt: coordinator.destinationIndexPath ?? IndexPath(row: list.rowCount))
                    }
                }
            }
        }
        func engine() -> SessionEngine {
            SessionEngine.beginDrag(from: ListTarget(id: "toys", rowCount: 1), at: [IndexPath(row: 0)], delegate: TextDragDelegate(rows: ["ball"]),
                                    targets: targets([("boxes", 3, Boxes())]))!
        }
        var hover = engine()
        let middle = try hover.update(.list("boxes"), at: .row(1, fraction: 0.5))
        #expect(middle.proposal.intent == .insertIntoDestinationIndexPath && middle.destinationIndexPath == IndexPath(row: 1))
        let top = try hover.update(.list("boxes"), at: .row(1, fraction: 0.1))
        #expect(top.proposal.intent == .insertAtDestinationIndexPath && top.destinationIndexPath == IndexPath(row: 1))
        let bottom = try hover.update(.list("boxes"), at: .row(1, fraction: 0.9))
        #expect(bottom.proposal.intent == .insertAtDestinationIndexPath && bottom.destinationIndexPath == IndexPath(row: 2))

        var into = engine()
        #expect(try into.drop(on: .list("boxes"), at: .row(2, fraction: 0.6)).result?.placements.first?.destination == .into(IndexPath(row: 2)))
        var between = engine()
        #expect(try between.drop(on: .list("boxes"), at: .row(2, fraction: 0.8)).result?.placements.first?.destination == .row(IndexPath(row: 3)))
    }
}
