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
