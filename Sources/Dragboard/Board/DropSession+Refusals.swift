import DragAndDrop
import Foundation

extension DropSession {
    /// What the items that cannot be read as one of `types` are, in words for a refusal's
    /// reason ("a file", "an image", "a link"); nil when every item can.
    ///
    /// Only strings count: a file from another app is uploaded only when it is an image, so a
    /// `.txt` file is never read as text, however its type conforms. This is what lets a hover
    /// refuse what the drop would refuse, from the types the browser shows during the drag.
    /// `files`: the types a file may have and still be taken (images, for a target that keeps them).
    public func unreadableItems(as types: [TypeIdentifier], orFilesOf files: [TypeIdentifier] = []) -> String? {
        let unreadable = items.filter { item in
            !item.itemProvider.representations.contains { representation in
                registry.conforms(representation.typeIdentifier, toAnyOf: representation.isFile ? files : types)
            }
        }
        guard let first = unreadable.first else { return nil }
        let several = unreadable.count > 1
        let representations = first.itemProvider.representations
        if representations.contains(where: { $0.isFile && registry.conforms($0.typeIdentifier, to: .image) }) {
            return several ? "images" : "an image"
        }
        if representations.contains(where: \.isFile) { return several ? "files" : "a file" }
        if representations.contains(where: { registry.conforms($0.typeIdentifier, to: .url) }) { return several ? "links" : "a link" }
        return several ? "these items" : "this item"
    }

    /// Text a row's title can be made from: plain text or HTML, as strings.
    public static let titleTypes: [TypeIdentifier] = [.plainText, .html]
}
