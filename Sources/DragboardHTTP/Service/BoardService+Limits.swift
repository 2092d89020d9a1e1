import Dragboard
import DragboardStore
extension BoardService {
    /// What one client, and everyone together, may make the server keep (see ``BoardLimits``).
    public typealias Limits = BoardLimits

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
