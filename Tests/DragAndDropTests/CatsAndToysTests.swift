import Foundation
import Testing
@testable import DragAndDrop

/// Moving a toy between cats, with the source cat's name as the session's localContext.
@Suite struct CatsAndToysTests {
    /// A tiny model the test applies placements to, the way the app applies them to its store.
    struct Cats {
        var toys: [String: [String]] = ["cat-1": ["ball", "mouse"], "cat-2": ["yarn"]]

        mutating func apply(_ result: SessionEngine.DropResult) {
            guard case .list(let destination) = result.target else { return }
            for placement in result.placements {
                guard let toy = placement.item.dragItem.localObject as? String, case .row(let indexPath) = placement.destination else { continue }
                if placement.operation == .move {
                    for cat in toys.keys { toys[cat]?.removeAll { $0 == toy } }
                }
                toys[destination, default: []].insert(toy, at: min(indexPath.row, toys[destination]?.count ?? 0))
            }
        }
    }

    struct CatDropDelegate: ListDropDelegate {
        let messages: Messages
        func canHandle(_ session: DropSession, in list: ListTarget) -> Bool { session.canLoadObjects(ofClass: String.self) }
        func dropSessionDidUpdate(_ session: DropSession, in list: ListTarget, withDestinationIndexPath destinationIndexPath: IndexPath?) -> DropProposal {
            DropProposal(operation: session.localDragSession == nil ? .copy : .move, intent: .insertAtDestinationIndexPath)
        }
        func performDrop(in list: ListTarget, with coordinator: inout DropCoordinator) throws {
            let from = coordinator.session.localDragSession?.localContext as? String ?? "elsewhere"
            messages.record("moved from \(from) to \(list.id)")
            for item in coordinator.items {
                coordinator.drop(item, toRowAt: coordinator.destinationIndexPath ?? IndexPath(row: list.rowCount))
            }
        }
    }

    final class Messages: Sendable {
        let log = CallLog()
        func record(_ message: String) { log.record(message) }
    }

    @Test func aToyMovesToAnotherCatAndLeavesTheFirst() throws {
        var model = Cats()
        let messages = Messages()
        let page = targets([("cat-1", 2, CatDropDelegate(messages: messages)), ("cat-2", 1, CatDropDelegate(messages: messages))])
        let drag = TextDragDelegate(rows: model.toys["cat-1"]!, context: "cat-1")
        var session = try #require(SessionEngine.beginDrag(from: ListTarget(id: "cat-1", rowCount: 2), at: [IndexPath(row: 1)], delegate: drag, targets: page))
        #expect(session.dragSession?.localContext as? String == "cat-1")
        let result = try #require(try session.drop(on: .list("cat-2"), at: .row(0, fraction: 0.1)).result)
        model.apply(result)
        session.conclude()
        #expect(session.end() == SessionOutcome(operation: .move, target: .list("cat-2"), endedTargets: [.list("cat-2")]))
        #expect(model.toys["cat-1"] == ["ball"])
        #expect(model.toys["cat-2"] == ["mouse", "yarn"])
        #expect(messages.log.all == ["moved from cat-1 to cat-2"])
    }

    @Test func aMoveTheSourceDoesNotAllowBecomesCancel() throws {
        let log = CallLog()
        let page = targets([("cat-2", 1, CatDropDelegate(messages: Messages()))])
        let drag = TextDragDelegate(rows: ["ball"], allowsMove: false, log: log)
        var session = try #require(SessionEngine.beginDrag(from: ListTarget(id: "cat-1", rowCount: 1), at: [IndexPath(row: 0)], delegate: drag, targets: page))
        #expect(session.dropSession.allowsMoveOperation == false)
        #expect(try session.update(.list("cat-2"), at: .row(0, fraction: 0.5)).proposal.operation == .cancel)
        #expect(try session.drop(on: .list("cat-2"), at: .row(0, fraction: 0.5)).refused?.operation == .cancel)
        #expect(session.end().operation == .cancel)
        #expect(log.all == ["willBegin cat-1", "didEnd(cancel) cat-1"])
    }

    @Test func noItemsMeansNoDrag() {
        struct Nothing: ListDragDelegate {
            func itemsForBeginning(_ session: inout DragSession, at indexPath: IndexPath, in list: ListTarget) -> [DragItem] { [] }
        }
        #expect(SessionEngine.beginDrag(from: ListTarget(id: "cat-1", rowCount: 1), at: [IndexPath(row: 0)], delegate: Nothing(), targets: DropTargets()) == nil)
    }

    @Test func severalRowsAreDraggedInListOrderOneCallPerRow() throws {
        let drag = TextDragDelegate(rows: ["a", "b", "c", "d"])
        let session = try #require(SessionEngine.beginDrag(from: ListTarget(id: "l", rowCount: 4), at: [IndexPath(row: 3), IndexPath(row: 1)], delegate: drag, targets: DropTargets()))
        #expect(session.dropSession.items.compactMap { $0.localObject as? String } == ["b", "d"])
        #expect(session.dragSession?.sourceIndexPaths == [IndexPath(row: 1), IndexPath(row: 3)])
    }
}
