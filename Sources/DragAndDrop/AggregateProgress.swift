import Synchronization

/// Sums per-item progress into one fraction, like the `NSProgress` `loadObjects` returns.
final class AggregateProgress: Sendable {
    private let fractions: Mutex<[Double]>
    private let report: @Sendable (Double) -> Void

    init(count: Int, report: @escaping @Sendable (Double) -> Void) {
        self.fractions = Mutex(Array(repeating: 0, count: count))
        self.report = report
    }

    func update(_ index: Int, done: Int64, total: Int64) {
        let fraction = total > 0 ? min(1, Double(done) / Double(total)) : 0
        let overall = fractions.withLock { fractions -> Double in
            fractions[index] = fraction
            return fractions.reduce(0, +) / Double(max(fractions.count, 1))
        }
        report(overall)
    }
}
