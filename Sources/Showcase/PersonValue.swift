import DragAndDrop
import Foundation

/// A person, read from and written to the custom person type.
public struct PersonValue: Codable, Hashable, Sendable, ItemProviderWriting, ItemProviderReading {
    public var name: String
    public var age: Int

    public static var writableTypeIdentifiers: [TypeIdentifier] { [ShowcaseTypes.person] }
    public static var readableTypeIdentifiers: [TypeIdentifier] { [ShowcaseTypes.person] }

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
