import DragAndDrop
import Dragboard
import Foundation

/// The image well takes only images: files whose type conforms to `public.image`, checked
/// again by their bytes when the drop is performed.
struct ImageWellDelegate: DropZoneDelegate {
    func canHandle(_ session: DropSession, in zone: ZoneTarget) -> Bool {
        session.hasItemsConforming(toTypeIdentifiers: [.image])
    }

    func dropSessionDidUpdate(_ session: DropSession, in zone: ZoneTarget) -> DropProposal {
        DropProposal(operation: .copy)
    }

    func performDrop(in zone: ZoneTarget, with coordinator: inout DropCoordinator) throws {
        for item in coordinator.items {
            guard let image = try coordinator.session.loadImage(from: item) else { continue }
            coordinator.accept(item, content: image)
        }
        guard !coordinator.placements.isEmpty else { throw DragboardError.unprocessable("no image was dropped") }
    }
}

/// The label shows the text of the last thing dropped on it: a row of the board or text from
/// anywhere. It always copies.
struct LabelDelegate: DropZoneDelegate {
    func canHandle(_ session: DropSession, in zone: ZoneTarget) -> Bool {
        session.hasText
    }

    func dropSessionDidUpdate(_ session: DropSession, in zone: ZoneTarget) -> DropProposal {
        DropProposal(operation: .copy)
    }

    func performDrop(in zone: ZoneTarget, with coordinator: inout DropCoordinator) throws {
        guard let item = coordinator.items.first else { return }
        coordinator.accept(item, content: try coordinator.session.labelText(item))
    }
}
