// The Swift of docs/kit.md (and of the DocC articles that show the same code), compiled: each
// ```swift block of the guide is a contiguous run of lines here (Tests/layout/test_doc_snippets.py
// checks it). Types stand at file scope; statements sit in functions, some of them run by tests.
import DragboardTesting
import Testing

import Dragboard
import DragboardHTTP
import Foundation
import MicroHTTP

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

/// The example's serving code, as the guide shows it (compiled, never run: it serves forever).
func serveTheExample() async throws {
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
}

// MARK: - Your own kinds: a list kind

/// Tasks: takes tasks of any board of this server (moved; copied with the copy modifier), and
/// tasks or text dragged from other apps (each a new task).
struct TaskList: ListKind {
    var id: String { "tasks" }
    var title: String { "Tasks" }

    func dropDelegate(for list: BoardList) -> any ListDropDelegate { TaskDropDelegate() }

    /// What perform-drop passed as `content` for an item from outside, as the row to store.
    func newItem(from content: any Sendable, in list: ListRecord) throws -> NewItem {
        switch content {
        case let task as TaskValue:
            return NewItem(kind: TaskItem.id, title: task.title, payload: BoardItem.payload(TaskPayload(priority: task.priority)))
        case let title as String:
            return NewItem(kind: TaskItem.id, title: title, payload: BoardItem.payload(TaskPayload(priority: 3)))
        default:
            throw DragboardError.unprocessable("a task is made from a task or from text")
        }
    }
}

struct TaskDropDelegate: ListDropDelegate {
    func canHandle(_ session: DropSession, in list: ListTarget) -> Bool {
        session.hasItemsConforming(toTypeIdentifiers: [.task]) || session.hasText
    }

    func dropSessionDidUpdate(_ session: DropSession, in list: ListTarget,
                              withDestinationIndexPath destination: IndexPath?) -> DropProposal {
        let operation: DropOperation = session.isCopyModifierPressed ? .copy : .move
        return DropProposal(operation: operation, intent: .insertAtDestinationIndexPath)
    }

    /// The answer does not depend on the row: one run for the whole list, however long it is.
    func dropProposals(for session: DropSession, in list: ListTarget) -> [ProposalRun] {
        let proposal = dropSessionDidUpdate(session, in: list, withDestinationIndexPath: IndexPath(row: 0, section: list.section))
        return [ProposalRun(start: 0, count: list.rowCount + 1, proposal: proposal)]
    }

    func performDrop(in list: ListTarget, with coordinator: inout DropCoordinator) throws {
        let start = coordinator.destinationIndexPath?.row ?? list.rowCount
        for (offset, item) in coordinator.items.enumerated() {
            coordinator.drop(item, toRowAt: IndexPath(row: start + offset), content: try content(of: item, in: coordinator.session))
        }
    }

    /// A row of this server moves by id (nil); from elsewhere, a task if one was dragged, else its text.
    private func content(of item: DropItem, in session: DropSession) throws -> (any Sendable)? {
        guard item.dragItem.localObject == nil else { return nil }
        if let task = try session.loadObject(ofClass: TaskValue.self, from: item) { return task }
        return try session.loadTitle(from: item)
    }
}

// MARK: - Your own kinds: a row kind and its type

extension TypeIdentifier {
    /// The app's own type: a task with its priority, as JSON.
    static let task: TypeIdentifier = "com.example.task"
}

/// A task as it travels in a drag: written and read as the task type.
struct TaskValue: Codable, Sendable, ItemProviderWriting, ItemProviderReading {
    var title: String
    var priority: Int

    static var writableTypeIdentifiers: [TypeIdentifier] { [.task] }
    static var readableTypeIdentifiers: [TypeIdentifier] { [.task] }

    func data(forTypeIdentifier typeIdentifier: TypeIdentifier) throws -> Data {
        try JSONEncoder().encode(self)
    }

    static func object(withItemProviderData data: Data, typeIdentifier: TypeIdentifier) throws -> TaskValue {
        try JSONDecoder().decode(TaskValue.self, from: data)
    }
}

/// What a task row keeps besides its title, in the row's JSON payload.
struct TaskPayload: Codable {
    var priority: Int
}

/// A task row: dragged as the task type too, shown with its priority.
struct TaskItem: ItemKind {
    static let id = "task"
    var id: String { Self.id }
    var detailTemplate: String? { "row-task" }   // Templates/row-task.mustache

    func registerRepresentations(of item: BoardItem, in provider: inout ItemProvider) {
        provider.registerObject(TaskValue(title: item.title, priority: Self.priority(of: item)))
    }

    func plainText(of item: BoardItem) -> String {
        "\(item.title) (P\(Self.priority(of: item)))"
    }

    func templateValue(named name: String, of item: BoardItem, contents: [BoardItem]) -> Any? {
        name == "priority" ? Self.priority(of: item) : nil
    }

    static func priority(of item: BoardItem) -> Int {
        item.payload(as: TaskPayload.self)?.priority ?? 3
    }
}

// MARK: - Your own kinds: a container

/// A folder: rows dropped onto it go into it, and its contents are a list of their own.
struct FolderItem: ItemKind {
    var id: String { "folder" }
    var isContainer: Bool { true }
    var detailTemplate: String? { "row-folder" }   // shows {{{contentsList}}}

    func contentsDropDelegate(for container: BoardContainer) -> (any ListDropDelegate)? {
        TaskDropDelegate()
    }
}

// MARK: - Your own kinds: a zone

/// A note on the board: it shows the text of the last thing dropped on it.
struct NoteZone: ZoneKind {
    var id: String { "note" }   // Templates/zone-note.mustache

    func dropDelegate() -> any DropZoneDelegate { NoteDropDelegate() }

    func performDrop(_ placements: [DropPlacement], in zone: inout ZoneWriter) throws -> String {
        guard let text = placements.first?.content as? String else { throw DragboardError.unprocessable("nothing to show") }
        try zone.setText(text)
        return "The note says “\(text)”."
    }
}

struct NoteDropDelegate: DropZoneDelegate {
    func canHandle(_ session: DropSession, in zone: ZoneTarget) -> Bool { session.hasText }

    func dropSessionDidUpdate(_ session: DropSession, in zone: ZoneTarget) -> DropProposal {
        DropProposal(operation: .copy)
    }

    func performDrop(in zone: ZoneTarget, with coordinator: inout DropCoordinator) throws {
        guard let item = coordinator.items.first else { return }
        coordinator.accept(item, content: try coordinator.session.loadTitle(from: item))
    }
}

// MARK: - Your own kinds: the board

extension BoardKit {
    /// Tasks, a done list and a note: everything the app declares.
    static let tasks = BoardKit(
        lists: [TaskList(), DoneList()],
        items: [TaskItem(), FolderItem()],
        zones: [NoteZone()],
        types: TypeRegistry.standard.declaring(.task, conformingTo: [.data]),
        groups: [BoardKit.Group(title: "Work", listKinds: ["tasks"]), BoardKit.Group(title: "More lists")],
        seed: BoardSeed(lists: [
            (ListRecord(id: "inbox", title: "Inbox", kind: "tasks", position: 0),
             [NewItem(kind: TaskItem.id, title: "Try a drag", payload: BoardItem.payload(TaskPayload(priority: 1)))]),
            (ListRecord(id: "finished", title: "Finished", kind: "done", position: 1), []),
        ])
    )
}

// MARK: - Drop delegates

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

/// The engine driven by hand, as the guide shows it; run by ``theEngineTakesABall()``.
func driveTheEngine() throws {
    var page = DropTargets()
    page.add(ListTarget(id: "toys", rowCount: 2), delegate: ToyListDelegate())
    var engine = SessionEngine(externalItems: [DragItem(itemProvider: ItemProvider(object: "Ball"))], targets: page)
    let table = engine.proposalTable()      // every target's decision, sent to the browser at drag start
    switch try engine.drop(on: .list("toys"), at: .row(1, fraction: 0.8)) {
    case .perform(let result): print(result.placements)   // apply them in one transaction
    case .refuse(let proposal): print(proposal)           // cancel or forbidden: nothing to apply
    }
    engine.end()                            // did-end reaches every target the session entered
    _ = table
}

@Test func theEngineTakesABall() throws {
    try driveTheEngine()
}

/// Templates: their cards are copied out (hold the copy modifier), never moved; nothing is dropped in.
struct TemplateList: ListKind {
    var id: String { "templates" }

    func dropDelegate(for list: BoardList) -> any ListDropDelegate { NoDropsDelegate() }

    func dragDelegate(for list: ListRecord, items: [Int: DragItem]) -> any ListDragDelegate {
        CopyOnlyDragDelegate(base: BoardDragDelegate(items: items, source: DragSource(listID: list.id, title: list.title)))
    }
}

/// Wraps the kit's drag delegate, which puts each row's id and the source list in the session.
struct CopyOnlyDragDelegate: ListDragDelegate {
    var base: BoardDragDelegate

    func itemsForBeginning(_ session: inout DragSession, at indexPath: IndexPath, in list: ListTarget) -> [DragItem] {
        base.itemsForBeginning(&session, at: indexPath, in: list)
    }

    func dragSessionAllowsMoveOperation(_ session: DragSession, in list: ListTarget) -> Bool { false }
}

struct NoDropsDelegate: ListDropDelegate {
    func dropSessionDidUpdate(_ session: DropSession, in list: ListTarget,
                              withDestinationIndexPath destination: IndexPath?) -> DropProposal {
        .forbidden("Templates are written here, not dropped here")
    }

    func performDrop(in list: ListTarget, with coordinator: inout DropCoordinator) throws {}
}

// MARK: - Rules per person (the same rule as docs/accounts.md)

struct ApprovalDropDelegate: ListDropDelegate {
    func dropSessionDidUpdate(_ session: DropSession, in list: ListTarget, withDestinationIndexPath destination: IndexPath?) -> DropProposal {
        // Only owners may drop into the "Approved" list.
        if list.id == "approved", session.user.map({ $0.destinationRole != .owner }) ?? false {
            return .forbidden("Only an owner can approve cards.")
        }
        return DropProposal(operation: .move, intent: .insertAtDestinationIndexPath)
    }

    func performDrop(in list: ListTarget, with coordinator: inout DropCoordinator) throws {}
}

// MARK: - Undo from Swift

func undoTheNewestChange(board: BoardService, browserID: String) throws {
    let undo = board.undoManager(forBrowser: browserID, board: "demo")
    if undo.canUndo {
        print(undo.undoActionName)   // "Move Catnip mouse from Whiskers to Tom"
        try undo.undo()              // "Undid “Move Catnip mouse from Whiskers to Tom”."
    }
    if undo.canRedo { try undo.redo() }
}

// MARK: - Testing your delegate: the engine alone

@Test func doneRefusesTextFromAnotherApp() throws {
    var page = DropTargets()
    page.add(ListTarget(id: "done", rowCount: 0), delegate: DoneDropDelegate())
    var engine = SessionEngine(externalItems: [DragItem(itemProvider: ItemProvider(object: "Buy milk"))], targets: page)
    let hover = try engine.update(.list("done"), at: .noRow)
    #expect(hover.proposal == .forbidden("Done only takes moves"))
}

@Test func aToDoMovesToDone() throws {
    let todo = ListTarget(id: "todo", rowCount: 1)
    var page = DropTargets()
    page.add(todo, delegate: TodoDropDelegate())
    page.add(ListTarget(id: "done", rowCount: 0), delegate: DoneDropDelegate())
    // A row of the app, as the kit offers it: its representations, and its id as the local object.
    let row = DragItem(itemProvider: ItemProvider(object: "Buy milk"), localObject: "milk")
    let drag = BoardDragDelegate(items: [0: row], source: DragSource(listID: "todo", title: "To do"))
    var engine = try #require(SessionEngine.beginDrag(from: todo, at: [IndexPath(row: 0)], delegate: drag, targets: page))
    guard case .perform(let result) = try engine.drop(on: .list("done"), at: .noRow) else {
        Issue.record("Done refused a move")
        return
    }
    #expect(result.proposal.operation == .move)
    #expect(result.placements.map(\.destination) == [.row(IndexPath(row: 0))])
    engine.end()
}

// MARK: - Testing your delegate: through the server

extension BoardKit {
    /// The example's kinds, seeded with a row whose id the tests know.
    static let todoForTests = BoardKit(lists: [TodoList(), DoneList()], seed: BoardSeed(lists: [
        (ListRecord(id: "todo", title: "To do", kind: "todo", position: 0), [NewItem(id: "milk", kind: "text", title: "Buy milk")]),
        (ListRecord(id: "done", title: "Done", kind: "done", position: 1), []),
    ]))
}

@Test func doneTakesMovesButNotCopies() async throws {
    let app = try await DragboardTestApp(kit: .todoForTests, templatesDirectory: "Templates")
    defer { app.stop() }

    let copying = try app.drag(["milk"], from: "todo")
    let copy = try copying.drop(on: "done", row: nil, copy: true)   // the copy modifier held
    #expect(copy.json?["operation"] as? String == "forbidden")
    #expect(copy.json?["reason"] as? String == "Done only takes moves")
    _ = try copying.end()

    let moving = try app.drag(["milk"], from: "todo")
    let move = try moving.drop(on: "done", row: nil)
    #expect(move.json?["operation"] as? String == "move")
    #expect(move.json?["message"] as? String == "Moved Buy milk from To do to Done.")
    _ = try moving.end()
}

@Test func theUndoSnippetTakesBackAMoveAndDoesItAgain() async throws {
    let app = try await DragboardTestApp(kit: .todoForTests, templatesDirectory: "Templates")
    defer { app.stop() }
    let drag = try app.drag(["milk"], from: "todo")
    _ = try drag.drop(on: "done", row: nil)
    _ = try drag.end()
    let history = app.service.undoManager(forBrowser: app.csrf, board: "demo")   // the test browser's
    #expect(history.undoActionName.hasPrefix("Move Buy milk"))
    try undoTheNewestChange(board: app.service, browserID: app.csrf)
    #expect(history.canUndo && !history.canRedo)   // undone, then redone
}

@Test func viewersHearOfAMove() async throws {
    let app = try await DragboardTestApp(kit: .todoForTests, templatesDirectory: "Templates", transport: .live)
    defer { app.stop() }
    let viewer = try app.events(board: "demo")                 // hello, then every change
    let drag = try app.drag(["milk"], from: "todo")
    let drop = try drag.drop(on: "done", row: nil)             // the server's answer: operation, changes, words
    _ = try drag.end()
    let change = try viewer.next(named: "changes")             // what every other viewer got
    #expect(change.json?["version"] as? Int == drop.json?["version"] as? Int)
}
