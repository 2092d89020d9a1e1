import Synchronization

/// The bytes files uploaded for drops from outside hold on disk while their drags are in progress:
/// per drag, per address and in total, each capped. A file's bytes are reserved before any is stored
/// (what its `Content-Length` says, or the largest file allowed when it is sent in chunks), trimmed to
/// its real size when complete, and given back when it fails or its drag ends or expires.
public final class UploadBudget: Sendable {
    private struct State {
        var byDrag: [String: Int] = [:]
        var byAddress: [String: Int] = [:]
        var total = 0
    }

    private let state = Mutex(State())
    let limits: BoardLimits

    init(limits: BoardLimits) {
        self.limits = limits
    }

    /// Bytes reserved by every drag in progress.
    public var total: Int { state.withLock { $0.total } }

    /// Reserves `bytes` for an upload of drag `token` begun from `address`, or refuses, naming the cap:
    /// 413 for the drag's own cap (it can never fit), 429 for the address's or the server's (they free
    /// up as other drags end; `retryAfter` says when one does at the latest).
    func reserve(_ bytes: Int, drag token: String, address: String?, retryAfter: Int) throws {
        try state.withLock { state in
            let address = address ?? "-"
            guard state.byDrag[token, default: 0] + bytes <= limits.pendingUploadBytesPerDrag else {
                throw DragboardError.quotaExceeded("a drag may bring at most \(Self.megabytes(limits.pendingUploadBytesPerDrag)) of files")
            }
            guard state.byAddress[address, default: 0] + bytes <= limits.pendingUploadBytesPerAddress else {
                throw DragboardError.tooMany(
                    "files of unfinished drags from your network address already take \(Self.megabytes(state.byAddress[address, default: 0])) of the \(Self.megabytes(limits.pendingUploadBytesPerAddress)) allowed; finish or cancel a drag, or the oldest ends \(DragSessions.within(retryAfter))",
                    retryAfter: retryAfter)
            }
            guard state.total + bytes <= limits.pendingUploadBytes else {
                throw DragboardError.tooMany(
                    "the server holds its limit of \(Self.megabytes(limits.pendingUploadBytes)) of files for drags in progress; try again \(DragSessions.within(retryAfter))",
                    retryAfter: retryAfter)
            }
            state.byDrag[token, default: 0] += bytes
            state.byAddress[address, default: 0] += bytes
            state.total += bytes
        }
    }

    /// Gives back `bytes` of drag `token` (a failed upload, or what a complete one did not use).
    func release(_ bytes: Int, drag token: String, address: String?) {
        state.withLock { state in
            let address = address ?? "-"
            let given = min(bytes, state.byDrag[token, default: 0])
            guard given > 0 else { return }
            Self.subtract(given, at: token, in: &state.byDrag)
            Self.subtract(given, at: address, in: &state.byAddress)
            state.total -= given
        }
    }

    /// Gives back everything drag `token` holds (it ended or expired; its files were deleted or stored).
    func releaseDrag(_ token: String, address: String?) {
        let held = state.withLock { $0.byDrag[token, default: 0] }
        release(held, drag: token, address: address)
    }

    private static func subtract(_ bytes: Int, at key: String, in table: inout [String: Int]) {
        let left = table[key, default: 0] - bytes
        table[key] = left > 0 ? left : nil
    }

    static func megabytes(_ bytes: Int) -> String {
        bytes >= 1024 * 1024 ? "\(bytes / 1024 / 1024) MB" : "\(bytes / 1024) KB"
    }
}
