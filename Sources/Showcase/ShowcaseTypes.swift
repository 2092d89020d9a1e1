import DragAndDrop
import Dragboard

/// The custom types of the showcase's rows.
public enum ShowcaseTypes {
    /// A cat's toy: `{"title": …}`.
    public static let toy: TypeIdentifier = "com.dragboard.toy"
    /// A person: `{"name": …, "age": …}`.
    public static let person: TypeIdentifier = "com.dragboard.person"
    /// A toy box (a container row).
    public static let box: TypeIdentifier = "com.dragboard.box"

    /// The standard types and the showcase's own, with their MIME types for the browser.
    public static let registry = TypeRegistry.standard
        .declaring(toy, conformingTo: [.data], mimeType: "application/x-dragboard-toy+json")
        .declaring(person, conformingTo: [.data], mimeType: "application/x-dragboard-person+json")
        .declaring(box, conformingTo: [.data], mimeType: "application/x-dragboard-box+json")
}
