import DragAndDrop
import Foundation

/// An item of the board as the app sees it: a store row with its payload decoded.
public struct BoardItem: Sendable, Hashable {
    public var id: String
    public var listID: String
    public var kind: ItemKind
    public var title: String
    public var age: Int?
    public var url: String?

    struct Payload: Codable {
        var age: Int?
        var url: String?
    }

    public init(_ record: ItemRecord) {
        // Most rows have no payload: skip the decoder for them (it runs once per row of a page).
        let payload = record.payload == "{}" ? Payload() : (try? JSONDecoder().decode(Payload.self, from: Data(record.payload.utf8))) ?? Payload()
        self.init(id: record.id, listID: record.listID, kind: ItemKind(rawValue: record.kind) ?? .text, title: record.title, age: payload.age, url: payload.url)
    }

    public init(id: String, listID: String, kind: ItemKind, title: String, age: Int? = nil, url: String? = nil) {
        self.id = id
        self.listID = listID
        self.kind = kind
        self.title = title
        self.age = age
        self.url = url
    }

    /// The payload JSON the store keeps.
    static func payload(age: Int? = nil, url: String? = nil) -> String {
        String(decoding: (try? JSONEncoder().encode(Payload(age: age, url: url))) ?? Data("{}".utf8), as: UTF8.self)
    }

    /// The plain-text representation: what a text editor gets.
    public var plainText: String {
        switch kind {
        case .person: age.map { "\(title) (\($0))" } ?? title
        case .link: url ?? title
        default: title
        }
    }
}

/// A person, read from and written to the custom person type.
public struct PersonValue: Codable, Hashable, Sendable, ItemProviderWriting, ItemProviderReading {
    public var name: String
    public var age: Int

    public static var writableTypeIdentifiers: [TypeIdentifier] { [BoardTypes.person] }
    public static var readableTypeIdentifiers: [TypeIdentifier] { [BoardTypes.person] }

    public func data(forTypeIdentifier typeIdentifier: TypeIdentifier) throws -> Data { try JSONEncoder().encode(self) }

    public static func object(withItemProviderData data: Data, typeIdentifier: TypeIdentifier) throws -> PersonValue {
        let person = try JSONDecoder().decode(PersonValue.self, from: data)
        let name = person.name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty, name.count <= 200, (0...150).contains(person.age) else {
            throw DragAndDropError.unreadableData(typeIdentifier)
        }
        return PersonValue(name: name, age: person.age)
    }
}
