/// What one transaction changed of a board, as it leaves it in the board's row (the `changed`
/// column) for the other processes sharing the database: from which state (``baseVersion``,
/// ``baseWriter``) to which version, writing only the rows ``write`` names.
///
/// A process that knew the board at the base state then knows it at the new one without asking:
/// each answer it kept whose ``MemoScope`` the write cannot have changed (``BoardMemos``). Without
/// this, two instances taking turns on a board each find it at a version the other made, and read
/// the lists, counts and rows again at every turn.
///
/// Only a transaction whose every write since it found the board was a move (or a change's
/// bookkeeping, which writes none of the answers kept) can say what it changed: any other write
/// leaves the column NULL. A version raised without the column (another board's departure, an
/// older build) leaves one that names an older version, which says nothing of this one.
package struct VersionStep: Equatable, Sendable {
    package var version: Int
    package var baseVersion: Int
    package var baseWriter: String
    package var write: RowWrite

    /// Separates the fields, then the ids within a field: characters no id or writer holds (an
    /// id holding one is not told, see ``encoded``).
    private static let field: Character = "\u{1E}", item: Character = "\u{1F}"

    package init(version: Int, baseVersion: Int, baseWriter: String, write: RowWrite) {
        self.version = version
        self.baseVersion = baseVersion
        self.baseWriter = baseWriter
        self.write = write
    }

    /// The column's text, seven fields: version, base version, base writer, lists, kinds, rows
    /// (`=` then the ids, or `*` where the move could not name them) and the lists' count changes
    /// (`=` then list and change, or `*`: not known). Nil where a string holds a separator or is
    /// empty (no id is).
    package var encoded: String? {
        let names = write.lists + write.kinds + (write.rows ?? []) + (write.counts.map { Array($0.keys) } ?? []) + [baseWriter]
        guard !names.contains(where: { $0.isEmpty || $0.contains(Self.field) || $0.contains(Self.item) }) else { return nil }
        let item = String(Self.item)
        let rows = write.rows.map { "=" + $0.joined(separator: item) } ?? "*"
        let counts = write.counts.map { "=" + $0.sorted { $0.key < $1.key }.map { "\($0.key)\(item)\($0.value)" }.joined(separator: item) } ?? "*"
        return ["\(version)", "\(baseVersion)", baseWriter, write.lists.joined(separator: item), write.kinds.joined(separator: item), rows, counts]
            .joined(separator: String(Self.field))
    }

    /// Reads ``encoded``'s text; nil for anything else (a row edited by hand, say).
    package init?(decoding text: String) {
        let fields = text.split(separator: Self.field, omittingEmptySubsequences: false)
        guard fields.count == 7, let version = Int(fields[0]), let baseVersion = Int(fields[1]), !fields[2].isEmpty,
              let rows = Self.someNames(fields[5]), let countFields = Self.someNames(fields[6]), (countFields?.count ?? 0) % 2 == 0
        else { return nil }
        var counts: [String: Int]?
        if let countFields {
            counts = [:]
            for index in stride(from: 0, to: countFields.count, by: 2) {
                guard let change = Int(countFields[index + 1]) else { return nil }
                counts?[countFields[index]] = change
            }
        }
        self.init(version: version, baseVersion: baseVersion, baseWriter: String(fields[2]),
                  write: RowWrite(lists: Self.names(fields[3]), kinds: Self.names(fields[4]), rows: rows, counts: counts))
    }

    /// The ids of a field (none where it is empty).
    private static func names(_ field: Substring) -> [String] {
        field.isEmpty ? [] : field.split(separator: item, omittingEmptySubsequences: false).map(String.init)
    }

    /// The ids of a field that may not say them (`*`: some, unnamed, as nil); nil where it is neither.
    private static func someNames(_ field: Substring) -> [String]?? {
        switch field.first {
        case "*" where field.count == 1: .some(nil)
        case "=": .some(names(field.dropFirst()))
        default: nil
        }
    }
}
