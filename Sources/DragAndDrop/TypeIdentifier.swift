/// A uniform type identifier, such as `public.utf8-plain-text` or `com.example.person`.
///
/// Identifiers are plain names; what they conform to and which MIME type they travel as
/// is declared in a ``TypeRegistry``, the web counterpart of the system's UTType database.
public struct TypeIdentifier: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    public var description: String { rawValue }
}

extension TypeIdentifier {
    public static let item: TypeIdentifier = "public.item"
    public static let content: TypeIdentifier = "public.content"
    public static let data: TypeIdentifier = "public.data"
    public static let text: TypeIdentifier = "public.text"
    public static let plainText: TypeIdentifier = "public.plain-text"
    public static let utf8PlainText: TypeIdentifier = "public.utf8-plain-text"
    public static let html: TypeIdentifier = "public.html"
    public static let json: TypeIdentifier = "public.json"
    public static let url: TypeIdentifier = "public.url"
    public static let fileURL: TypeIdentifier = "public.file-url"
    public static let image: TypeIdentifier = "public.image"
    public static let png: TypeIdentifier = "public.png"
    public static let jpeg: TypeIdentifier = "public.jpeg"
    public static let gif: TypeIdentifier = "com.compuserve.gif"
    public static let webP: TypeIdentifier = "org.webmproject.webp"
}
