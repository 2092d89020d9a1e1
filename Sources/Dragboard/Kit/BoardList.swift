/// A list as a drop delegate sees it when the kit builds the page's drop targets.
public struct BoardList: Sendable {
    /// The stored list: id, title, kind.
    public var record: ListRecord
    /// How many top-level rows it has now.
    public var rowCount: Int
    /// Its top-level rows in order, when the kind asked for them with
    /// ``ListKind/dropDelegateReadsRows``; otherwise `nil`.
    public var rows: [BoardItem]?

    public init(record: ListRecord, rowCount: Int, rows: [BoardItem]? = nil) {
        self.record = record
        self.rowCount = rowCount
        self.rows = rows
    }

    public var id: String { record.id }
    public var title: String { record.title }
}
