import DragAndDrop
import Foundation

/// The image formats the kit keeps, recognised by their magic bytes — never by the
/// name or the type a file claims.
public enum ImageFormat: String, Sendable, CaseIterable {
    case png = "image/png"
    case jpeg = "image/jpeg"
    case gif = "image/gif"
    case webp = "image/webp"

    /// The format of `header` (the file's first bytes), if it is one of ours.
    public init?(header: some Collection<UInt8>) {
        let bytes = Array(header.prefix(12))
        func starts(_ prefix: [UInt8]) -> Bool { bytes.starts(with: prefix) }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { self = .png }
        else if starts([0xFF, 0xD8, 0xFF]) { self = .jpeg }
        else if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { self = .gif }
        else if bytes.count >= 12, starts(Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) { self = .webp }
        else { return nil }
    }

    /// How many bytes identify a format.
    static let headerLength = 12
}

/// An image file dropped from outside, as a zone's perform-drop found it: checked by its
/// bytes, and kept by ``ZoneWriter/addImages(_:)``.
public struct DroppedImage: Sendable {
    /// The uploaded file, moved into the board's image folder when the drop is applied.
    public var file: URL
    public var format: ImageFormat
    public var size: Int
    /// The name the file had, a label only.
    public var name: String

    public init(file: URL, format: ImageFormat, size: Int, name: String) {
        self.file = file
        self.format = format
        self.size = size
        self.name = name
    }
}

extension DropSession {
    /// Loads an item's file of a type conforming to `public.image` and checks by its first
    /// bytes that it is a PNG, JPEG, GIF or WebP image; `nil` when the item has no image file.
    /// - Throws: ``DragboardError/unsupportedType(_:)`` when the bytes are not such an image.
    public func loadImage(from item: DropItem) throws -> DroppedImage? {
        guard let (url, _) = try loadFileRepresentation(forTypeIdentifier: .image, from: item) else { return nil }
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        guard let format = ImageFormat(header: try handle.read(upToCount: ImageFormat.headerLength) ?? Data()) else {
            throw DragboardError.unsupportedType("the dropped file is not a PNG, JPEG, GIF or WebP image")
        }
        let size = Int(try handle.seekToEnd())
        return DroppedImage(file: url, format: format, size: size, name: item.dragItem.itemProvider.suggestedName ?? "image")
    }
}

/// Text read from dropped HTML: tags dropped, entities decoded, whitespace collapsed. Dropped
/// HTML is never inserted as markup.
struct HTMLText: ItemProviderReading {
    var text: String

    static var readableTypeIdentifiers: [TypeIdentifier] { [.html] }

    static func object(withItemProviderData data: Data, typeIdentifier: TypeIdentifier) throws -> HTMLText {
        var html = String(decoding: data, as: UTF8.self)
        // Script and style bodies are code, not text.
        for element in ["script", "style"] {
            while let open = html.range(of: "<\(element)", options: .caseInsensitive) {
                let close = html.range(of: "</\(element)>", options: .caseInsensitive, range: open.upperBound..<html.endIndex)
                html.removeSubrange(open.lowerBound..<(close?.upperBound ?? html.endIndex))
            }
        }
        var text = ""
        var inTag = false
        for character in html {
            if character == "<" { inTag = true; text.append(" ") }
            else if character == ">" { inTag = false }
            else if !inTag { text.append(character) }
        }
        let entities = ["&lt;": "<", "&gt;": ">", "&quot;": "\"", "&#39;": "'", "&nbsp;": " ", "&amp;": "&"]
        for (entity, character) in entities { text = text.replacingOccurrences(of: entity, with: character) }
        let words = text.split(whereSeparator: \.isWhitespace)
        return HTMLText(text: words.joined(separator: " "))
    }
}
