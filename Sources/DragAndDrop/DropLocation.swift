import Foundation

/// Where the pointer is over a target, as the browser measures it.
public enum DropLocation: Hashable, Sendable {
    /// Over row `row` (0-based), `fraction` of the way down its height (0…1).
    case row(Int, fraction: Double)
    /// Over the target but not over a row: empty space below the rows, an empty list, or a zone.
    /// UIKit's nil destination index path.
    case noRow
}

/// The documented zones of the `automatic` intent: over the middle of a row the items go
/// into it; near its top or bottom edge they are inserted before or after it.
public struct AutomaticIntentZones: Hashable, Sendable, Codable {
    /// Fractions of a row's height: above `top` inserts before, below `bottom` inserts after.
    public var top: Double
    public var bottom: Double

    /// 25 % / 50 % / 25 %.
    public static let standard = AutomaticIntentZones(top: 0.25, bottom: 0.75)

    public enum Zone: Sendable, Equatable { case before, into, after }

    public func zone(at fraction: Double) -> Zone {
        if fraction < top { return .before }
        if fraction > bottom { return .after }
        return .into
    }
}

/// A proposal with its intent resolved for one location: never `automatic`.
public struct ResolvedProposal: Hashable, Sendable {
    public var proposal: DropProposal
    /// The destination the delegate was asked about; nil forces the `unspecified` intent.
    public var destinationIndexPath: IndexPath?
}
