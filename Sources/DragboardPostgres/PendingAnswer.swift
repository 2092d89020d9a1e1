import Dispatch
import NIOCore
import Synchronization

/// One answer handed from an event loop to the thread that waits for it
/// (``PooledConnection/answer(_:)``): no task goes back to the loop to wait or to give up.
final class PendingAnswer<Value: Sendable>: Sendable {
    private let result = Mutex<Result<Value, any Error>?>(nil)
    private let arrived = DispatchSemaphore(value: 0)

    /// Called once, on the event loop.
    func arrive(_ result: Result<Value, any Error>) {
        self.result.withLock { $0 = result }
        arrived.signal()
    }

    /// The answer, or nil when it did not arrive within `slice` (it may still: wait again).
    func wait(_ slice: TimeAmount) -> Result<Value, any Error>? {
        guard arrived.wait(timeout: .now() + .nanoseconds(Int(slice.nanoseconds))) == .success else { return nil }
        return result.withLock { $0 }
    }
}
