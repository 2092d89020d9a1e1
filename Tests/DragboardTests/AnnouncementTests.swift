import DragAndDrop
import Testing
@testable import Dragboard

/// The sentences a screen reader hears, composed from titles and the engine's proposals.
@Suite struct AnnouncementTests {
    @Test func pickUpNamesTheRowItsPlaceAndItsList() {
        #expect(Announcement.pickedUp(["Mug"], position: 1, of: 3, in: "Kitchen") == "Picked up Mug, 1 of 3 in Kitchen.")
        #expect(Announcement.pickedUp(["Mug", "Cup"], position: 1, of: 3, in: "Kitchen") == "Picked up 2 items, Mug and Cup, from Kitchen.")
        #expect(Announcement.pickedUp(["A", "B", "C"], position: 1, of: 3, in: "Kitchen") == "Picked up 3 items from Kitchen.")
    }

    @Test func aTargetSaysThePlaceAndTheOperationOrTheRefusalWithItsReason() {
        #expect(Announcement.target("Shelf", proposal: DropProposal(operation: .move, intent: .insertAtDestinationIndexPath), position: 2, of: 3, into: nil)
            == "Shelf, position 2 of 3: move.")
        #expect(Announcement.target("Shelf", proposal: DropProposal(operation: .copy, intent: .insertIntoDestinationIndexPath), position: 2, of: 3, into: "Jar")
            == "Shelf, into Jar: copy.")
        #expect(Announcement.target("Bin", proposal: DropProposal(operation: .copy), position: nil, of: 0, into: nil) == "Bin: copy.")
        #expect(Announcement.target("Shelf", proposal: .forbidden("the shelf is full"), position: 1, of: 1, into: nil)
            == "Shelf: not allowed, the shelf is full.")
        #expect(Announcement.target("Shelf", proposal: .cancel, position: 1, of: 1, into: nil) == "Shelf: cannot drop here.")
    }

    @Test func aCancelSaysWhereTheRowsStay() {
        #expect(Announcement.cancelled(["Mug"], in: "Kitchen") == "Cancelled. Mug stays in Kitchen.")
        #expect(Announcement.cancelled(["Mug", "Cup"], in: "Kitchen") == "Cancelled. Mug and Cup stay in Kitchen.")
        #expect(Announcement.destination("Shelf", operation: .copy) == "Copy to Shelf")
        #expect(Announcement.nowhere(["Mug"]) == "Nothing on this board takes Mug.")
    }
}
