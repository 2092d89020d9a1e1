/// A calendar day as a due date is: no time, no zone (a card due on the 3rd is due on the 3rd
/// wherever it is read).
public struct DueDate: Sendable, Equatable, Comparable {
    public var year: Int, month: Int, day: Int

    /// The day `text` names as `YYYY-MM-DD`, when it is a real day of years 1000…9999.
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.allSatisfy(\.isASCII) }),
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
              (1000...9999).contains(year), (1...12).contains(month), day >= 1 else { return nil }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard day <= lengths[month - 1] else { return nil }
        (self.year, self.month, self.day) = (year, month, day)
    }

    public static func < (a: DueDate, b: DueDate) -> Bool { (a.year, a.month, a.day) < (b.year, b.month, b.day) }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The day as people read it on a badge: "3 Dec 2026".
    public var words: String { "\(day) \(Self.months[month - 1]) \(year)" }
}
