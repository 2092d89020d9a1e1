import Foundation

/// One value a statement binds or a query answers, in SQLite's storage classes, which both
/// engines read and write: the store's SQL never sees an engine's own value types.
package enum SQLValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)
}

/// A Swift value the store binds to a statement or reads out of a row.
package protocol SQLValueConvertible {
    var sqlValue: SQLValue { get }
    /// Nil when `value` does not convert (a NULL, or another storage class).
    static func fromSQLValue(_ value: SQLValue) -> Self?
}

extension Int64: SQLValueConvertible {
    package var sqlValue: SQLValue { .integer(self) }
    package static func fromSQLValue(_ value: SQLValue) -> Int64? {
        switch value {
        case .integer(let int): int
        case .real(let double): Int64(exactly: double)
        default: nil
        }
    }
}

extension Int: SQLValueConvertible {
    package var sqlValue: SQLValue { .integer(Int64(self)) }
    package static func fromSQLValue(_ value: SQLValue) -> Int? { Int64.fromSQLValue(value).flatMap { Int(exactly: $0) } }
}

extension Double: SQLValueConvertible {
    package var sqlValue: SQLValue { .real(self) }
    package static func fromSQLValue(_ value: SQLValue) -> Double? {
        switch value {
        case .real(let double): double
        case .integer(let int): Double(int)
        default: nil
        }
    }
}

extension Bool: SQLValueConvertible {
    package var sqlValue: SQLValue { .integer(self ? 1 : 0) }
    package static func fromSQLValue(_ value: SQLValue) -> Bool? { Int64.fromSQLValue(value).map { $0 != 0 } }
}

extension String: SQLValueConvertible {
    package var sqlValue: SQLValue { .text(self) }
    package static func fromSQLValue(_ value: SQLValue) -> String? {
        if case .text(let string) = value { return string }
        return nil
    }
}

extension Data: SQLValueConvertible {
    package var sqlValue: SQLValue { .blob(self) }
    package static func fromSQLValue(_ value: SQLValue) -> Data? {
        switch value {
        case .blob(let data): data
        case .text(let string): Data(string.utf8)
        default: nil
        }
    }
}

extension Optional: SQLValueConvertible where Wrapped: SQLValueConvertible {
    package var sqlValue: SQLValue { self?.sqlValue ?? .null }
    /// NULL reads as `.some(nil)`; a value of another storage class does not convert.
    package static func fromSQLValue(_ value: SQLValue) -> Wrapped?? {
        if case .null = value { return .some(nil) }
        return Wrapped.fromSQLValue(value).map { .some($0) }
    }
}

/// Dates are stored as UTC text, `yyyy-MM-dd HH:mm:ss.SSS` (to the nearest millisecond), as GRDB
/// wrote them before this type existed: older rows compare with newer ones as text.
extension Date: SQLValueConvertible {
    package var sqlValue: SQLValue { .text(Self.storageText(of: self)) }

    package static func fromSQLValue(_ value: SQLValue) -> Date? {
        guard case .text(let text) = value else { return nil }
        let parts = text.split(whereSeparator: { "- :.".contains($0) }).map { Int($0) }
        guard parts.count >= 6, parts.allSatisfy({ $0 != nil }) else { return nil }
        let p = parts.map { $0! }
        let days = daysFromCivil(year: p[0], month: p[1], day: p[2])
        let seconds = Double(days * 86_400 + p[3] * 3_600 + p[4] * 60 + p[5])
        return Date(timeIntervalSince1970: seconds + (parts.count > 6 ? Double(p[6]) / 1_000 : 0))
    }

    /// Arithmetic instead of a `DateFormatter`: this runs inside write transactions.
    static func storageText(of date: Date) -> String {
        let milliseconds = Int((date.timeIntervalSince1970 * 1_000).rounded())
        let (days, dayMilliseconds) = milliseconds.quotientAndRemainder(dividingBy: 86_400_000)
        let (day, time) = dayMilliseconds < 0 ? (days - 1, dayMilliseconds + 86_400_000) : (days, dayMilliseconds)
        let (year, month, dayOfMonth) = civil(fromDays: day)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let ms = time % 1_000
        let msText = ms < 10 ? "00\(ms)" : ms < 100 ? "0\(ms)" : "\(ms)"
        let yearText = String(repeating: "0", count: max(0, 4 - String(year).count)) + String(year)
        return "\(yearText)-\(two(month))-\(two(dayOfMonth)) \(two(time / 3_600_000)):\(two(time / 60_000 % 60)):\(two(time / 1_000 % 60)).\(msText)"
    }

    /// Howard Hinnant's `civil_from_days`: the proleptic Gregorian date `days` after 1970-01-01.
    private static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Its inverse, `days_from_civil`.
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
