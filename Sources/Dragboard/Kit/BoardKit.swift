import DragAndDrop

/// Everything an app declares about its board: the kinds of lists and rows, the zones, the
/// custom types its rows carry, how the page groups lists, and what a new database starts
/// with. `BoardService` and `DragboardApp` take one and name no content of their own.
public struct BoardKit: Sendable {
    /// Lists grouped on the page in this order.
    public struct Group: Sendable {
        /// The group's accessible name (`aria-label`).
        public var title: String
        /// The list kinds in this group; `nil` takes every list no earlier group took.
        public var listKinds: [String]?

        public init(title: String, listKinds: [String]? = nil) {
            self.title = title
            self.listKinds = listKinds
        }
    }

    /// The registered list kinds, in registration order, then the kit's ``CardsList`` unless
    /// the app registered a kind with its id: what a new list may be.
    public let listKinds: [any ListKind]
    /// The registered row kinds.
    public let itemKinds: [any ItemKind]
    /// The zones, in page order.
    public let zones: [any ZoneKind]
    /// The type registry sessions use: the app's custom types and the kit's own reference.
    public let types: TypeRegistry
    /// How the page groups lists.
    public let groups: [Group]
    /// What a new database starts with (laid down at open, only while the board has no list).
    public let seed: BoardSeed?
    /// How many rows of each list, and of each container's contents, a page renders at first;
    /// the rest load as the list scrolls (`GET /boards/<board>/api/lists/<list>/rows`), or with
    /// the list's "Show more" link without JavaScript. Rendering does not grow with the lists.
    public var rowWindow = BoardKit.defaultRowWindow
    /// ``rowWindow`` unless an app sets another.
    public static let defaultRowWindow = 100

    private let listKindsByID: [String: any ListKind]
    private let itemKindsByID: [String: any ItemKind]
    private let zonesByID: [String: any ZoneKind]

    /// The server's own reference to a row: never leaves the server.
    public static let itemReference: TypeIdentifier = "com.dragboard.item"

    /// Declares a board. `types` adds the app's custom types to ``TypeRegistry/standard``.
    public init(lists: [any ListKind], items: [any ItemKind] = [], zones: [any ZoneKind] = [], types: TypeRegistry = .standard,
                groups: [Group] = [Group(title: "Lists")], seed: BoardSeed? = nil) {
        listKinds = lists.contains { $0.id == CardsList.id } ? lists : lists + [CardsList()]
        // The kit's own card kinds come with it, unless the app registered kinds of those ids.
        itemKinds = items + [LinkCard(), ImageCard()].filter { kind in !items.contains { $0.id == kind.id } }
        self.zones = zones
        self.types = types.declaring(Self.itemReference, conformingTo: [.data]).declaring(Self.listReference, conformingTo: [.data])
        self.groups = groups
        self.seed = seed
        listKindsByID = Dictionary(listKinds.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        itemKindsByID = Dictionary(itemKinds.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        zonesByID = Dictionary(zones.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The list kind named `id`, if registered.
    public func listKind(_ id: String) -> (any ListKind)? { listKindsByID[id] }

    /// The row kind named `id`; an unregistered kind is a plain row.
    public func itemKind(_ id: String) -> any ItemKind { itemKindsByID[id] ?? PlainItemKind(id: id) }

    /// The zone named `id`, if registered.
    public func zone(_ id: String) -> (any ZoneKind)? { zonesByID[id] }

    /// Whether rows of kind `id` hold other rows.
    public func isContainer(_ id: String) -> Bool { itemKindsByID[id]?.isContainer ?? false }
}
