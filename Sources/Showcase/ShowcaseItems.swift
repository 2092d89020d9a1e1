import DragAndDrop
import Dragboard
import Foundation

/// A cat's toy: dragged as the toy type as well as text.
struct ToyItem: ItemKind {
    static let id = "toy"
    var id: String { Self.id }

    func registerRepresentations(of item: BoardItem, in provider: inout ItemProvider) {
        provider.registerDataRepresentation(forTypeIdentifier: ShowcaseTypes.toy, loadHandler: ShowcaseItems.json(["title": item.title]))
    }
}

/// A toy box: a container row that toys go into (UIKit's insert-into) and, open, a list of its
/// toys that take drops at an index and drag out again.
struct BoxItem: ItemKind {
    static let id = "box"
    var id: String { Self.id }
    var isContainer: Bool { true }
    var detailTemplate: String? { "row-box" }

    func registerRepresentations(of item: BoardItem, in provider: inout ItemProvider) {
        provider.registerDataRepresentation(forTypeIdentifier: ShowcaseTypes.box, loadHandler: ShowcaseItems.json(["title": item.title]))
    }

    func templateValue(named name: String, of item: BoardItem, contents: [BoardItem]) -> Any? {
        name == "countLabel" ? (contents.count == 1 ? "toy" : "toys") : nil
    }

    /// Open, a box is a list of its toys.
    func contentsDropDelegate(for container: BoardContainer) -> (any ListDropDelegate)? {
        BoxContentsDropDelegate(name: container.title)
    }
}

/// A person: dragged as the person type (name and age), shown with the age.
struct PersonItem: ItemKind {
    static let id = "person"
    var id: String { Self.id }
    var detailTemplate: String? { "row-person" }

    func registerRepresentations(of item: BoardItem, in provider: inout ItemProvider) {
        provider.registerObject(PersonValue(name: item.title, age: item.age ?? 0))
    }

    func html(of item: BoardItem) -> String {
        "<p><strong>\(HTMLEscaping.escape(item.title))</strong>, \(item.age ?? 0)</p>"
    }

    func plainText(of item: BoardItem) -> String {
        item.age.map { "\(item.title) (\($0))" } ?? item.title
    }

    func templateValue(named name: String, of item: BoardItem, contents: [BoardItem]) -> Any? {
        switch name {
        case "hasAge": item.age != nil
        case "age": item.age ?? 0
        default: nil
        }
    }
}

/// A link dropped from the web: dragged as a URL, shown with its address.
struct LinkItem: ItemKind {
    static let id = "link"
    var id: String { Self.id }
    var detailTemplate: String? { "row-link" }

    func registerRepresentations(of item: BoardItem, in provider: inout ItemProvider) {
        if let url = item.url { provider.registerData(Data("\(url)\r\n".utf8), forTypeIdentifier: .url) }
    }

    func html(of item: BoardItem) -> String {
        "<a href=\"\(HTMLEscaping.escape(item.url ?? ""))\">\(HTMLEscaping.escape(item.title))</a>"
    }

    func plainText(of item: BoardItem) -> String { item.url ?? item.title }

    /// The address, shown under the title only when it says something the title does not: a
    /// link dropped from the web has its address as its title.
    func templateValue(named name: String, of item: BoardItem, contents: [BoardItem]) -> Any? {
        guard name == "url", let url = item.url, url != item.title else { return nil }
        return url
    }
}

enum ShowcaseItems {
    /// `object` as JSON, made only when a drop or a drag-out loads it: a representation is a
    /// promise, as with `NSItemProvider`, and most drags never load this one.
    static func json(_ object: [String: String]) -> ItemProvider.LoadHandler {
        { progress in
            let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
            progress.complete(Int64(data.count))
            return data
        }
    }
}
