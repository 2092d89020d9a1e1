import DragAndDrop
import Dragboard

/// The scenarios of UIKit's drag-and-drop guides, as kinds registered with the kit: cats
/// trading toys, the table-view sample's places, people dragged as a custom type, toy boxes
/// taking toys into them, an image well and a label — and the board a new database starts with.
public enum Showcase {
    /// The showcase board.
    public static let kit = BoardKit(
        lists: [CatList(), PlacesList(), PeopleList(), ToyBoxesList()],
        items: [ToyItem(), PersonItem(), BoxItem(), LinkItem()],
        zones: [ImageWell(), Label()],
        types: ShowcaseTypes.registry,
        groups: [BoardKit.Group(title: "Cats", listKinds: [CatList.id]), BoardKit.Group(title: "More lists")],
        seed: DemoBoard.seed
    )
}
