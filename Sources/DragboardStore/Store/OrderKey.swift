/// Fractional index keys: strings that sort strictly between any two other keys.
///
/// A port of the rocicorp / David Greenspan "fractional-indexing" algorithm with
/// base-62 digits (`0-9A-Za-z`). A key is a variable-length *integer head*
/// (`a0`, `a1`, … `az`, `b00`, …; heads `A`…`Z` count downwards for keys below
/// `a0`) followed by an optional fraction without trailing zeros. Keys compare
/// correctly with plain byte comparison (Swift `<` on ASCII strings, SQLite's
/// default `BINARY` collation), so `ORDER BY pos, id` gives the list order.
///
/// Appending (`key(between: last, and: nil)`) only grows the integer head, so
/// 10,000 appends stay within 4 characters. Repeated inserts into one
/// shrinking gap grow by about one character per six inserts; callers that
/// care (``BoardStore``) rebalance when a key gets too long.
public enum OrderKey {
    /// The 62 digits in ascending byte order.
    static let digits: [UInt8] = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)
    static let zero = UInt8(ascii: "0")
    static let smallestInteger: [UInt8] = [UInt8(ascii: "A")] + Array(repeating: UInt8(ascii: "0"), count: 26)

    /// Errors raised for keys that were not produced by this algorithm.
    public enum KeyError: Error, Sendable, Equatable {
        case invalidKey(String)
        case notAscending(String, String)
        case exhausted
    }

    /// Returns a key that sorts strictly between `a` and `b` (`nil` = open end).
    ///
    /// - Precondition: `a < b` when both are given and both are valid keys;
    ///   otherwise a ``KeyError`` is thrown.
    public static func key(between a: String?, and b: String?) throws -> String {
        let result = try keyBytes(between: a.map { Array($0.utf8) }, and: b.map { Array($0.utf8) })
        return String(decoding: result, as: UTF8.self)
    }

    /// Returns `count` ascending keys strictly between `a` and `b`, spread evenly
    /// (recursive bisection when both ends are given, consecutive integer heads
    /// when an end is open — the shortest keys for appends and prepends).
    public static func keys(between a: String?, and b: String?, count: Int) throws -> [String] {
        guard count > 0 else { return [] }
        if count == 1 { return [try key(between: a, and: b)] }
        if b == nil {
            var result: [String] = []
            result.reserveCapacity(count)
            var last = a
            for _ in 0..<count {
                let next = try key(between: last, and: nil)
                result.append(next)
                last = next
            }
            return result
        }
        if a == nil {
            var result: [String] = []
            result.reserveCapacity(count)
            var first = b
            for _ in 0..<count {
                let next = try key(between: nil, and: first)
                result.append(next)
                first = next
            }
            return result.reversed()
        }
        let half = count / 2
        let middle = try key(between: a, and: b)
        return try keys(between: a, and: middle, count: half) + [middle]
            + keys(between: middle, and: b, count: count - half - 1)
    }

    /// Whether `key` is a well-formed key (valid head, base-62, no trailing zero).
    public static func isValid(_ key: String) -> Bool {
        (try? validate(Array(key.utf8))) != nil
    }

    // MARK: - Algorithm

    static func keyBytes(between a: [UInt8]?, and b: [UInt8]?) throws -> [UInt8] {
        if let a { try validate(a) }
        if let b { try validate(b) }
        if let a, let b, !a.lexicographicallyPrecedes(b) {
            throw KeyError.notAscending(string(a), string(b))
        }
        guard let a else {
            guard let b else { return [UInt8(ascii: "a"), zero] }
            let ib = try integerPart(b)
            let fb = Array(b[ib.count...])
            if ib == smallestInteger { return ib + (try midpoint(a: [], b: fb)) }
            if ib.count < b.count { return ib }
            guard let decremented = try decrement(ib) else { throw KeyError.exhausted }
            return decremented
        }
        let ia = try integerPart(a)
        let fa = Array(a[ia.count...])
        guard let b else {
            if let incremented = try increment(ia) { return incremented }
            return ia + (try midpoint(a: fa, b: nil))
        }
        let ib = try integerPart(b)
        let fb = Array(b[ib.count...])
        if ia == ib { return ia + (try midpoint(a: fa, b: fb)) }
        guard let incremented = try increment(ia) else { throw KeyError.exhausted }
        if incremented.lexicographicallyPrecedes(b) { return incremented }
        return ia + (try midpoint(a: fa, b: nil))
    }

    /// Midpoint of two fractions (digit strings read as 0.xxx); `b == nil` means 1.
    static func midpoint(a: [UInt8], b: [UInt8]?) throws -> [UInt8] {
        if let b {
            if !a.lexicographicallyPrecedes(b) { throw KeyError.notAscending(string(a), string(b)) }
            if b.last == zero { throw KeyError.invalidKey(string(b)) }
            // Common prefix (a padded with zeros).
            var n = 0
            while n < b.count, (n < a.count ? a[n] : zero) == b[n] { n += 1 }
            if n > 0 {
                let restA = n < a.count ? Array(a[n...]) : []
                return Array(b[..<n]) + (try midpoint(a: restA, b: Array(b[n...])))
            }
        }
        if a.last == zero { throw KeyError.invalidKey(string(a)) }
        let digitA = a.first.map(index(of:)) ?? 0
        let digitB = b.map { index(of: $0[0]) } ?? digits.count
        if digitB - digitA > 1 {
            let mid = (digitA + digitB + 1) / 2
            return [digits[mid]]
        }
        if let b, b.count > 1 { return [b[0]] }
        let restA = a.count > 1 ? Array(a[1...]) : []
        return [digits[digitA]] + (try midpoint(a: restA, b: nil))
    }

    static func integerLength(_ head: UInt8) throws -> Int {
        switch head {
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return Int(head - UInt8(ascii: "a")) + 2
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return Int(UInt8(ascii: "Z") - head) + 2
        default: throw KeyError.invalidKey(string([head]))
        }
    }

    static func integerPart(_ key: [UInt8]) throws -> [UInt8] {
        guard let head = key.first else { throw KeyError.invalidKey("") }
        let length = try integerLength(head)
        guard length <= key.count else { throw KeyError.invalidKey(string(key)) }
        return Array(key[..<length])
    }

    static func validate(_ key: [UInt8]) throws {
        if key == smallestInteger { throw KeyError.invalidKey(string(key)) }
        let integer = try integerPart(key)
        for byte in key.dropFirst() where !isDigit(byte) { throw KeyError.invalidKey(string(key)) }
        if key.count > integer.count, key.last == zero { throw KeyError.invalidKey(string(key)) }
    }

    static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
    }

    static func index(of byte: UInt8) -> Int {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return Int(byte - UInt8(ascii: "A")) + 10
        default: return Int(byte - UInt8(ascii: "a")) + 36
        }
    }

    /// Where `key` lies between `first` and `last` (0 at `first`, 1 at `last`), read as base-62
    /// fractions of their first ten digits: byte order is digit order, so the estimate keeps the
    /// keys' order; how evenly keys spread over rows depends on how they were made, so it guesses
    /// which end of a list a row is nearer, and no more.
    static func estimatedFraction(of key: String, from first: String, to last: String) -> Double {
        func value(_ key: String) -> Double {
            var total = 0.0, scale = 1.0
            for byte in key.utf8.prefix(10) where isDigit(byte) {
                scale /= 62
                total += Double(index(of: byte)) * scale
            }
            return total
        }
        let low = value(first), span = value(last) - low
        return span > 0 ? (value(key) - low) / span : 0
    }

    static func string(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
}
