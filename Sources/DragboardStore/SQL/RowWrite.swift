/// The rows a move wrote: those of `lists` (where rows left and landed, with everything nested in
/// them, and any rows a rebalance re-keyed there), the moved rows being of `kinds`; exactly `rows`
/// where the move can name them (nil: any row of `lists`). A move touches
/// a list or two: they are kept in arrays and compared, not hashed (a move checks every answer a
/// transaction remembers against them).
package struct RowWrite: Equatable, Sendable {
    private(set) var lists: [String]
    private(set) var kinds: [String]
    private(set) var rows: [String]?
    /// How many top-level rows each list gained (lost, where negative), where the write can say: a
    /// board's list counts are then brought up to date instead of read again (``BoardMemos``).
    private(set) var counts: [String: Int]?

    init(lists: some Sequence<String>, kinds: some Sequence<String>, rows: [String]? = nil, counts: [String: Int]? = nil) {
        self.lists = []
        self.kinds = []
        self.rows = rows
        self.counts = counts?.filter { $0.value != 0 }
        for list in lists where !self.lists.contains(list) { self.lists.append(list) }
        for kind in kinds where !self.kinds.contains(kind) { self.kinds.append(kind) }
    }

    /// Writes nothing: what the writes of a transaction add up to before the first.
    static let none = RowWrite(lists: [], kinds: [], rows: [], counts: [:])

    /// This write and `other`: the rows of both (any row of their lists, where either cannot name
    /// them), and the counts' changes of both (none known, where either cannot say).
    mutating func formUnion(_ other: RowWrite) {
        for list in other.lists where !lists.contains(list) { lists.append(list) }
        for kind in other.kinds where !kinds.contains(kind) { kinds.append(kind) }
        if let mine = rows, let theirs = other.rows {
            rows = mine + theirs.filter { !mine.contains($0) }
        } else {
            rows = nil
        }
        if let mine = counts, let theirs = other.counts {
            counts = mine.merging(theirs, uniquingKeysWith: +).filter { $0.value != 0 }
        } else {
            counts = nil
        }
    }
}
