import DragAndDrop
import Foundation

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
        let uploaded = (try? loadObject(ofClass: UploadedFileName.self, from: item))?.name
        return DroppedImage(file: url, format: format, size: size, name: uploaded ?? item.dragItem.itemProvider.suggestedName ?? "image")
    }
}
