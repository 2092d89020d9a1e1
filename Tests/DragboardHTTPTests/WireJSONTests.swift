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

/// The answers of begin, target, drop and end are written by hand (``JSONWritable``): each must be
/// the JSON `JSONEncoder` made of the same value, whatever its strings hold.
@Suite struct WireJSONTests {
    static let hostile = [
        "", "Plain title", #"quote " and \ backslash"#, "/slash </script> //", "a\u{0}b\u{1F}c\u{7F}", "tab\there\nnew\r\n\u{8}\u{C}",
        "\u{2028}\u{2029}", "é 🐈 👩‍👩‍👧 e\u{301}", "日本語", #"{"key":[1,2]}"#,
    ]

    private static func encoded(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value)
    }

    /// The hand-written JSON decodes to the same value, has the same keys everywhere (nil
    /// optionals left out alike) and, keys being written sorted, the very same bytes.
    private static func expectSame<T: Codable & JSONWritable>(_ value: T, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let hand = Data(value.jsonBytes)
        let reference = try encoded(value)
        #expect(try encoded(JSONDecoder().decode(T.self, from: hand)) == reference, sourceLocation: sourceLocation)
        #expect(tree(try JSONSerialization.jsonObject(with: hand, options: .fragmentsAllowed))
                == tree(try JSONSerialization.jsonObject(with: reference, options: .fragmentsAllowed)), sourceLocation: sourceLocation)
        #expect(String(decoding: hand, as: UTF8.self) == String(decoding: reference, as: UTF8.self), sourceLocation: sourceLocation)
    }

    /// A parsed JSON value as one comparable string: objects by sorted key, so only content counts.
    private static func tree(_ value: Any) -> String {
        switch value {
        case let object as [String: Any]: "{" + object.keys.sorted().map { "\($0.debugDescription):\(tree(object[$0]!))" }.joined(separator: ",") + "}"
        case let array as [Any]: "[" + array.map(tree).joined(separator: ",") + "]"
        case let text as String: text.debugDescription
        case is NSNull: "null"
        default: "\(value)"
        }
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

    /// A drop's fingerprint is the same bytes as before it was written by hand: a retry of a drop
    /// recorded by an earlier server still answers its record.
    @Test(arguments: hostile) func undoStates(title: String) throws {
        try Self.expectSame(UndoState())
        try Self.expectSame(UndoState(undoActionName: "Move \(title)"))
        try Self.expectSame(UndoState(undoActionName: "Move \(title)", redoActionName: title))
    }

    @Test(arguments: hostile) func aDropRequestsFingerprint(title: String) throws {
        let requests = [
            BoardAPI.DropRequest(op: "op-1", version: 3, target: .init(.list("todo")), location: nil),
            BoardAPI.DropRequest(op: title, version: -1, target: .init(.zone(title)), location: .init(row: 2, fraction: 0.3, item: title),
                                 shown: .copy, copy: true, data: [["text/plain", title], [], [title]], files: [nil, title, "f"]),
            BoardAPI.DropRequest(op: "op", version: 0, target: .init(.list("l")), location: .init(row: nil, fraction: nil, item: nil)),
            BoardAPI.DropRequest(op: "op", version: 0, target: .init(.list("l")), location: .init(row: 0, fraction: 1, item: nil)),
            BoardAPI.DropRequest(op: "op", version: 0, target: .init(.list("l")), location: .init(row: 0, fraction: 0.1 + 0.2, item: nil)),
            BoardAPI.DropRequest(op: "op", version: 0, target: .init(.list("l")), location: .init(row: 0, fraction: 1e-7, item: nil)),
        ]
        for request in requests {
            let fingerprint = BoardService.Fingerprint(token: title, request: request)
            #expect(fingerprint.jsonBytes == Array(try Self.encoded(fingerprint)))
        }
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
