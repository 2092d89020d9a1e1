// A to-do board of your own in one file: two list kinds with the drop delegates you would
// write for a UITableView, mounted on a MicroHTTP router. Run it from the repository's root
// (it serves `Public/` and `Templates/`): `swift run dragboard-example`, then open the URL.
import Dragboard
import DragboardHTTP
import Foundation
import MicroHTTP

// EXAMPLE-BEGIN
/// To do: takes text from anywhere (a new to-do) and rows of this board (moved, or copied
/// with the copy modifier).
struct TodoList: ListKind {
    var id: String { "todo" }
    func dropDelegate(for list: BoardList) -> any ListDropDelegate { TodoDropDelegate() }
}

struct TodoDropDelegate: ListDropDelegate {
    func canHandle(_ session: DropSession, in list: ListTarget) -> Bool { session.hasText }

    func dropSessionDidUpdate(_ session: DropSession, in list: ListTarget,
                              withDestinationIndexPath destination: IndexPath?) -> DropProposal {
        let operation: DropOperation = session.isCopyModifierPressed ? .copy : .move
        return DropProposal(operation: operation, intent: .insertAtDestinationIndexPath)
    }

    func performDrop(in list: ListTarget, with coordinator: inout DropCoordinator) throws {
        let start = coordinator.destinationIndexPath?.row ?? list.rowCount
        for (offset, item) in coordinator.items.enumerated() {
            // A row of this board is moved by id; text from elsewhere becomes a new to-do.
            let title = item.dragItem.localObject == nil ? try coordinator.session.loadTitle(from: item) : nil
            coordinator.drop(item, toRowAt: IndexPath(row: start + offset), content: title)
        }
    }
}

/// Done: only takes to-dos moved from this board; nothing is copied into it.
struct DoneList: ListKind {
    var id: String { "done" }
    func dropDelegate(for list: BoardList) -> any ListDropDelegate { DoneDropDelegate() }
}

struct DoneDropDelegate: ListDropDelegate {
    func canHandle(_ session: DropSession, in list: ListTarget) -> Bool { session.hasText }

    func dropSessionDidUpdate(_ session: DropSession, in list: ListTarget,
                              withDestinationIndexPath destination: IndexPath?) -> DropProposal {
        guard session.localDragSession != nil, !session.isCopyModifierPressed else { return .forbidden("Done only takes moves") }
        return DropProposal(operation: .move, intent: .insertAtDestinationIndexPath)
    }

    func performDrop(in list: ListTarget, with coordinator: inout DropCoordinator) throws {
        let start = coordinator.destinationIndexPath?.row ?? list.rowCount
        for (offset, item) in coordinator.items.enumerated() {
            coordinator.drop(item, toRowAt: IndexPath(row: start + offset))
        }
    }
}

extension BoardKit {
    /// The board: its kinds, and what a new database starts with.
    static let todo = BoardKit(lists: [TodoList(), DoneList()], seed: BoardSeed(lists: [
        (ListRecord(id: "todo", title: "To do", kind: "todo", position: 0),
         ["Write a delegate", "Mount the routes"].map { NewItem(kind: "text", title: $0) }),
        (ListRecord(id: "done", title: "Done", kind: "done", position: 1), []),
    ]))
}
// EXAMPLE-END

// The board's routes and the browser's files on one router, served by libmicrohttpd.
// Pages name each file under the directory's version (/static/<version>/app.js): cached for good.
let files = try StaticFiles(directory: "Public")
let board = try await BoardService(kit: .todo, databasePath: "todo.sqlite", templatesDirectory: "Templates",
                                   staticFiles: "/static/" + files.version)
var router = Router()
router.mount(files, at: "/static")
board.addRoutes(to: &router)
let port = Int(ProcessInfo.processInfo.environment["PORT"] ?? "") ?? 8080
let server = HTTPServer(configuration: .init(port: port), router: router)
try server.start()
FileHandle.standardOutput.write(Data("Listening on http://127.0.0.1:\(server.port)\n".utf8))   // unbuffered
while true { try await Task.sleep(for: .seconds(3600)) }
