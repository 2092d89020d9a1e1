import DragAndDrop
import Dragboard
import Foundation

/// The image well takes only images: files whose type conforms to `public.image`, checked
/// again by their bytes when the drop is performed.
struct ImageWellDelegate: DropZoneDelegate {
    /// Every drag: what is not an image is refused with the reason (a person who drags text
    /// here learns what the well takes, not only that it takes nothing).
    func canHandle(_ session: DropSession, in zone: ZoneTarget) -> Bool { true }

    func dropSessionDidUpdate(_ session: DropSession, in zone: ZoneTarget) -> DropProposal {
        guard session.hasItemsConforming(toTypeIdentifiers: [.image]) else { return .forbidden("Only images go here: PNG, JPEG, GIF or WebP") }
        return DropProposal(operation: .copy)
    }

    /// Takes the images of the drop; an item that is not one (a text file next to a picture, a
    /// file the browser did not upload) is left out, and the browser says which and why.
    func performDrop(in zone: ZoneTarget, with coordinator: inout DropCoordinator) throws {
        for item in coordinator.items {
            guard let image = try? coordinator.session.loadImage(from: item) else { continue }
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
        if session.localDragSession == nil, let what = session.unreadableItems(as: DropSession.titleTypes + [.url]) {
            return .forbidden("The label shows text or links, not \(what)")
        }
        return DropProposal(operation: .copy)
    }

    func performDrop(in zone: ZoneTarget, with coordinator: inout DropCoordinator) throws {
        guard let item = coordinator.items.first else { return }
        coordinator.accept(item, content: try coordinator.session.labelText(item))
    }
}
