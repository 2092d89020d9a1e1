import Foundation
import Testing
@testable import DragAndDrop

/// UIKit's call order and the engine's rules, whatever the delegates say.
@Suite struct SessionLifecycleTests {
    func session(_ page: DropTargets, log: CallLog? = nil, allowsMove: Bool = true) -> SessionEngine {
        SessionEngine.beginDrag(from: ListTarget(id: "source", rowCount: 1), at: [IndexPath(row: 0)],
                                delegate: TextDragDelegate(rows: ["Paris"], allowsMove: allowsMove, log: log), targets: page)!
    }

    @Test func callOrderAndEndReachesEveryEnteredTarget() throws {
        let log = CallLog()
        let page = targets([("a", 2, PlacesDropDelegate(log: log)), ("b", 2, PlacesDropDelegate(log: log)), ("c", 2, PlacesDropDelegate(log: log))])
        var engine = session(page, log: log)
        try engine.enter(.list("a"))
        _ = try engine.update(.list("a"), at: .row(0, fraction: 0.2))
        _ = try engine.update(.list("a"), at: .row(1, fraction: 0.2))
        try engine.enter(.list("b"))          // leaves a first
        _ = try engine.update(.list("b"), at: .noRow)
        try engine.exit(.list("b"))
        _ = try engine.drop(on: .list("a"), at: .row(0, fraction: 0.1))
        engine.conclude()
        let outcome = engine.end()
        #expect(outcome.endedTargets == [.list("a"), .list("b")])
        #expect(log.of("a") == ["canHandle", "enter", "update", "update", "exit", "enter", "update", "perform", "end"])
        #expect(log.of("b") == ["canHandle", "enter", "update", "exit", "end"])
        #expect(log.of("c") == [])
        #expect(log.all.first == "willBegin source")
        #expect(log.all.last == "didEnd(copy) source")
        #expect(engine.end() == outcome)   // idempotent, nobody called again
        #expect(log.all.filter { $0.hasPrefix("end") }.count == 2)
    }

    @Test func canHandleFalseStopsEveryFurtherCall() throws {
        let log = CallLog()
        struct Refuses: ListDropDelegate {
            let log: CallLog
            func canHandle(_ session: DropSession, in list: ListTarget) -> Bool { log.record("canHandle \(list.id)"); return false }
            func dropSessionDidEnter(_ session: DropSession, in list: ListTarget) { log.record("enter \(list.id)") }
            func dropSessionDidUpdate(_ session: DropSession, in list: ListTarget, withDestinationIndexPath destinationIndexPath: IndexPath?) -> DropProposal {
                log.record("update \(list.id)"); return DropProposal(operation: .copy)
            }
            func performDrop(in list: ListTarget, with coordinator: inout DropCoordinator) throws { log.record("perform \(list.id)") }
            func dropSessionDidEnd(_ session: DropSession, in list: ListTarget) { log.record("end \(list.id)") }
        }
        var engine = session(targets([("x", 3, Refuses(log: log))]))
        #expect(engine.proposalTable().entry(for: .list("x"))?.handled == false)
        #expect(try engine.enter(.list("x")) == false)
        // The engine's rule says why, since the delegate is not asked.
        #expect(try engine.update(.list("x"), at: .row(0, fraction: 0.5)).proposal == .cancel(SessionEngine.reasonNotHandled))
        #expect(try engine.drop(on: .list("x"), at: .row(0, fraction: 0.5)).refused == .cancel(SessionEngine.reasonNotHandled))
        engine.end()
        #expect(log.of("x") == ["canHandle"])
    }

    @Test func forbiddenAndCancelKeepTheirReasonsAndNeitherPerforms() throws {
        struct Answers: ListDropDelegate {
            let log: CallLog
            func dropSessionDidUpdate(_ session: DropSession, in list: ListTarget, withDestinationIndexPath destinationIndexPath: IndexPath?) -> DropProposal {
                list.id == "forbidding" ? .forbidden("Cats don't play with people") : DropProposal(operation: .cancel, reason: "ignored")
            }
            func performDrop(in list: ListTarget, with coordinator: inout DropCoordinator) throws { log.record("perform \(list.id)") }
        }
        let log = CallLog()
        var engine = session(targets([("forbidding", 1, Answers(log: log)), ("cancelling", 1, Answers(log: log))]))
        let forbidden = try engine.drop(on: .list("forbidding"), at: .row(0, fraction: 0.5)).refused
        #expect(forbidden == DropProposal(operation: .forbidden, intent: .unspecified, reason: "Cats don't play with people"))
        let cancelled = try engine.drop(on: .list("cancelling"), at: .row(0, fraction: 0.5)).refused
        #expect(cancelled == DropProposal(operation: .cancel, intent: .unspecified, reason: "ignored"))
        #expect(log.all.isEmpty)
    }

    @Test func atDropTimeTheStricterAnswerWins() throws {
        var engine = session(targets([("source", 1, PlacesDropDelegate())]))
        // The browser showed copy (say, from a stale table); the delegate now says move: copy wins.
        let result = try #require(try engine.drop(on: .list("source"), at: .row(0, fraction: 0.2), shownOperation: .copy).result)
        #expect(result.proposal.operation == .copy)
        var other = session(targets([("source", 1, PlacesDropDelegate())]))
        #expect(try other.drop(on: .list("source"), at: .row(0, fraction: 0.2), shownOperation: .forbidden).refused?.operation == .forbidden)
    }

    @Test func noEventsAfterTheDropOrTheEnd() throws {
        var engine = session(targets([("source", 1, PlacesDropDelegate())]))
        _ = try engine.drop(on: .list("source"), at: .noRow)
        #expect(throws: DragAndDropError.sessionEnded) { try engine.drop(on: .list("source"), at: .noRow) }
        engine.end()
        #expect(throws: DragAndDropError.sessionEnded) { try engine.enter(.list("source")) }
    }

    @Test func placeholdersAreCommittedOrDeletedOnce() throws {
        struct Uploads: ListDropDelegate {
            func dropSessionDidUpdate(_ session: DropSession, in list: ListTarget, withDestinationIndexPath destinationIndexPath: IndexPath?) -> DropProposal {
                DropProposal(operation: .copy, intent: .insertAtDestinationIndexPath)
            }
            func performDrop(in list: ListTarget, with coordinator: inout DropCoordinator) throws {
                for item in coordinator.items { coordinator.drop(item, toPlaceholderAt: coordinator.destinationIndexPath ?? IndexPath(row: 0)) }
            }
        }
        var png = ItemProvider()
        png.registerData(.tinyPNG, forTypeIdentifier: .png)
        var engine = SessionEngine(externalItems: [DragItem(itemProvider: png), DragItem(itemProvider: png)], targets: targets([("photos", 0, Uploads())]))
        let result = try #require(try engine.drop(on: .list("photos"), at: .noRow).result)
        let ids = result.placements.compactMap { placement -> DropPlaceholderID? in
            if case .placeholder(let id, _) = placement.destination { return id }
            return nil
        }
        #expect(ids.count == 2 && Set(ids).count == 2)
        let committed = engine.commitPlaceholder(ids[0])
        let committedAgain = engine.commitPlaceholder(ids[0])
        let deleted = engine.deletePlaceholder(ids[1])
        #expect(committed && !committedAgain && deleted)
        #expect(engine.pendingPlaceholders.isEmpty)
    }
}
