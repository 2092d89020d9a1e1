import DragAndDrop
import Foundation

/// The image well takes only images: files whose type conforms to `public.image`, checked
/// again by their bytes when the drop is performed.
struct ImageWellDelegate: DropZoneDelegate {
    static let id = "image-well"

    func canHandle(_ session: DropSession, in zone: ZoneTarget) -> Bool {
        session.hasItemsConforming(toTypeIdentifiers: [.image])
    }

    func dropSessionDidUpdate(_ session: DropSession, in zone: ZoneTarget) -> DropProposal {
        DropProposal(operation: .copy)
    }

    func performDrop(in zone: ZoneTarget, with coordinator: inout DropCoordinator) throws {
        for item in coordinator.items {
            guard let (url, _) = try coordinator.session.loadFileRepresentation(forTypeIdentifier: .image, from: item) else { continue }
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            guard let format = ImageFormat(header: try handle.read(upToCount: ImageFormat.headerLength) ?? Data()) else {
                throw DragboardError.unsupportedType("the dropped file is not a PNG, JPEG, GIF or WebP image")
            }
            let size = Int(try handle.seekToEnd())
            coordinator.accept(item, content: IncomingImage(file: url, format: format, size: size, name: item.dragItem.itemProvider.suggestedName ?? "image"))
        }
        guard !coordinator.placements.isEmpty else { throw DragboardError.unprocessable("no image was dropped") }
    }
}

/// The label shows the text of the last thing dropped on it: a row of the board or text from
/// anywhere. It always copies.
struct LabelDelegate: DropZoneDelegate {
    static let id = "label"

    func canHandle(_ session: DropSession, in zone: ZoneTarget) -> Bool {
        session.hasText
    }

    func dropSessionDidUpdate(_ session: DropSession, in zone: ZoneTarget) -> DropProposal {
        DropProposal(operation: .copy)
    }

    func performDrop(in zone: ZoneTarget, with coordinator: inout DropCoordinator) throws {
        guard let item = coordinator.items.first else { return }
        coordinator.accept(item, content: try coordinator.session.incoming(item, as: .text))
    }
}
