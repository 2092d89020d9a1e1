/// Percent-decoding for request targets (RFC 3986 §2.1).
enum PercentDecoding {
    /// Decodes `%HH` escapes (and `+` as a space when `plusAsSpace`); malformed escapes are kept literally.
    /// Invalid UTF-8 is replaced with U+FFFD.
    static func decode(_ string: some StringProtocol, plusAsSpace: Bool = false) -> String {
        // Most targets have nothing to decode: checked in place, without copying the bytes.
        guard needsDecoding(string, plusAsSpace: plusAsSpace) else { return String(string) }
        return String(decoding: bytes(string, plusAsSpace: plusAsSpace), as: UTF8.self)
    }

    /// ``decode(_:plusAsSpace:)``, or nil when the escapes decode to bytes that are not UTF-8: what
    /// a person typed is stored as sent or refused, never with U+FFFD in place of what they meant.
    static func decodeValidating(_ string: some StringProtocol, plusAsSpace: Bool = false) -> String? {
        guard needsDecoding(string, plusAsSpace: plusAsSpace) else { return String(string) }
        return String(validating: bytes(string, plusAsSpace: plusAsSpace), as: UTF8.self)
    }

    private static func needsDecoding(_ string: some StringProtocol, plusAsSpace: Bool) -> Bool {
        string.containsByte(UInt8(ascii: "%")) || (plusAsSpace && string.containsByte(UInt8(ascii: "+")))
    }

    private static func bytes(_ string: some StringProtocol, plusAsSpace: Bool) -> [UInt8] {
        let input = Array(string.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(input.count)
        var index = 0
        while index < input.count {
            let byte = input[index]
            if byte == UInt8(ascii: "%"), index + 2 < input.count,
                let high = hexValue(input[index + 1]), let low = hexValue(input[index + 2])
            {
                output.append(high << 4 | low)
                index += 3
            } else {
                output.append(plusAsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                index += 1
            }
        }
        return output
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

extension StringProtocol {
    /// Whether the UTF-8 byte `byte` occurs: a scan of the contiguous UTF-8 when there is one (a native string
    /// or a slice of one), not the generic `Sequence.contains` over `UTF8View`, which every request paid twice.
    func containsByte(_ byte: UInt8) -> Bool {
        utf8.withContiguousStorageIfAvailable { $0.contains(byte) } ?? utf8.contains(byte)
    }
}
