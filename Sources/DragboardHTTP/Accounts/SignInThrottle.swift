import Foundation
import Synchronization

/// Failed sign-ins remembered for a while, per user name and per address: past the limits,
/// sign-in answers 429 until the oldest failure ages out. Successful sign-ins are never slowed.
/// Each server instance counts its own (instances sharing a database each allow the limits).
final class SignInThrottle: Sendable {
    /// Failures allowed per name, and per address, within ``window``.
    let perName: Int
    let perAddress: Int
    let window: TimeInterval
    private let failures = Mutex<(names: [String: [Date]], addresses: [String: [Date]])>(([:], [:]))

    init(perName: Int = 5, perAddress: Int = 20, window: TimeInterval = 15 * 60) {
        self.perName = perName
        self.perAddress = perAddress
        self.window = window
    }

    /// When `name` from `address` may try again, or nil when it may now.
    func retryDate(name: String, address: String?, now: Date = Date()) -> Date? {
        failures.withLock { state in
            let names = Self.recent(state.names[name] ?? [], now: now, window: window)
            let addresses = Self.recent(address.flatMap { state.addresses[$0] } ?? [], now: now, window: window)
            var dates: [Date] = []
            if names.count >= perName { dates.append(names[names.count - perName] + window) }
            if addresses.count >= perAddress { dates.append(addresses[addresses.count - perAddress] + window) }
            return dates.max()
        }
    }

    /// Remembers a failed attempt.
    func recordFailure(name: String, address: String?, now: Date = Date()) {
        failures.withLock { state in
            state.names[name] = Self.recent(state.names[name] ?? [], now: now, window: window) + [now]
            if let address { state.addresses[address] = Self.recent(state.addresses[address] ?? [], now: now, window: window) + [now] }
            // Names and addresses whose failures all aged out are forgotten, so the table stays small.
            if state.names.count + state.addresses.count > 10_000 {
                state.names = state.names.filter { !Self.recent($0.value, now: now, window: window).isEmpty }
                state.addresses = state.addresses.filter { !Self.recent($0.value, now: now, window: window).isEmpty }
            }
        }
    }

    private static func recent(_ dates: [Date], now: Date, window: TimeInterval) -> [Date] {
        dates.filter { now.timeIntervalSince($0) < window }
    }
}
