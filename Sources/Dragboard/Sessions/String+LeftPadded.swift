extension String {
    /// The text with zeros before it up to `length` characters (hex digits of a fixed width).
    package func leftPadded(to length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}
