import DragboardStore
import Foundation
import Synchronization

/// Turns the store's SQL (SQLite's dialect) into PostgreSQL's, once per distinct statement.
///
/// The store's statements use few SQLite-only forms, each translated here and nowhere else:
/// - `?` placeholders become `$1`, `$2`…;
/// - `containerID IS ?` (NULL equals NULL) becomes a comparison on the `scope` column, which is
///   `COALESCE(containerID, '')` and indexed, where `IS NOT DISTINCT FROM` would be a scan;
/// - `json_extract(column, '$.key')` becomes `(column::jsonb ->> 'key')`;
/// - `INDEXED BY` (a hint to SQLite's planner) goes.
final class PostgresDialect: Sendable {
    private let translated = Mutex<[String: String]>([:])

    func translate(_ sql: String) -> String {
        if let known = translated.withLock({ $0[sql] }) { return known }
        let result = Self.translateUncached(sql)
        translated.withLock { $0[sql] = result }
        return result
    }

    static func translateUncached(_ sql: String) -> String {
        var out = numberPlaceholders(sql)
        out = replace(#"\bcontainerID IS (\$\d+)"#, in: out, with: "scope = COALESCE($1, '')")
        out = replace(#"\b(\w+) IS (\$\d+)"#, in: out, with: "$1 IS NOT DISTINCT FROM $2")
        out = replace(#"json_extract\((\w+), '\$\.(\w+)'\)"#, in: out, with: "($1::jsonb ->> '$2')")
        out = replace(#"\s+INDEXED BY \w+"#, in: out, with: "")
        return out
    }

    /// `?` → `$n`, leaving quoted strings and identifiers alone.
    private static func numberPlaceholders(_ sql: String) -> String {
        var out = ""
        out.reserveCapacity(sql.utf8.count + 16)
        var number = 0
        var quote: Character?
        for character in sql {
            if let open = quote {
                if character == open { quote = nil }
                out.append(character)
            } else if character == "'" || character == "\"" {
                quote = character
                out.append(character)
            } else if character == "?" {
                number += 1
                out += "$\(number)"
            } else {
                out.append(character)
            }
        }
        return out
    }

    private static func replace(_ pattern: String, in string: String, with template: String) -> String {
        // Patterns are constants of this file: a bad one is a programming error caught by the tests.
        let expression = try! NSRegularExpression(pattern: pattern)
        let range = NSRange(string.startIndex..., in: string)
        return expression.stringByReplacingMatches(in: string, range: range, withTemplate: template)
    }
}
