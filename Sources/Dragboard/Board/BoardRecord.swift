/// One board as listed on the index: people find their boards by title and recent activity.
public struct BoardRecord: Sendable, Equatable {
    /// Stable id: the board lives at `/boards/<id>`.
    public var id: String
    public var title: String
    /// The board's own version: each board counts its changes separately.
    public var version: Int
    /// When the board last changed (or was made), seconds since 1970; 0 when never recorded.
    public var activity: Double
    /// The board's colour on the index.
    public var color: PaletteColor

    public init(id: String, title: String, version: Int, activity: Double, color: PaletteColor = .boardDefault) {
        self.id = id
        self.title = title
        self.version = version
        self.activity = activity
        self.color = color
    }
}

extension BoardRecord {
    /// The board every store has from its creation, and the one requests that name none mean.
    public static let defaultID = "demo"
}
