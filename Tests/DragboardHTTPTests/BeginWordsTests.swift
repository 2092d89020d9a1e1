import DragAndDrop
@testable import DragboardStore
import Foundation
import JSONWriting
import Testing
@testable import Dragboard
@testable import DragboardHTTP
import Showcase

/// A drag start reads its answer's words (target names, menus, pick-up words) in the read that
/// finds the rows; they must be the words a read of their own gives.
@Suite struct BeginWordsTests {
    @Test(arguments: [("cat-1", 1), ("people", 0), ("places", 2), ("toy-boxes", 0), ("box-green", 1)])
    func theWordsAreThoseOfTheirOwnRead(list: String, index: Int) async throws {
        let board = try await TestBoard()
        let rows = list.hasPrefix("box-") ? try board.store.contents(of: list).map(\.id) : try board.ids(list)
        let request = BoardAPI.BeginRequest(token: TestBoard.token(), list: list, items: [rows[index]])
        let answer = try board.service.begin(request, owner: board.csrf)
        #expect(answer.announcement?.isEmpty == false)
        var unnamed = answer
        unnamed.announcement = nil
        unnamed.nowhere = nil
        for target in unnamed.table.targets.indices {
            unnamed.table.targets[target].name = nil
            unnamed.table.targets[target].menu = nil
        }
        let named = try board.service.announced(unnamed, request: request, board: BoardStore.defaultBoardID)
        #expect(named.jsonString == answer.jsonString)
        if list == "cat-1" {
            // Container targets are named by their box.
            #expect(answer.table.targets.contains { $0.target.list == "box-red" && $0.name?.isEmpty == false })
        }
    }
}
