import Dragboard
import DragboardStore
extension BoardService {
    /// What one client, and everyone together, may make the server keep. Each limit refuses
    /// with a 4xx that names it in words.
    public struct Limits: Sendable {
        /// Images the board's zones keep, together.
        public var maximumImages: Int
        /// Bytes of images the board's zones keep, together.
        public var maximumImageBytes: Int
        /// Live drag sessions of one browser (its CSRF cookie).
        public var sessionsPerClient: Int
        /// Live drag sessions begun from one network address (several browsers may share one).
        public var sessionsPerAddress: Int
        /// Live drag sessions in total: each holds its engine and, for drops from outside, the
        /// dropped strings, so this bounds their memory.
        public var sessions: Int

        /// Creates limits; every parameter has a default fit for one team's board.
        public init(maximumImages: Int = 200, maximumImageBytes: Int = 500 * 1024 * 1024,
                    sessionsPerClient: Int = 32, sessionsPerAddress: Int = 256, sessions: Int = 2048) {
            self.maximumImages = maximumImages
            self.maximumImageBytes = maximumImageBytes
            self.sessionsPerClient = sessionsPerClient
            self.sessionsPerAddress = sessionsPerAddress
            self.sessions = sessions
        }
    }

    /// Refuses to store `adding` more images of `bytes` bytes over the board's quota.
    func checkImageQuota(adding count: Int, bytes: Int, tx: BoardTransaction) throws {
        let (stored, storedBytes) = try tx.imageUsage()
        guard stored + count <= limits.maximumImages else {
            throw DragboardError.quotaExceeded("the board holds at most \(limits.maximumImages) images and has \(stored)")
        }
        guard storedBytes + bytes <= limits.maximumImageBytes else {
            throw DragboardError.quotaExceeded("the board holds at most \(Self.megabytes(limits.maximumImageBytes)) of images and has \(Self.megabytes(storedBytes))")
        }
    }

    static func megabytes(_ bytes: Int) -> String {
        bytes >= 1024 * 1024 ? "\(bytes / 1024 / 1024) MB" : "\(bytes / 1024) KB"
    }
}
