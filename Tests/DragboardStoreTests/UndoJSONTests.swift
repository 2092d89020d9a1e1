@testable import DragboardStore
import Foundation
import Testing
@testable import Dragboard

/// A drop's undo entry is written by hand (``UndoChange/encoded(_:)``); the history reads it with
/// `JSONDecoder`, so it must decode to exactly the changes, whatever the rows hold.
@Suite struct UndoJSONTests {
    static let hostile = ["", "Plain", #"quote " and \ backslash"#, "a\u{0}b\u{1F}\n\t", "\u{2028}/</script>", "é 🐈 👩‍👩‍👧", #"{"age":34}"#]

    private static func state(_ text: String, container: String? = nil, previous: String? = nil, next: String? = nil, version: Int = 3) -> UndoItemState {
        UndoItemState(record: ItemRecord(id: "item-1", listID: "list_1", containerID: container, pos: "a0" + text, kind: "toy", title: text,
                                         payload: #"{"note":"\#(text.debugDescription)"}"#, changedVersion: version),
                      previous: previous, next: next)
    }

    @Test(arguments: hostile) func rowChangesDecodeToThemselves(text: String) throws {
        let changes: [UndoChange] = [
            .item(before: Self.state(text, previous: "p", next: text), after: Self.state(text, container: "box", version: -1)),
            .item(before: nil, after: Self.state(text, next: "n", version: 0)),
            .item(before: Self.state(text), after: nil),
            .item(before: nil, after: nil),
        ]
        let encoded = try UndoChange.encoded(changes)
        #expect(try JSONDecoder().decode([UndoChange].self, from: Data(encoded.utf8)) == changes)
        #expect(try UndoChange.encoded([]) == "[]")
    }

    @Test(arguments: hostile) func otherChangesGoThroughTheEncoder(text: String) throws {
        let changes: [UndoChange] = [
            .item(before: nil, after: Self.state(text)),
            .list(before: nil, after: UndoListState(record: ListRecord(id: "l", title: text, kind: "cat", position: 2), board: "demo", previous: nil, next: "m")),
            .label(zoneID: "z", before: text, after: nil),
        ]
        let encoded = try UndoChange.encoded(changes)
        #expect(try JSONDecoder().decode([UndoChange].self, from: Data(encoded.utf8)) == changes)
    }
}
