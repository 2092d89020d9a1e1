/// The demo board seeded into a fresh database: it plays the scenarios of UIKit's guides.
public enum DemoBoard {
    static func toy(_ title: String, id: String? = nil) -> NewItem { NewItem(id: id, kind: ItemKind.toy.rawValue, title: title) }

    /// Seeds the board unless the database already has lists.
    public static func seed(_ store: BoardStore) throws {
        let lists: [(ListRecord, [NewItem])] = [
            (ListRecord(id: "cat-1", title: "Whiskers", kind: ListKind.cat.rawValue, position: 0),
             [toy("Ball of yarn"), toy("Feather wand"), toy("Catnip mouse")]),
            (ListRecord(id: "cat-2", title: "Tom", kind: ListKind.cat.rawValue, position: 1),
             [toy("Laser pointer"), toy("Bell ball")]),
            (ListRecord(id: "cat-3", title: "Luna", kind: ListKind.cat.rawValue, position: 2),
             [toy("Crinkle tunnel"), toy("Scratching post")]),
            (ListRecord(id: "places", title: "Places", kind: ListKind.places.rawValue, position: 3),
             ["Paris", "Lisbon", "Oslo", "Kyoto", "Reykjavík"].map { NewItem(kind: ItemKind.place.rawValue, title: $0) }),
            (ListRecord(id: "people", title: "People", kind: ListKind.people.rawValue, position: 4),
             [("Ada Lovelace", 36), ("Alan Turing", 41), ("Grace Hopper", 85)].map {
                 NewItem(kind: ItemKind.person.rawValue, title: $0.0, payload: BoardItem.payload(age: $0.1))
             }),
            (ListRecord(id: "toy-boxes", title: "Toy boxes", kind: ListKind.toyBoxes.rawValue, position: 5),
             [("box-red", "Red box"), ("box-blue", "Blue box"), ("box-green", "Green box")].map {
                 NewItem(id: $0.0, kind: ItemKind.box.rawValue, title: $0.1)
             }),
        ]
        try store.seedIfEmpty(lists, containers: [
            "box-red": [toy("Rubber duck")],
            "box-green": [toy("Spinning top"), toy("Marble")],
        ])
    }
}
