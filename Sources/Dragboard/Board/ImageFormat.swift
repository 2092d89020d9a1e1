import Foundation

/// The image formats the kit keeps, recognised by their magic bytes — never by the
/// name or the type a file claims.
public enum ImageFormat: String, Sendable, CaseIterable {
    case png = "image/png"
    case jpeg = "image/jpeg"
    case gif = "image/gif"
    case webp = "image/webp"

    /// The format of `header` (the file's first bytes), if it is one of ours.
    public init?(header: some Collection<UInt8>) {
        let bytes = Array(header.prefix(12))
        func starts(_ prefix: [UInt8]) -> Bool { bytes.starts(with: prefix) }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { self = .png }
        else if starts([0xFF, 0xD8, 0xFF]) { self = .jpeg }
        else if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { self = .gif }
        else if bytes.count >= 12, starts(Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) { self = .webp }
        else { return nil }
    }

    /// How many bytes identify a format.
    package static let headerLength = 12
}
