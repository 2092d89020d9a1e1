@testable import DragboardStore
import Foundation
import Synchronization
import Testing
@testable import Dragboard

/// The commit observer (the metrics' database wait) is called once per operation, and calling it
/// costs the same on the thousandth operation as on the first.
@Suite struct CommitObserverTests {
    /// Reading a closure out of a `Mutex` through `inout` wrapped it in two more reabstraction
    /// thunks each time, written back into the mutex: the chain grew by two frames per commit (CPU
    /// and memory that grew with every drop a server had ever made). The observer's own stack depth
    /// shows the chain.
    @Test func theObserverIsCalledThroughTheSameFramesEveryTime() throws {
        let t = try TempStore()
        defer { t.remove() }
        let depths = Mutex<[Int]>([])
        t.store.observeCommits { duration in
            precondition(duration >= .zero)
            let depth = Thread.callStackReturnAddresses.count
            depths.withLock { $0.append(depth) }
        }
        for number in 0..<50 {
            try t.op { tx in try tx.move(["a"], to: Placement(listID: number % 2 == 0 ? "links" : "people", index: 0)) }
        }
        let seen = depths.withLock { $0 }
        #expect(seen.count == 50)
        #expect(Set(seen).count == 1, "stack depths: \(seen.first ?? 0) … \(seen.last ?? 0)")
    }
}
