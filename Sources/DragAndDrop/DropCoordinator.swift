import Foundation

/// Handed to perform-drop: says where and how each item lands, like `UITableViewDropCoordinator`.
///
/// The engine does no I/O, so a delegate does not update a data source here: it records
/// placements, and the engine returns them for the app to apply in one transaction.
public struct DropCoordinator: Sendable {
    /// The dropped items, in order.
    public let items: [DropItem]
    /// The last destination the pointer was over; nil over empty space.
    public let destinationIndexPath: IndexPath?
    /// The proposal in force at the time of the drop, after the engine's rules.
    public let proposal: DropProposal
    /// The session, with data loadable.
    public let session: DropSession
    /// The target taking the drop.
    public let target: DropTargetID
    /// What the delegate decided, in order.
    public private(set) var placements: [DropPlacement] = []
    private var nextPlaceholder: Int

    init(items: [DropItem], destinationIndexPath: IndexPath?, proposal: DropProposal, session: DropSession, target: DropTargetID, placeholderSeed: Int) {
        self.items = items
        self.destinationIndexPath = destinationIndexPath
        self.proposal = proposal
        self.session = session
        self.target = target
        self.nextPlaceholder = placeholderSeed
    }

    /// The item lands as a new row at `indexPath` (insert-at).
    public mutating func drop(_ item: DropItem, toRowAt indexPath: IndexPath, content: (any Sendable)? = nil) {
        placements.append(DropPlacement(item: item, operation: proposal.operation, destination: .row(indexPath), content: content))
    }

    /// The item goes into the container row at `indexPath` (insert-into).
    public mutating func drop(_ item: DropItem, intoRowAt indexPath: IndexPath, content: (any Sendable)? = nil) {
        placements.append(DropPlacement(item: item, operation: proposal.operation, destination: .into(indexPath), content: content))
    }

    /// The item is shown as a placeholder row while its data loads; the app later commits or
    /// deletes it through the session engine.
    @discardableResult
    public mutating func drop(_ item: DropItem, toPlaceholderAt indexPath: IndexPath, content: (any Sendable)? = nil) -> DropPlaceholderID {
        let id = DropPlaceholderID(rawValue: nextPlaceholder)
        nextPlaceholder += 1
        placements.append(DropPlacement(item: item, operation: proposal.operation, destination: .placeholder(id, indexPath), content: content))
        return id
    }

    /// A zone takes the item, with whatever the delegate loaded.
    public mutating func accept(_ item: DropItem, content: (any Sendable)? = nil) {
        placements.append(DropPlacement(item: item, operation: proposal.operation, destination: .zone, content: content))
    }
}

/// Identifies a placeholder row until it is committed or deleted.
public struct DropPlaceholderID: RawRepresentable, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
}

/// One item's landing, decided in perform-drop and applied by the app.
public struct DropPlacement: Sendable {
    public enum Destination: Hashable, Sendable {
        case row(IndexPath)
        case into(IndexPath)
        case placeholder(DropPlaceholderID, IndexPath)
        case zone
    }

    public var item: DropItem
    /// `copy` or `move`.
    public var operation: DropOperation
    public var destination: Destination
    /// What the delegate loaded or derived for the app (a string, a URL, a model value).
    public var content: (any Sendable)?
}
