/// What an operation changed, for every viewer of the board: which row (or list, zone) and how.
/// A value of the domain: the HTTP layer renders the rows it names and sends them on.
public struct BoardChange: Sendable, Hashable {
    public enum Kind: String, Sendable {
        /// The row left where it was.
        case remove
        /// The row is at `list`, after the row `after` (nil: first).
        case insert
        /// The row is shown again in place (a container whose contents changed).
        case replace
        /// The zone `item` is shown again.
        case zone
        /// The list `item` (or the board's lists) is read again whole.
        case resync
        /// The board's title changed.
        case title
        /// The board is gone.
        case gone
    }

    public var kind: Kind
    public var item: String
    public var list: String?
    public var after: String?

    public init(kind: Kind, item: String, list: String? = nil, after: String? = nil) {
        self.kind = kind
        self.item = item
        self.list = list
        self.after = after
    }
}
