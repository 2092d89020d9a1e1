/// Where a remembered answer is kept (``ReadMemo``, ``BoardMemos``): its text names what it
/// answers, and its hash is worked out once, as it is made. A drop makes a few dozen keys and
/// looks each up several times, in its transaction's answers, in what an earlier one left and in
/// the copies kept for the next: hashing the text anew each time was 6% of a drop cycle's
/// instructions, 1% with the hash kept.
package struct MemoKey: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    package let text: String
    private let hash: Int

    package init(_ text: String) {
        self.text = text
        self.hash = text.hashValue
    }

    package init(stringLiteral text: String) {
        self.init(text)
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(hash)
    }

    package static func == (a: MemoKey, b: MemoKey) -> Bool {
        a.hash == b.hash && a.text == b.text
    }

    package var description: String { text }
}
