import DragboardStore
import NIOCore
import PostgresNIO

/// Statements prepared on a connection: PostgreSQL parses and plans them once per connection.
extension PostgresSQLConnection {
    /// The statement prepared on this connection, for queries with arguments (the hot reads, and the
    /// lock that reads the board's row); the statements that write run unprepared, since only then
    /// does PostgreSQL say how many rows they changed, and their arguments go with their types (a
    /// prepared statement takes each as the type PostgreSQL inferred for it). A change's bookkeeping,
    /// whose count nobody reads, runs prepared with its types (``runTyped(_:_:)``).
    func preparedQuery(for sql: String) throws -> PreparedQuery? {
        guard sql.utf8.contains(UInt8(ascii: "?")) else { return nil }
        if let known = pooled.prepared[sql] { return known }
        let translated = dialect.translate(sql)
        let reads = translated.hasPrefix("SELECT")
            || (translated.hasPrefix("WITH") && !["INSERT ", "UPDATE ", "DELETE "].contains { translated.contains($0) })
        guard reads else {
            pooled.prepared[sql] = .some(nil)
            return nil
        }
        do {
            let prepared = try pooled.answer { [connection] in connection.prepare(query: translated) }
            pooled.prepared[sql] = prepared
            return prepared
        } catch let error as PSQLError {
            throw PostgresStoreError(error, sql: translated)
        }
    }

    private static func bind(_ value: SQLValue) -> PostgresData {
        switch value {
        case .null: .null
        case .integer(let int): PostgresData(int64: int)
        case .real(let double): PostgresData(double: double)
        case .text(let string): PostgresData(string: string)
        case .blob(let data): PostgresData(bytes: data)
        }
    }

    /// `sql` prepared on this connection with each placeholder cast to the type its argument is sent
    /// as (`$1::bigint`), so that it means what it means unprepared (``run(_:_:)`` sends each argument
    /// with its type): PostgreSQL plans it once, not on every call. A change's bookkeeping runs so;
    /// planning it took as long as running it.
    func runTyped(_ sql: String, _ arguments: SQLArguments) throws -> [SQLRow] {
        let types = arguments.values.map(\.postgresType)
        let key = types.joined(separator: ",") + ":" + sql
        if let known = pooled.prepared[key] ?? nil { return try execute(known, arguments, sql: sql) }
        let typed = Self.casting(dialect.translate(sql), to: types)
        let prepared: PreparedQuery
        do {
            prepared = try pooled.answer { [connection] in connection.prepare(query: typed) }
        } catch let error as PSQLError {
            throw PostgresStoreError(error, sql: typed)
        }
        pooled.prepared[key] = prepared
        return try execute(prepared, arguments, sql: sql)
    }

    /// `sql` (numbered placeholders) with placeholder `$n` cast to `types[n - 1]`, except where that is
    /// `unknown` (a NULL: PostgreSQL infers its type from where it goes). Quoted text is left alone.
    static func casting(_ sql: String, to types: [String]) -> String {
        var out = "", number = "", quote: Character?
        func endPlaceholder() {
            guard !number.isEmpty else { return }
            if let index = Int(number), index >= 1, index <= types.count, types[index - 1] != "unknown" { out += "::" + types[index - 1] }
            number = ""
        }
        var inPlaceholder = false
        for character in sql {
            if inPlaceholder, character.isASCII, character.isNumber {
                number.append(character)
                out.append(character)
                continue
            }
            if inPlaceholder { endPlaceholder(); inPlaceholder = false }
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "'" || character == "\"" {
                quote = character
            } else if character == "$" {
                inPlaceholder = true
            }
            out.append(character)
        }
        if inPlaceholder { endPlaceholder() }
        return out
    }

    /// The rows of a prepared statement run with `arguments`.
    func execute(_ prepared: PreparedQuery, _ arguments: SQLArguments, sql: String) throws -> [SQLRow] {
        let binds = arguments.values.map(Self.bind)
        do {
            // PostgresNIO labels a prepared statement's cells with the formats PostgreSQL described
            // before binding (text), though it asked for, and got, binary values.
            return try Self.sqlRows(try pooled.answer { prepared.execute(binds) }, format: .binary)
        } catch let error as PSQLError {
            throw PostgresStoreError(error, sql: dialect.translate(sql))
        }
    }

    /// Rows as the store reads them; `format` overrides the one PostgresNIO labels each cell with.
    static func sqlRows(_ rows: [PostgresRow], format: PostgresFormat?) throws -> [SQLRow] {
        guard let first = rows.first else { return [] }
        let columns = first.map(\.columnName)
        return try rows.map { row in
            SQLRow(columns: columns, values: try row.map { cell in
                guard let format else { return try value(of: cell) }
                return try value(of: PostgresCell(bytes: cell.bytes, dataType: cell.dataType, format: format,
                                                  columnName: cell.columnName, columnIndex: cell.columnIndex))
            })
        }
    }
}

extension SQLValue {
    /// The type PostgreSQL is told a value of this kind has (``PostgresSQLConnection`` binds it so);
    /// `unknown` for NULL: PostgreSQL infers it from where it goes.
    var postgresType: String {
        switch self {
        case .null: "unknown"
        case .integer: "bigint"
        case .real: "double precision"
        case .text: "text"
        case .blob: "bytea"
        }
    }
}

