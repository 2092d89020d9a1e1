import DragAndDrop
import Foundation

/// A kind of row an app registers with ``BoardKit``: what a row of this kind offers when it
/// is dragged (its `ItemProvider` representations), how it looks, and whether other rows can
/// be dropped into it. Each stored row names its kind (the item row's `kind` column); a row
/// whose kind is not registered is a plain row: its title, as text and as HTML.
public protocol ItemKind: Sendable {
    /// Stored in each row's `kind` column.
    var id: String { get }
    /// Whether rows of this kind hold other rows (UIKit's insert-into): the kit stores what a
    /// delegate drops `intoRowAt:` one of them inside it and renders its contents with it.
    var isContainer: Bool { get }
    /// A template rendered after the row's title, inside the row (`Templates/<name>.mustache`),
    /// for what this kind shows besides its title; `nil` for nothing. It sees the row's `id`,
    /// `kind`, `title`, `count` and `contents` (of a container) and ``templateValue(named:of:contents:)``.
    var detailTemplate: String? { get }

    /// Registers the representations only this kind has (a custom type, a URL), highest
    /// fidelity first. The kit registers before them the server's own reference to the row
    /// and after them ``html(of:)`` and ``plainText(of:)``.
    func registerRepresentations(of item: BoardItem, in provider: inout ItemProvider)
    /// The row as HTML for rich editors; every value must be escaped (``HTMLEscaping``).
    func html(of item: BoardItem) -> String
    /// The row as plain text: what a text editor gets when the row is dropped on it.
    func plainText(of item: BoardItem) -> String
    /// A value the detail template names that the kit does not know, such as a due date.
    func templateValue(named name: String, of item: BoardItem, contents: [BoardItem]) -> Any?
    /// For a container whose contents are a list of their own (a folder, a box): the delegate
    /// deciding drops into its contents at an index, built fresh like a list kind's. `nil` (the
    /// default) for a container that only takes rows into it as a whole. A container with a
    /// delegate is a drop target whether or not the page shows it open; its detail template
    /// gets the contents rendered as a list (`{{{contentsList}}}`) whose rows drag like any row.
    func contentsDropDelegate(for container: BoardContainer) -> (any ListDropDelegate)?
}

extension ItemKind {
    public var isContainer: Bool { false }
    public var detailTemplate: String? { nil }
    public func registerRepresentations(of item: BoardItem, in provider: inout ItemProvider) {}
    public func html(of item: BoardItem) -> String { "<p><strong>\(HTMLEscaping.escape(item.title))</strong></p>" }
    public func plainText(of item: BoardItem) -> String { item.title }
    public func templateValue(named name: String, of item: BoardItem, contents: [BoardItem]) -> Any? { nil }
    public func contentsDropDelegate(for container: BoardContainer) -> (any ListDropDelegate)? { nil }
}

/// What a row whose kind is not registered is: its title, nothing more.
struct PlainItemKind: ItemKind {
    var id: String
}
