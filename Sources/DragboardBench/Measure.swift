import Foundation

/// Times `body` `iterations` times and reports the median and p99 in microseconds.
struct Measurement {
    var samples: [Duration]

    init(samples: [Duration]) {
        self.samples = samples.sorted()
    }

    init(iterations: Int, warmup: Int = 3, _ body: () throws -> Void) rethrows {
        let clock = ContinuousClock()
        for _ in 0..<warmup { try body() }
        samples = try (0..<iterations).map { _ in try clock.measure(body) }
        samples.sort()
    }

    func percentile(_ p: Double) -> Duration {
        samples[min(samples.count - 1, Int(Double(samples.count) * p))]
    }

    var median: Duration { percentile(0.5) }
    var p99: Duration { percentile(0.99) }

    static func micros(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let micros = Double(seconds) * 1e6 + Double(attoseconds) / 1e12
        return micros < 10 ? String(format: "%.2f µs", micros) : String(format: "%.0f µs", micros)
    }
}

func report(_ name: String, _ measurement: Measurement) {
    let label = name.padding(toLength: 52, withPad: " ", startingAt: 0)
    print("\(label) p50 \(Measurement.micros(measurement.median))\tp99 \(Measurement.micros(measurement.p99))")
}
