@testable import DragboardStore
import Foundation
import GRDB
import Testing
@testable import Dragboard

/// Several boards in one store: each its own lists and version, ids of another board unknown,
/// and a database written before boards existed opened as the default board.
@Suite struct BoardsStoreTests {
    @Test func aFileWrittenBeforeBoardsOpensAsTheDefaultBoardWithEveryRowWhereItWas() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dragboard-v2-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("board.sqlite").path
        // Exactly what the version before boards wrote: its schema, its single board row `main`.
        do {
            let queue = try DatabaseQueue(path: path)
            try BoardStore.migrator.migrate(queue, upTo: "v2-zones")
            try queue.write { db in
                try db.execute(sql: """
                    UPDATE board SET version = 7 WHERE id = 'main';
                    INSERT INTO list (id, title, kind, position) VALUES ('todo', 'To do', 'cards', 0), ('done', 'Done', 'cards', 1);
                    INSERT INTO item (id, listID, containerID, pos, kind, title, payload, changedVersion) VALUES
                      ('a', 'todo', NULL, 'b', 'text', 'Alpha', '{}', 3),
                      ('b', 'todo', NULL, 'a', 'text', 'Beta', '{}', 5),
                      ('c', 'done', NULL, 'm', 'text', 'Gamma', '{}', 7);
                    INSERT INTO zoneLabel (zoneID, text) VALUES ('label', 'Kept');
                    """)
            }
        }
        let store = try BoardStore(path: path)
        #expect(try store.boards().map(\.id) == [BoardStore.defaultBoardID])
        #expect(try store.board(BoardStore.defaultBoardID)?.title == BoardStore.defaultBoardTitle)
        #expect(try store.version() == 7)
        #expect(try store.lists().map(\.id) == ["todo", "done"])
        #expect(try store.rows(in: "todo").map(\.id) == ["b", "a"])
        #expect(try store.rows(in: "done").map(\.title) == ["Gamma"])
        #expect(try store.read { try $0.label("label") } == "Kept")
        // And it keeps working: the next change is version 8 of the default board.
        let moved = try store.perform(operationID: "op-1", fingerprint: "f") { tx in
            try tx.move(["a"], to: Placement(listID: "done", index: 0)); return "{}"
        }
        #expect(moved.version == 8)
    }

    @Test func boardsKeepTheirOwnListsAndVersionsAndRefuseEachOthersIDs() throws {
        let temp = try TempStore()
        defer { temp.remove() }
        let store = temp.store
        let demoVersion = try store.version()
        let created = try store.createBoard(id: "b2", title: "Second", operationID: "create-b2", fingerprint: "c") { tx in
            _ = try tx.addList(ListRecord(id: "ideas", title: "Ideas", kind: "people", position: 0))
            try tx.insert([NewItem(id: "i1", kind: "person", title: "One")], at: Placement(listID: "ideas"))
            return "{}"
        }
        #expect(created.version == 1)
        #expect(try store.version() == demoVersion)
        #expect(try store.lists(board: "b2").map(\.id) == ["ideas"])
        #expect(!(try store.lists().map(\.id)).contains("ideas"))
        #expect(throws: StoreError.unknownList("people")) { try store.rows(in: "people", board: "b2") }
        #expect(throws: StoreError.unknownList("people")) {
            try store.perform(board: "b2", operationID: "x", fingerprint: "f") { tx in try tx.insert([NewItem(kind: "t", title: "T")], at: Placement(listID: "people")); return "" }
        }
        #expect(throws: StoreError.unknownBoard("nope")) { try store.version(board: "nope") }
        // Retrying the creation creates nothing new.
        let retried = try store.createBoard(id: "b3", title: "Second", operationID: "create-b2", fingerprint: "c") { _ in "{}" }
        #expect(retried.replayed && retried.response == created.response)
        #expect(try store.boards().map(\.id) == ["b2", BoardStore.defaultBoardID])
    }

    @Test func aMoveAcrossBoardsAdvancesBothBoardsAndNamesWhatLeft() throws {
        let temp = try TempStore()
        defer { temp.remove() }
        let store = temp.store
        _ = try store.createBoard(id: "b2", title: "Second", operationID: "create", fingerprint: "c") { tx in
            _ = try tx.addList(ListRecord(id: "ideas", title: "Ideas", kind: "people", position: 0)); return "{}"
        }
        let demoBefore = try store.version()
        let result = try store.perform(board: "b2", operationID: "move", fingerprint: "m") { tx in
            try tx.move(["a", "b"], to: Placement(listID: "ideas")); return "{}"
        }
        #expect(result.version == 2)
        #expect(result.departures == [.init(board: BoardStore.defaultBoardID, version: demoBefore + 1, items: ["a", "b"])])
        #expect(try store.version() == demoBefore + 1)
        #expect(try store.rows(in: "ideas", board: "b2").map(\.id) == ["a", "b"])
        #expect(try temp.ids("people") == ["c", "d", "e"])
    }

    @Test func deletingABoardTakesItsListsAndRowsAndNothingElse() throws {
        let temp = try TempStore()
        defer { temp.remove() }
        let store = temp.store
        _ = try store.createBoard(id: "b2", title: "Second", operationID: "create", fingerprint: "c") { tx in
            _ = try tx.addList(ListRecord(id: "ideas", title: "Ideas", kind: "people", position: 0))
            try tx.insert([NewItem(id: "i1", kind: "person", title: "One")], at: Placement(listID: "ideas"))
            return "{}"
        }
        _ = try store.perform(board: "b2", operationID: "delete", fingerprint: "d") { tx in try tx.deleteBoard(); return "{}" }
        #expect(try store.board("b2") == nil)
        #expect(throws: StoreError.unknownItem("i1")) { try store.items(["i1"]) }
        #expect(try temp.ids("people") == ["a", "b", "c", "d", "e"])
    }

    @Test func anImageIsForgottenOnlyWhenNoRowShowsItAnyMore() throws {
        let temp = try TempStore()
        defer { temp.remove() }
        let store = temp.store
        try temp.op { tx in
            try tx.addImage(ZoneImageRecord(id: "img1", zoneID: "_lists", name: "a.png", mimeType: "image/png", size: 10))
            try tx.insert([NewItem(id: "p1", kind: "card-image", title: "A", payload: #"{"image":"img1"}"#)], at: Placement(listID: "empty"))
            _ = try tx.copy(["p1"], to: Placement(listID: "empty"))
        }
        let first = try store.perform(operationID: "d1", fingerprint: "f") { tx in
            try tx.delete(["p1"])
            return try tx.forgetUnshownImages(["img1"], zoneID: "_lists").joined()
        }
        #expect(first.response == "")   // the copy still shows it
        #expect(try store.read { try $0.image("img1") } != nil)
        let copy = try temp.ids("empty")[0]
        let second = try store.perform(operationID: "d2", fingerprint: "f") { tx in
            try tx.delete([copy])
            return try tx.forgetUnshownImages(["img1"], zoneID: "_lists").joined()
        }
        #expect(second.response == "img1")
        #expect(try store.read { try $0.image("img1") } == nil)
    }
}
