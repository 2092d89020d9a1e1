/// An image stored in a drop zone; its bytes live in the image folder under `id`.
public struct ZoneImageRecord: Sendable, Equatable, Codable {
    public var id: String
    public var zoneID: String
    public var name: String
    public var mimeType: String
    public var size: Int

    public init(id: String, zoneID: String, name: String, mimeType: String, size: Int) {
        self.id = id
        self.zoneID = zoneID
        self.name = name
        self.mimeType = mimeType
        self.size = size
    }
}

extension ZoneImageRecord {
    /// The zone id images dropped on lists are recorded under (no zone of a page has it), so the
    /// image quota counts them with the zones'.
    package static let listImagesZone = "_lists"
}
