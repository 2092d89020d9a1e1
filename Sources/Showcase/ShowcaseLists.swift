import DragAndDrop
import Dragboard

/// A cat's list of toys; the list's title is the cat's name.
struct CatList: ListKind {
    static let id = "cat"
    var id: String { Self.id }
    var title: String { "Cat" }

    func dropDelegate(for list: BoardList) -> any ListDropDelegate { CatDropDelegate(name: list.title) }
}

/// Apple's table-view sample: places.
struct PlacesList: ListKind {
    var id: String { "places" }
    var title: String { "Places" }

    func dropDelegate(for list: BoardList) -> any ListDropDelegate { PlacesDropDelegate() }
}

/// People, dragged as the person type.
struct PeopleList: ListKind {
    var id: String { "people" }
    var title: String { "People" }

    func dropDelegate(for list: BoardList) -> any ListDropDelegate { PeopleDropDelegate() }
}

/// Toy boxes, which take toys into them: the delegate decides by row, so it reads the rows.
struct ToyBoxesList: ListKind {
    var id: String { "toy-boxes" }
    var title: String { "Toy boxes" }
    var dropDelegateReadsRows: Bool { true }

    func dropDelegate(for list: BoardList) -> any ListDropDelegate { ToyBoxesDropDelegate(rows: list.rows ?? []) }
}
