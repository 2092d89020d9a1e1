import DragAndDrop
import Dragboard
import DragboardStore
import Foundation

extension BoardService {
    /// The domain's landing of a drop (``DropLanding``) with this service's seams: an image a list
    /// or zone keeps is recorded in `tx` under the image quota and its file moved into the image
    /// folder. Moved files are added to `kept` as they move, for the caller to remove if the
    /// transaction rolls back.
    func landing(tx: BoardTransaction, kept: KeptFiles) -> DropLanding {
        DropLanding(kit: kit, keepImage: { [self] image in
            // An image a list takes is kept like a zone's, under the list images' own zone id, so the image quota counts it.
            try checkImageQuota(adding: 1, bytes: image.size, tx: tx)
            return StoredImage(id: try keep(image, zoneID: ZoneImageRecord.listImagesZone, tx: tx, kept: kept), name: image.name)
        }, zoneWriter: { [self] zoneID in
            ZoneWriter(zoneID: zoneID, addImages: { [self] images in
                try checkImageQuota(adding: images.count, bytes: images.reduce(0) { $0 + $1.size }, tx: tx)
                for image in images { _ = try keep(image, zoneID: zoneID, tx: tx, kept: kept) }
            }, setText: { text in try tx.setLabel(zoneID, text: text) })
        })
    }

    /// Records `image` under `zoneID` and moves its file into the image folder; returns its id.
    private func keep(_ image: DroppedImage, zoneID: String, tx: BoardTransaction, kept: KeptFiles) throws -> String {
        let id = UUID().uuidString.lowercased()
        try tx.addImage(ZoneImageRecord(id: id, zoneID: zoneID, name: image.name, mimeType: image.format.rawValue, size: image.size))
        let stored = imagesDirectory.appendingPathComponent(id)
        try FileManager.default.moveItem(at: image.file, to: stored)
        kept.files.append(stored)
        return id
    }
}

/// The image files a drop moved into the image folder (by the closures it hands the domain), for
/// removal if its transaction rolls back. Lives only while the drop runs, on its thread.
final class KeptFiles {
    var files: [URL] = []
}
