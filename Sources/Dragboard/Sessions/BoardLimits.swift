/// What one client, and everyone together, may make the server keep. Each limit refuses
/// with words that name it (a 4xx at the HTTP edge).
public struct BoardLimits: Sendable {
    /// Images the board's zones keep, together.
    public var maximumImages: Int
    /// Bytes of images the board's zones keep, together.
    public var maximumImageBytes: Int
    /// Live drag sessions of one browser (its CSRF cookie).
    public var sessionsPerClient: Int
    /// Live drag sessions begun from one network address (several browsers may share one).
    public var sessionsPerAddress: Int
    /// Live drag sessions of one signed-in person, from all their browsers.
    public var sessionsPerUser: Int
    /// Live drag sessions in total: each holds its engine and, for drops from outside, the
    /// dropped strings, so this bounds their memory.
    public var sessions: Int
    /// The last of ``sessions``, kept for addresses with fewer than ``lightSessionUse`` drags in
    /// progress: however many addresses fill their shares, a newcomer can still drag.
    public var sessionReserve: Int
    /// Live-update streams of one signed-in person (a tab each), from all their browsers.
    public var eventStreamsPerUser: Int
    /// Bytes of files uploaded for one drop from outside while its drag is in progress.
    public var pendingUploadBytesPerDrag: Int
    /// Bytes of files uploaded for drags in progress begun from one address.
    public var pendingUploadBytesPerAddress: Int
    /// Bytes of files uploaded for drags in progress, in total.
    public var pendingUploadBytes: Int

    /// Drags in progress an address may still begin when only the reserve is left.
    public static let lightSessionUse = 16

    /// Creates limits; every parameter has a default fit for one team's board.
    public init(maximumImages: Int = 200, maximumImageBytes: Int = 500 * 1024 * 1024,
                sessionsPerClient: Int = 32, sessionsPerAddress: Int = 256, sessionsPerUser: Int = 128,
                sessions: Int = 16384, sessionReserve: Int = 2048, eventStreamsPerUser: Int = 64,
                pendingUploadBytesPerDrag: Int = 100 * 1024 * 1024, pendingUploadBytesPerAddress: Int = 200 * 1024 * 1024,
                pendingUploadBytes: Int = 1024 * 1024 * 1024) {
        self.maximumImages = maximumImages
        self.maximumImageBytes = maximumImageBytes
        self.sessionsPerClient = sessionsPerClient
        self.sessionsPerAddress = sessionsPerAddress
        self.sessionsPerUser = sessionsPerUser
        self.sessions = sessions
        self.sessionReserve = sessionReserve
        self.eventStreamsPerUser = eventStreamsPerUser
        self.pendingUploadBytesPerDrag = pendingUploadBytesPerDrag
        self.pendingUploadBytesPerAddress = pendingUploadBytesPerAddress
        self.pendingUploadBytes = pendingUploadBytes
    }
}
