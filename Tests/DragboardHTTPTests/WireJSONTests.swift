import DragAndDrop
import DragboardTesting
@testable import DragboardStore
import Foundation
import JSONWriting
import MicroHTTP
import Testing
@testable import Dragboard
@testable import DragboardHTTP
@testable import dragboard_example

/// The answers of begin, target, drop and end, live changes, and the answers of edits and undo
/// have one encoding each, written by hand (``JSONWritable``): whatever their strings hold, what
/// is written decodes back to the same value.
@Suite struct WireJSONTests {
    static let hostile = [
        "", "Plain title", #"quote " and \ backslash"#, "/slash </script> //", "a\u{0}b\u{1F}c\u{7F}", "tab\there\nnew\r\n\u{8}\u{C}",
        "\u{2028}\u{2029}", "é 🐈 👩‍👩‍👧 e\u{301}", "日本語", #"{"key":[1,2]}"#,
    ]

    /// The written JSON decodes to the value written: no field lost, renamed or mangled (a nil
    /// optional is left out, and reads back as nil).
    private static func expectSame<T: Decodable & Equatable & JSONWritable>(_ value: T, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(try JSONDecoder().decode(T.self, from: Data(value.jsonBytes)) == value, sourceLocation: sourceLocation)
    }

    private static func proposal(_ op: DropOperation, _ intent: DropProposal.Intent, reason: String? = nil) -> BoardAPI.Proposal {
        BoardAPI.Proposal(DropProposal(operation: op, intent: intent, reason: reason))
    }

    private static func table(_ title: String) throws -> BoardAPI.Table {
        var table = try JSONDecoder().decode(BoardAPI.Table.self, from: Data(#"{"targets":[],"zones":{"bottom":0.75,"top":0.25}}"#.utf8))
        let runs = [BoardAPI.Run(start: 0, count: 3, proposal: proposal(.move, .insertAtDestinationIndexPath)),
                    BoardAPI.Run(start: 3, count: 1, proposal: proposal(.forbidden, .insertIntoDestinationIndexPath, reason: title))]
        table.targets = [
            BoardAPI.TargetTable(target: .init(.list("list-1")), handled: true, runs: runs, noRow: proposal(.move, .unspecified),
                                 copy: BoardAPI.Variant(runs: runs, noRow: proposal(.copy, .unspecified)), name: title, menu: "Move to \(title)"),
            BoardAPI.TargetTable(target: .init(.zone("z")), handled: false, runs: [], noRow: proposal(.cancel, .unspecified, reason: title)),
        ]
        table.zones.top = 0.2
        table.zones.bottom = 0.8
        return table
    }

    @Test(arguments: hostile) func aBeginAnswer(title: String) throws {
        var begin = BoardAPI.BeginResponse(token: "0123456789abcdef0123456789abcdef", version: 41, count: 2, allowsMove: true, restricted: false,
                                           table: try Self.table(title), announcement: "Picked up \(title)")
        try Self.expectSame(begin)
        begin.nowhere = title
        begin.uploads = BoardAPI.Uploads(types: ["image/png", title], maxBytes: 8_000_000)
        begin.announcement = nil
        begin.table.targets = []
        try Self.expectSame(begin)
    }

    @Test(arguments: hostile) func aDropAnswer(title: String) throws {
        let changes: [BoardAPI.Change] = [.init(kind: .remove, item: "a"), .init(kind: .insert, item: "b", list: title, after: "c", html: "<li>\(title)</li>"),
                                          .init(kind: .insert, item: "d", list: "l"), .init(kind: .zone, item: title, html: "")]
        try Self.expectSame(BoardAPI.DropResponse(operation: .move, intent: "insertAtDestinationIndexPath", reason: nil, message: "Moved \(title).",
                                                   target: .init(.list("list_2")), version: 7, changes: changes, counts: [title: 3, "b": 0, "a": 12]))
        try Self.expectSame(BoardAPI.DropResponse(operation: .forbidden, intent: nil, reason: title, message: title, target: .init(.zone("x")),
                                                   version: 0, changes: [], counts: [:]))
        try Self.expectSame(BoardAPI.LiveChanges(version: 3, changes: changes, counts: nil))
    }

    @Test(arguments: hostile) func targetAndEndAnswers(title: String) throws {
        try Self.expectSame(BoardAPI.TargetResponse(handled: false))
        try Self.expectSame(BoardAPI.TargetResponse(handled: true, proposal: Self.proposal(.copy, .insertIntoDestinationIndexPath, reason: title),
                                                     destination: 4, announcement: title))
        try Self.expectSame(BoardAPI.EndResponse(operation: .cancel, target: nil, version: 2, announcement: title))
        try Self.expectSame(BoardAPI.EndResponse(operation: .move, target: .init(.list("todo")), version: 12))
    }

    @Test(arguments: hostile) func undoStates(title: String) throws {
        try Self.expectSame(UndoState())
        try Self.expectSame(UndoState(undoActionName: "Move \(title)"))
        try Self.expectSame(UndoState(undoActionName: "Move \(title)", redoActionName: title))
    }

    @Test(arguments: hostile) func editAndUndoAnswers(title: String) throws {
        let changes: [BoardAPI.Change] = [.init(kind: .title, item: "b", html: title), .init(kind: .gone, item: title)]
        try Self.expectSame(BoardService.EditResponse(version: 4, changes: changes, message: "Renamed \(title).", location: "/boards/\(title)",
                                                      counts: [title: 1]))
        try Self.expectSame(BoardService.EditResponse(version: 0, changes: [], message: "Nothing changed.", location: "/"))
        try Self.expectSame(BoardService.UndoResponse(version: 9, changes: changes, message: "Undid “\(title)”.", board: "demo", action: title,
                                                      undo: UndoState(redoActionName: title), counts: nil))
    }

    /// A drop's fingerprint is hashed into its operation record: these are the bytes `JSONEncoder`
    /// (`.sortedKeys`, slashes unescaped) made before the request was written by hand, so a retry of
    /// a drop recorded by an earlier server still answers its record.
    @Test func aDropRequestsFingerprintKeepsItsBytes() throws {
        let token = "0123456789abcdef0123456789abcdef"
        let requests = [
            BoardAPI.DropRequest(op: "op-1", version: 3, target: .init(.list("todo")), location: nil),
            BoardAPI.DropRequest(op: "op-2", version: -1, target: .init(.zone("label")), location: .init(row: 2, fraction: 0.3, item: "item-9"),
                                 shown: .copy, copy: true, data: [["text/plain", "Buy milk </b>"], [], ["x"]], files: [nil, "é.png", "f"]),
            BoardAPI.DropRequest(op: "op", version: 0, target: .init(.list("l")), location: .init(row: 0, fraction: 0.1 + 0.2, item: nil)),
            BoardAPI.DropRequest(op: "op", version: 0, target: .init(.list("l")), location: .init(row: 0, fraction: 1e-7, item: nil)),
        ]
        let recorded = [
            #"{"request":{"op":"op-1","target":{"list":"todo"},"version":3},"token":"0123456789abcdef0123456789abcdef"}"#,
            #"{"request":{"copy":true,"data":[["text/plain","Buy milk </b>"],[],["x"]],"files":[null,"é.png","f"],"location":{"fraction":0.3,"item":"item-9","row":2},"op":"op-2","shown":"copy","target":{"zone":"label"},"version":-1},"token":"0123456789abcdef0123456789abcdef"}"#,
            #"{"request":{"location":{"fraction":0.30000000000000004,"row":0},"op":"op","target":{"list":"l"},"version":0},"token":"0123456789abcdef0123456789abcdef"}"#,
            #"{"request":{"location":{"fraction":1e-07,"row":0},"op":"op","target":{"list":"l"},"version":0},"token":"0123456789abcdef0123456789abcdef"}"#,
        ]
        #expect(requests.map { BoardService.Fingerprint(token: token, request: $0).jsonString } == recorded)
    }

    /// Dropped text holds no control characters (the decoder refuses them, as it must).
    static let droppable = hostile.filter { !$0.unicodeScalars.contains { $0.value < 0x20 } }

    @Test(arguments: droppable) func aDropRequestReadsBackAsItWasWritten(title: String) throws {
        // Ids (operations, targets, rows, uploaded files) have a grammar the decoder checks; dropped data is free text.
        try Self.expectSame(BoardAPI.DropRequest(op: "op-12345", version: -1, target: .init(.zone("label")), location: .init(row: 2, fraction: 0.3, item: "item-9"),
                                                 shown: .copy, copy: true, data: [["text/plain", title], ["text/uri-list", "https://example.com/\\(title)"]], files: [nil, "upload-1", "f"]))
    }

    /// The answers of a real drag on a real board, begun through the service.
    @Test func theAnswersOfARealDrag() async throws {
        let board = try await TestBoard(kit: .todo, transport: .live)
        defer { board.remove() }
        let rows = try board.service.store.rows(in: "todo")
        let token = DragSessions.randomToken()
        let begin = try board.service.begin(.init(token: token, list: "todo", items: [rows[0].id, rows[1].id]), owner: board.app.csrf)
        #expect(!begin.table.targets.isEmpty)
        try Self.expectSame(begin)
        let request = BoardAPI.TargetRequest(target: BoardAPI.Target(.list("done")), location: BoardAPI.Location(row: nil, fraction: nil, item: nil))
        let target = try board.service.target(token, request, owner: board.app.csrf)
        try Self.expectSame(target)
        try Self.expectSame(try board.service.end(token, owner: board.app.csrf))
    }
}
