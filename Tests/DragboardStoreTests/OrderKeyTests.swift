@testable import DragboardStore
import Testing
@testable import Dragboard

@Suite struct OrderKeyTests {
    @Test func matchesReferenceImplementation() throws {
        // Expected values from rocicorp/fractional-indexing's own test suite.
        let cases: [(String?, String?, String)] = [
            (nil, nil, "a0"), (nil, "a0", "Zz"), ("a0", nil, "a1"), ("a1", nil, "a2"),
            ("a0", "a1", "a0V"), ("a1", "a2", "a1V"), ("a0V", "a1", "a0l"), ("Zz", "a0", "ZzV"),
            ("Zz", "a1", "a0"), (nil, "Y00", "Xzzz"), ("bzz", nil, "c000"), ("a0", "a0V", "a0G"),
            ("a0", "a0G", "a08"), ("b125", "b129", "b127"), ("a0", "a1V", "a1"), ("Zz", "a01", "a0"),
            (nil, "a0V", "a0"), (nil, "b999", "b99"),
            (nil, "A000000000000000000000000001", "A000000000000000000000000000V"),
            ("zzzzzzzzzzzzzzzzzzzzzzzzzzy", nil, "zzzzzzzzzzzzzzzzzzzzzzzzzzz"),
            ("zzzzzzzzzzzzzzzzzzzzzzzzzzz", nil, "zzzzzzzzzzzzzzzzzzzzzzzzzzzV"),
        ]
        for (a, b, expected) in cases {
            #expect(try OrderKey.key(between: a, and: b) == expected, "between \(a ?? "nil") and \(b ?? "nil")")
        }
    }

    @Test func rejectsInvalidInput() {
        let bad: [(String?, String?)] = [
            (nil, "A00000000000000000000000000"), ("a00", nil), ("a00", "a1"), ("0", "1"),
            ("a1", "a0"), ("a1", "a1"), ("a0!", nil), ("", nil),
        ]
        for (a, b) in bad {
            #expect(throws: OrderKey.KeyError.self) { try OrderKey.key(between: a, and: b) }
        }
        #expect(OrderKey.isValid("a0V"))
        #expect(!OrderKey.isValid("a0V0"))
    }

    @Test func keysAreSpreadAndAscending() throws {
        #expect(try OrderKey.keys(between: nil, and: nil, count: 5) == ["a0", "a1", "a2", "a3", "a4"])
        #expect(try OrderKey.keys(between: nil, and: "a0", count: 5) == ["Zv", "Zw", "Zx", "Zy", "Zz"])
        #expect(try OrderKey.keys(between: "a4", and: nil, count: 3) == ["a5", "a6", "a7"])
        let between = try OrderKey.keys(between: "a0", and: "a2", count: 20)
        #expect(between.count == 20)
        #expect(zip(["a0"] + between, between + ["a2"]).allSatisfy { $0 < $1 })
        #expect(between.allSatisfy { $0.count <= 4 })
        #expect(try OrderKey.keys(between: "a0", and: "a1", count: 0).isEmpty)
    }

    @Test func strictlyBetweenForRandomPairs() throws {
        var generator = SeededGenerator(seed: 42)
        var keys = [try OrderKey.key(between: nil, and: nil)]
        for _ in 0..<2_000 {
            let i = Int.random(in: 0...keys.count, using: &generator)
            let a = i > 0 ? keys[i - 1] : nil
            let b = i < keys.count ? keys[i] : nil
            let key = try OrderKey.key(between: a, and: b)
            if let a { #expect(a < key) }
            if let b { #expect(key < b) }
            #expect(OrderKey.isValid(key))
            keys.insert(key, at: i)
        }
        for _ in 0..<2_000 {
            let x = keys.randomElement(using: &generator)!, y = keys.randomElement(using: &generator)!
            guard x != y else { continue }
            let (a, b) = x < y ? (x, y) : (y, x)
            let key = try OrderKey.key(between: a, and: b)
            #expect(a < key && key < b)
            #expect(Array(a.utf8).lexicographicallyPrecedes(Array(key.utf8)))
        }
    }

    @Test func tenThousandAppendsStayShort() throws {
        var last: String?
        var longest = 0
        for _ in 0..<10_000 {
            let key = try OrderKey.key(between: last, and: nil)
            if let last { #expect(last < key) }
            longest = max(longest, key.count)
            last = key
        }
        #expect(longest <= 5)
        var first: String?
        for _ in 0..<10_000 {
            let key = try OrderKey.key(between: nil, and: first)
            if let first { #expect(key < first) }
            longest = max(longest, key.count)
            first = key
        }
        #expect(longest <= 5)
    }
}

/// Deterministic xorshift generator so random tests are reproducible.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed == 0 ? 0x9E37_79B9_7F4A_7C15 : seed }
    mutating func next() -> UInt64 {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return state
    }
}
