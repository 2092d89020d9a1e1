import Foundation
import Synchronization

/// A dedicated thread that runs `beat` every `interval` until stopped.
///
/// A thread rather than a `Task`: heartbeats must keep flowing even when the cooperative pool is busy with
/// blocking work, because they are how dead event-stream clients get noticed.
final class Heartbeat: Sendable {
    private let stopping = Atomic<Bool>(false)
    private let exited = Atomic<Bool>(false)
    private let condition = NSCondition()

    /// Starts the thread.
    init(every interval: Duration, _ beat: @escaping @Sendable () -> Void) {
        let seconds = max(0.001, Double(interval.components.seconds) + Double(interval.components.attoseconds) / 1e18)
        let thread = Thread { [self] in
            run(every: seconds, beat)
        }
        thread.name = "MicroHTTP heartbeat"
        thread.start()
    }

    private func run(every seconds: Double, _ beat: @Sendable () -> Void) {
        condition.lock()
        var next = Date(timeIntervalSinceNow: seconds)
        while !stopping.load(ordering: .acquiring) {
            if !condition.wait(until: next), !stopping.load(ordering: .acquiring) {
                condition.unlock()
                beat()
                condition.lock()
                next = Date(timeIntervalSinceNow: seconds)
            }
        }
        exited.store(true, ordering: .releasing)
        condition.broadcast()
        condition.unlock()
    }

    /// Stops the thread and waits until it has finished its current beat.
    func stop() {
        condition.lock()
        stopping.store(true, ordering: .releasing)
        condition.broadcast()
        while !exited.load(ordering: .acquiring) {
            condition.wait()
        }
        condition.unlock()
    }
}
