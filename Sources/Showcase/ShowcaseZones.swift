import DragAndDrop
import Dragboard

/// The image well: keeps the images dropped on it, under the board's image quota.
struct ImageWell: ZoneKind {
    var id: String { "image-well" }

    func dropDelegate() -> any DropZoneDelegate { ImageWellDelegate() }

    func performDrop(_ placements: [DropPlacement], in zone: inout ZoneWriter) throws -> String {
        let images = placements.compactMap { $0.content as? DroppedImage }
        try zone.addImages(images)
        return images.count == 1 ? "Added \(images[0].name) to the image well." : "Added \(images.count) images to the image well."
    }
}

/// The label: shows the text of the last thing dropped on it.
struct Label: ZoneKind {
    var id: String { "label" }

    func dropDelegate() -> any DropZoneDelegate { LabelDelegate() }

    func performDrop(_ placements: [DropPlacement], in zone: inout ZoneWriter) throws -> String {
        guard let text = placements.first?.content as? String else { throw DragboardError.unprocessable("nothing to show") }
        try zone.setText(text)
        return "The label shows “\(text)”."
    }
}
