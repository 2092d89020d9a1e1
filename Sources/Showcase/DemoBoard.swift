import Dragboard

/// The showcase board seeded into a fresh database: it plays the scenarios of UIKit's guides.
/// Its list and row kinds are the strings the first versions stored, so older databases open
/// with every row of kind they knew.
enum DemoBoard {
    static func toy(_ title: String, id: String? = nil) -> NewItem { NewItem(id: id, kind: ToyItem.id, title: title) }

    /// What a new database starts with.
    static let seed = BoardSeed(lists: [
            (ListRecord(id: "cat-1", title: "Whiskers", kind: CatList.id, position: 0),
             [toy("Ball of yarn"), toy("Feather wand"), toy("Catnip mouse")]),
            (ListRecord(id: "cat-2", title: "Tom", kind: CatList.id, position: 1),
             [toy("Laser pointer"), toy("Bell ball")]),
            (ListRecord(id: "cat-3", title: "Luna", kind: CatList.id, position: 2),
             [toy("Crinkle tunnel"), toy("Scratching post")]),
            (ListRecord(id: "places", title: "Places", kind: PlacesList().id, position: 3),
             ["Paris", "Lisbon", "Oslo", "Kyoto", "Reykjavík"].map { NewItem(kind: "place", title: $0) }),
            (ListRecord(id: "people", title: "People", kind: PeopleList().id, position: 4),
             [("Ada Lovelace", 36), ("Alan Turing", 41), ("Grace Hopper", 85)].map {
                 NewItem(kind: PersonItem.id, title: $0.0, payload: BoardItem.payload(ShowcasePayload(age: $0.1)))
             }),
            (ListRecord(id: "toy-boxes", title: "Toy boxes", kind: ToyBoxesList().id, position: 5),
             [("box-red", "Red box"), ("box-blue", "Blue box"), ("box-green", "Green box")].map {
                 NewItem(id: $0.0, kind: BoxItem.id, title: $0.1)
             }),
        ], containers: [
            "box-red": [toy("Rubber duck")],
            "box-green": [toy("Spinning top"), toy("Marble")],
        ])
}
