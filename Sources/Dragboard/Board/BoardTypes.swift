import DragAndDrop

/// The custom types of the demo board and the registry that knows them.
public enum BoardTypes {
    /// A cat's toy: `{"title": …}`.
    public static let toy: TypeIdentifier = "com.dragboard.toy"
    /// A person: `{"name": …, "age": …}`.
    public static let person: TypeIdentifier = "com.dragboard.person"
    /// A toy box (a container row).
    public static let box: TypeIdentifier = "com.dragboard.box"
    /// The server's own reference to an item; never leaves the server.
    public static let itemReference: TypeIdentifier = "com.dragboard.item"

    public static let registry = TypeRegistry.standard
        .declaring(toy, conformingTo: [.data], mimeType: "application/x-dragboard-toy+json")
        .declaring(person, conformingTo: [.data], mimeType: "application/x-dragboard-person+json")
        .declaring(box, conformingTo: [.data], mimeType: "application/x-dragboard-box+json")
        .declaring(itemReference, conformingTo: [.data])
}

/// What a row is.
public enum ItemKind: String, Sendable, Codable, CaseIterable {
    case toy, place, person, box, text, link
}

/// What a list is, which decides its drop delegate.
public enum ListKind: String, Sendable, Codable {
    case cat, places, people, toyBoxes = "toy-boxes"
}
