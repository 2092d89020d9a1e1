import Foundation

/// What a zone may keep, written inside a drop's transaction: images (files checked by their
/// bytes, under the board's image quota) and one text. Not `Sendable`, like the transaction it
/// wraps: it exists only while ``ZoneKind/performDrop(_:in:)`` runs.
public struct ZoneWriter {
    /// The zone being written.
    public let zoneID: String
    let transaction: BoardTransaction
    let service: BoardService
    /// Image files moved into the image folder, for the caller to remove if the transaction rolls back.
    private(set) var storedFiles: [URL] = []

    init(zoneID: String, transaction: BoardTransaction, service: BoardService) {
        self.zoneID = zoneID
        self.transaction = transaction
        self.service = service
    }

    /// Keeps dropped images in the zone, after checking the board's image quota for all of them.
    public mutating func addImages(_ images: [DroppedImage]) throws {
        try service.checkImageQuota(adding: images.count, bytes: images.reduce(0) { $0 + $1.size }, tx: transaction)
        for image in images {
            let id = UUID().uuidString.lowercased()
            try transaction.addImage(ZoneImageRecord(id: id, zoneID: zoneID, name: image.name, mimeType: image.format.rawValue, size: image.size))
            let stored = service.imagesDirectory.appendingPathComponent(id)
            try FileManager.default.moveItem(at: image.file, to: stored)
            storedFiles.append(stored)
        }
    }

    /// Replaces the zone's text.
    public func setText(_ text: String) throws {
        try transaction.setLabel(zoneID, text: text)
    }
}
