import Foundation

/// A value that can write itself as item-provider representations, like `NSItemProviderWriting`.
public protocol ItemProviderWriting: Sendable {
    /// The types this value writes, highest fidelity first.
    static var writableTypeIdentifiers: [TypeIdentifier] { get }
    /// The visibility of each written type; `.all` unless overridden.
    static func visibility(forTypeIdentifier typeIdentifier: TypeIdentifier) -> ItemProvider.Visibility
    /// The bytes of one representation.
    func data(forTypeIdentifier typeIdentifier: TypeIdentifier) throws -> Data
}

/// A value that can be read back from a representation, like `NSItemProviderReading`.
public protocol ItemProviderReading: Sendable {
    /// The types this value reads, most preferred first.
    static var readableTypeIdentifiers: [TypeIdentifier] { get }
    /// Builds the value from one representation's bytes.
    static func object(withItemProviderData data: Data, typeIdentifier: TypeIdentifier) throws -> Self
}

extension ItemProviderWriting {
    public static func visibility(forTypeIdentifier typeIdentifier: TypeIdentifier) -> ItemProvider.Visibility { .all }
}

extension ItemProvider {
    /// A provider holding every representation `object` writes.
    public init(object: some ItemProviderWriting) {
        self.init()
        registerObject(object)
    }

    /// Registers every representation `object` writes, in its fidelity order.
    public mutating func registerObject<Object: ItemProviderWriting>(_ object: Object) {
        for typeIdentifier in Object.writableTypeIdentifiers {
            registerDataRepresentation(
                forTypeIdentifier: typeIdentifier, visibility: Object.visibility(forTypeIdentifier: typeIdentifier)
            ) { progress in
                let data = try object.data(forTypeIdentifier: typeIdentifier)
                progress.complete(Int64(data.count))
                return data
            }
        }
    }

    /// True if some representation could be read as `Object`.
    public func canLoadObject<Object: ItemProviderReading>(ofClass: Object.Type, in registry: TypeRegistry) -> Bool {
        representation(conformingTo: Object.readableTypeIdentifiers, in: registry) != nil
    }
}

extension String: ItemProviderWriting, ItemProviderReading {
    public static var writableTypeIdentifiers: [TypeIdentifier] { [.utf8PlainText] }
    public static var readableTypeIdentifiers: [TypeIdentifier] { [.plainText] }

    public func data(forTypeIdentifier typeIdentifier: TypeIdentifier) throws -> Data { Data(utf8) }

    public static func object(withItemProviderData data: Data, typeIdentifier: TypeIdentifier) throws -> String {
        guard let string = String(data: data, encoding: .utf8) else {
            throw DragAndDropError.unreadableData(typeIdentifier)
        }
        return string
    }
}

extension URL: ItemProviderReading {
    /// Only `http` and `https` URLs are read: anything else dropped from outside is refused.
    public static var readableTypeIdentifiers: [TypeIdentifier] { [.url] }

    public static func object(withItemProviderData data: Data, typeIdentifier: TypeIdentifier) throws -> URL {
        // text/uri-list: lines, '#' comments; the first URL wins.
        let text = String(decoding: data, as: UTF8.self)
        let first = text.split(whereSeparator: \.isNewline).map { $0.trimmingWhitespace() }.first { !$0.isEmpty && !$0.hasPrefix("#") }
        guard let first, let url = URL(string: String(first)), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https", url.host != nil
        else { throw DragAndDropError.unreadableData(typeIdentifier) }
        return url
    }
}
