import Testing
@testable import Dragboard

/// What a person may do on a board, and the words when they may not.
@Suite struct BoardAccessTests {
    let bob = Account(id: "b", name: "bob", isAdmin: false)

    func access(_ role: BoardRole, board: String = "demo", title: String = "Demo") -> BoardAccess {
        BoardAccess(account: bob, role: role, boardID: board, boardTitle: title)
    }

    @Test func aViewerMayNotDropAndIsToldWhy() {
        let viewer = access(.viewer)
        #expect(viewer.dragUser(from: viewer)?.refusal == "You can view this board but not change it.")
        #expect(throws: DragboardError.forbidden("You can view this board but not change it.")) { try viewer.requireEditor() }
        #expect(access(.editor).dragUser(from: access(.editor))?.refusal == nil)
        #expect(throws: DragboardError.self) { try access(.editor).requireOwner() }
    }

    @Test func acrossBoardsAnEditorOnBothOrTheRefusalNamesTheBoard() {
        let ideas = access(.viewer, board: "ideas", title: "Ideas")
        #expect(access(.editor).dragUser(from: ideas)?.refusal == "You can view “Ideas” but not change it.")
        #expect(ideas.dragUser(from: access(.editor))?.refusal == "You can view “Ideas” but not change it.")
        #expect(access(.owner).dragUser(from: access(.editor, board: "ideas"))?.refusal == nil)
        // From another app only the destination counts.
        #expect(access(.editor).dragUser(from: nil)?.refusal == nil)
    }

    @Test func nobodySignsInNobodyIsRefused() {
        #expect(BoardAccess(account: nil, role: .owner, boardID: "demo", boardTitle: "Demo").dragUser(from: nil) == nil)
    }

    @Test func activityTellsAChangeByItsAuthor() {
        #expect(Activity.words(of: "alice", "Moved “Card 7” to Done.") == "alice moved “Card 7” to Done")
        #expect(Activity.words(of: "bob", "Renamed the list To do to Doing.") == "bob renamed the list To do to Doing")
        #expect(Activity.words(of: "bob", "UI tweaks landed") == "bob UI tweaks landed")
        #expect(Activity.words(of: "carol", " \t\u{00A0}Moved “Card 7” to Done.\u{3000} ") == "carol moved “Card 7” to Done")
        #expect(Activity.words(of: "dan", " \t ") == "dan")
    }

    @Test func namesAndPasswordsFollowTheRules() {
        #expect(Account.nameProblem("alice.b_-9") == nil)
        #expect(Account.nameProblem("") != nil && Account.nameProblem(String(repeating: "a", count: 65)) != nil)
        #expect(Account.nameProblem("álice") != nil && Account.nameProblem("a b") != nil)
        #expect(Account.passwordProblem("1234567") != nil && Account.passwordProblem("12345678") == nil)
        #expect(Account.passwordProblem(String(repeating: "x", count: 1025)) != nil)
    }
}
