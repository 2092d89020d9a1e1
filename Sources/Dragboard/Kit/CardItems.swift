import DragAndDrop
import Foundation

/// What a card keeps besides its title: a link's address or a stored image's id.
package struct CardPayload: Codable {
    var url: String?
    package var image: String?
}

/// A card made from a link dropped from another app: shown as a link (http and https only, as
/// every URL read from outside), dragged out as a URL again.
public struct LinkCard: ItemKind {
    public static let id = "card-link"
    public init() {}
    public var id: String { Self.id }
    public var detailTemplate: String? { "row-card-link" }

    public func registerRepresentations(of item: BoardItem, in provider: inout ItemProvider) {
        if let url = Self.url(of: item) { provider.registerData(Data("\(url)\r\n".utf8), forTypeIdentifier: .url) }
    }

    public func html(of item: BoardItem) -> String {
        "<a href=\"\(HTMLEscaping.escape(Self.url(of: item) ?? ""))\">\(HTMLEscaping.escape(item.title))</a>"
    }

    public func plainText(of item: BoardItem) -> String { Self.url(of: item) ?? item.title }

    public func templateValue(named name: String, of item: BoardItem, contents: [BoardItem]) -> Any? {
        name == "url" ? Self.url(of: item) ?? "" : nil
    }

    static func url(of item: BoardItem) -> String? {
        guard let url = item.payload(as: CardPayload.self)?.url, let scheme = URL(string: url)?.scheme?.lowercased(),
              scheme == "http" || scheme == "https" else { return nil }
        return url
    }
}

/// A card made from an image dropped from another app: the image is stored like the image
/// well's, and the card shows it as a thumbnail.
public struct ImageCard: ItemKind {
    public static let id = "card-image"
    public init() {}
    public var id: String { Self.id }
    public var detailTemplate: String? { "row-card-image" }

    public func templateValue(named name: String, of item: BoardItem, contents: [BoardItem]) -> Any? {
        name == "image" ? item.payload(as: CardPayload.self)?.image ?? "" : nil
    }
}

/// An image a drop on a list brought, already stored: a list kind turns it into a row.
public struct StoredImage: Sendable {
    /// Its id: the image is served at `/images/<id>`.
    public var id: String
    public var name: String

    public init(id: String, name: String) {
        self.id = id
        self.name = name
    }
}
