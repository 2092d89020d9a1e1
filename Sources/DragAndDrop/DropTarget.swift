/// Identifies a drop target on a page: a list (`data-list`) or another zone (`data-zone`).
public enum DropTargetID: Hashable, Sendable, CustomStringConvertible {
    case list(String)
    case zone(String)

    public var description: String {
        switch self {
        case .list(let id): "list \(id)"
        case .zone(let id): "zone \(id)"
        }
    }
}

/// A list as its delegates see it: its id and how many rows it has now.
public struct ListTarget: Hashable, Sendable {
    public var id: String
    public var rowCount: Int
    public var section: Int

    public init(id: String, rowCount: Int, section: Int = 0) {
        self.id = id
        self.rowCount = rowCount
        self.section = section
    }
}

/// A non-list drop target, such as an image well or a label.
public struct ZoneTarget: Hashable, Sendable {
    public var id: String
    public init(id: String) { self.id = id }
}

/// Every drop target of a page with its delegate, in page order.
public struct DropTargets: Sendable {
    public private(set) var lists: [(target: ListTarget, delegate: any ListDropDelegate)] = []
    public private(set) var zones: [(target: ZoneTarget, delegate: any DropZoneDelegate)] = []

    public init() {}

    /// Adds a list target.
    public mutating func add(_ list: ListTarget, delegate: any ListDropDelegate) {
        lists.append((list, delegate))
    }

    /// Adds a zone target.
    public mutating func add(_ zone: ZoneTarget, delegate: any DropZoneDelegate) {
        zones.append((zone, delegate))
    }

    /// Every target id, lists first.
    public var ids: [DropTargetID] { lists.map { .list($0.target.id) } + zones.map { .zone($0.target.id) } }

    /// By index: only the match is copied out (a delegate is an existential, costly to copy).
    func list(_ id: String) -> (target: ListTarget, delegate: any ListDropDelegate)? {
        lists.indices.first { lists[$0].target.id == id }.map { lists[$0] }
    }

    func zone(_ id: String) -> (target: ZoneTarget, delegate: any DropZoneDelegate)? {
        zones.indices.first { zones[$0].target.id == id }.map { zones[$0] }
    }
}
