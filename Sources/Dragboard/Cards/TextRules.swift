/// What text a person's field may hold: no control characters (a description keeps its line
/// breaks and tabs) and no Unicode non-characters. They are refused, never stored: they break the
/// page's HTML and mean nothing to a reader.
enum TextRules {
    /// Words naming the first character `text` may not hold, or nil.
    static func problem(in text: String, keepingLines: Bool = false) -> String? {
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if keepingLines, scalar == "\n" || scalar == "\t" { continue }
            if value < 0x20 || (0x7F...0x9F).contains(value) {
                return "it holds the control character U+\(hex(value)); remove it"
            }
            if (0xFDD0...0xFDEF).contains(value) || value & 0xFFFE == 0xFFFE {
                return "it holds the non-character U+\(hex(value)); remove it"
            }
        }
        return nil
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
