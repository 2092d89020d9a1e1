import Foundation
import Testing
@testable import Dragboard

/// A Trello board export (written by hand from Trello's documented format: closed lists and cards,
/// checklists, labels of Trello's colours, attachments, members) read into the board to create.
@Suite struct TrelloImportTests {
    static let fixture: [UInt8] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("fixtures/trello-board.json")
        return Array((try? Data(contentsOf: url)) ?? Data())
    }()

    @Test func openListsAndCardsComeInTrellosOrderWithTheirDetails() throws {
        let board = try BoardImport(trello: Self.fixture)
        #expect(board.title == "Garden — spring")
        #expect(board.color == .green)
        #expect(board.lists.map(\.title) == ["To do", "Doing", "Done"])
        #expect(board.lists.allSatisfy { $0.kind == CardsList.id })
        #expect(board.lists[0].cards.map(\.title) == ["Fix the shed roof", "Buy seeds"])
        #expect(board.skipped == ["label over the board's 50": 0, "archived list": 1, "archived card": 1, "card of an archived list": 1])
        #expect(board.members == ["ada", "zed"])

        let seeds = CardDetails.of(payload: board.lists[0].cards[1].payload)
        #expect(seeds.description == "Tomatoes, basil\nand **peas**\n\nAttachments:\n- Seed catalogue: https://example.com/seeds.pdf")
        #expect(seeds.due == "2027-03-14")
        #expect(seeds.checklist.map(\.title) == ["Tomatoes", "Basil"])
        #expect(seeds.checklist.map(\.done) == [true, false])
        let names = Dictionary(uniqueKeysWithValues: board.labels.map { ($0.id, $0.name) })
        #expect(seeds.labels.compactMap { names[$0] } == ["Easy", "Water"])

        // Two checklists in their order; a label without a name is named by its colour.
        let dig = CardDetails.of(payload: board.lists[1].cards[0].payload)
        #expect(dig.checklist.map(\.title) == ["Spade", "Rake"])
        #expect(dig.labels.compactMap { names[$0] } == ["Purple", "Someday"])
        #expect(board.labels.map(\.color) == [.green, .red, .teal, .purple, .grey])
        #expect(CardDetails.of(payload: board.lists[2].cards[0].payload).due == "2026-10-01")
    }

    @Test func theSummarySaysWhatWasImportedAndSkipped() throws {
        let board = try BoardImport(trello: Self.fixture)
        #expect(board.summary == "Imported 3 lists and 4 cards into “Garden — spring”; skipped 1 archived card, 1 archived list, 1 card of an archived list.")
    }

    @Test(arguments: [
        ("[]", "unexpected shape"),
        (#"{"lists": 7}"#, "unexpected shape at .lists"),
        ("{\"cards\": [{\"id\": 1}]}", "unexpected shape at .cards[0]"),
        ("not json", "not valid JSON"),
        (String(repeating: "[", count: 100_000), "nests deeper than 64 levels"),
    ])
    func aFileThatIsNotAnExportIsRefusedWithWords(text: String, words: String) {
        #expect {
            _ = try BoardImport(trello: Array(text.utf8))
        } throws: { error in
            (error as? DragboardError)?.description.contains(words) == true
        }
    }

    @Test func tooBigOrTooManyIsRefused() throws {
        #expect(throws: DragboardError.self) { _ = try BoardImport(trello: Array(repeating: UInt8(ascii: " "), count: BoardImport.maximumBytes + 1)) }
        let cards = (0...BoardImport.maximumCards).map { #"{"id":"c\#($0)","name":"x","idList":"l"}"# }.joined(separator: ",")
        let many = #"{"name":"Big","lists":[{"id":"l","name":"L","pos":1}],"cards":[\#(cards)]}"#
        #expect {
            _ = try BoardImport(trello: Array(many.utf8))
        } throws: { error in
            (error as? DragboardError)?.description.contains("an import takes at most 20000") == true
        }
    }

    @Test func hostileTextIsCleanedNotStoredAsIs() throws {
        let file = #"{"name":"A\u0000B\nC","lists":[{"id":"l","name":"\u202Eevil\u0007","pos":1}],"cards":[{"id":"c","name":"","desc":"x\u0000y","idList":"l","due":"not a date"}]}"#
        let board = try BoardImport(trello: Array(file.utf8))
        #expect(board.title == "AB C")
        #expect(board.lists[0].title == "\u{202E}evil")
        #expect(board.lists[0].cards[0].title == "Untitled")
        #expect(CardDetails.of(payload: board.lists[0].cards[0].payload) == CardDetails(description: "xy"))
    }
}
