extension OrderKey {
    // Integer heads: `a0`…`az` (2 chars), `b00`…`bzz` (3 chars), … upwards and
    // `Zz`…`Z0`, `Yzz`… downwards. Returns nil past the largest/smallest head.

    static func increment(_ integer: [UInt8]) throws -> [UInt8]? {
        guard let head = integer.first, try integerLength(head) == integer.count else {
            throw KeyError.invalidKey(string(integer))
        }
        var body = Array(integer.dropFirst())
        var carry = true
        var i = body.count - 1
        while carry, i >= 0 {
            let d = index(of: body[i]) + 1
            if d == digits.count { body[i] = zero } else { body[i] = digits[d]; carry = false }
            i -= 1
        }
        guard carry else { return [head] + body }
        if head == UInt8(ascii: "Z") { return [UInt8(ascii: "a"), zero] }
        if head == UInt8(ascii: "z") { return nil }
        let next = head + 1
        if next > UInt8(ascii: "a") { body.append(zero) } else { body.removeLast() }
        return [next] + body
    }

    static func decrement(_ integer: [UInt8]) throws -> [UInt8]? {
        guard let head = integer.first, try integerLength(head) == integer.count else {
            throw KeyError.invalidKey(string(integer))
        }
        let top = digits[digits.count - 1]
        var body = Array(integer.dropFirst())
        var borrow = true
        var i = body.count - 1
        while borrow, i >= 0 {
            let d = index(of: body[i]) - 1
            if d == -1 { body[i] = top } else { body[i] = digits[d]; borrow = false }
            i -= 1
        }
        guard borrow else { return [head] + body }
        if head == UInt8(ascii: "a") { return [UInt8(ascii: "Z"), top] }
        if head == UInt8(ascii: "A") { return nil }
        let previous = head - 1
        if previous < UInt8(ascii: "Z") { body.append(top) } else { body.removeLast() }
        return [previous] + body
    }
}
