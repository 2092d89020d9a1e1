import Foundation

/// What a zone may keep, written inside a drop's transaction: images (files checked by their
/// bytes, under the board's image quota) and one text. Not `Sendable`, like the transaction it
/// writes to: it exists only while ``ZoneKind/performDrop(_:in:)`` runs.
public struct ZoneWriter {
    /// The zone being written.
    public let zoneID: String
    private let keepImages: ([DroppedImage]) throws -> Void
    private let keepText: (String) throws -> Void

    /// A writer whose calls go to the drop's transaction (the store's business, not the zone's).
    package init(zoneID: String, addImages: @escaping ([DroppedImage]) throws -> Void, setText: @escaping (String) throws -> Void) {
        self.zoneID = zoneID
        self.keepImages = addImages
        self.keepText = setText
    }

    /// Keeps dropped images in the zone, after checking the board's image quota for all of them.
    public mutating func addImages(_ images: [DroppedImage]) throws {
        try keepImages(images)
    }

    /// Replaces the zone's text.
    public func setText(_ text: String) throws {
        try keepText(text)
    }
}
