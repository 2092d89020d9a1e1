import DragAndDrop
import Foundation

/// A row of the board as delegates and item kinds see it: the stored row, with its
/// kind-specific data kept as the JSON object the store holds.
public struct BoardItem: Sendable, Hashable {
    /// Stable row id (`data-item` in the page, `localObject` of its drags).
    public var id: String
    /// The list the row is in (a container's contents share its list).
    public var listID: String
    /// The container row holding this one, or `nil` for a top-level row.
    public var containerID: String?
    /// The row's kind (see ``ItemKind``).
    public var kind: String
    /// The visible title, also the row's plain text unless its kind says otherwise.
    public var title: String
    /// A JSON object with kind-specific data, e.g. `{"age":34}`; read it with ``payload(as:)``.
    public var payload: String

    public init(_ record: ItemRecord) {
        self.init(id: record.id, listID: record.listID, containerID: record.containerID, kind: record.kind, title: record.title, payload: record.payload)
    }

    public init(id: String, listID: String, containerID: String? = nil, kind: String, title: String, payload: String = "{}") {
        self.id = id
        self.listID = listID
        self.containerID = containerID
        self.kind = kind
        self.title = title
        self.payload = payload
    }

    /// The payload decoded as `type`; `nil` when the row has none or it does not decode.
    public func payload<T: Decodable>(as type: T.Type) -> T? {
        // Most rows have no payload: skip the decoder for them (it may run for every row of a page).
        guard payload != "{}" else { return nil }
        return try? JSONDecoder().decode(type, from: Data(payload.utf8))
    }

    /// `value` as the JSON object a ``NewItem`` stores as its payload.
    public static func payload(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: (try? encoder.encode(value)) ?? Data("{}".utf8), as: UTF8.self)
    }
}
