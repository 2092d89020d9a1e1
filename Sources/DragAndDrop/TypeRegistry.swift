/// The conformance graph of type identifiers and their two-way mapping to MIME types.
///
/// ``standard`` declares the public types UIKit apps rely on. Apps add their own types
/// with ``declaring(_:conformingTo:mimeType:)``, which returns a new registry: a registry
/// is an immutable value, so it can be shared freely between threads.
///
/// ```swift
/// let registry = TypeRegistry.standard.declaring("com.example.person", conformingTo: [.data])
/// registry.conforms("com.example.person", to: .data)   // true
/// registry.mimeType(for: "com.example.person")         // "application/x-com.example.person+json"
/// ```
public struct TypeRegistry: Sendable {
    struct Declaration: Sendable {
        var parents: [TypeIdentifier]
        var mimeTypes: [String]
    }

    private var declarations: [TypeIdentifier: Declaration] = [:]
    private var identifiersByMIMEType: [String: TypeIdentifier] = [:]
    /// Everything each declared type conforms to, directly or not: conformance questions are
    /// asked per row of a proposal table, so they are answered by lookup, not by graph walks.
    private var ancestors: [TypeIdentifier: Set<TypeIdentifier>] = [:]

    /// An empty registry: every identifier conforms only to itself.
    public init() {}

    /// Declares `identifier`, returning a registry that knows it.
    /// - Parameters:
    ///   - identifier: the new type.
    ///   - parents: the types it conforms to directly.
    ///   - mimeType: how it travels in a browser's DataTransfer; custom types default to
    ///     `application/x-<identifier>+json`.
    public func declaring(
        _ identifier: TypeIdentifier, conformingTo parents: [TypeIdentifier], mimeType: String? = nil
    ) -> TypeRegistry {
        var copy = self
        copy.declare(identifier, conformingTo: parents, mimeTypes: [mimeType ?? "application/x-\(identifier.rawValue)+json"])
        return copy
    }

    mutating func declare(_ identifier: TypeIdentifier, conformingTo parents: [TypeIdentifier], mimeTypes: [String]) {
        declarations[identifier] = Declaration(parents: parents, mimeTypes: mimeTypes)
        for mime in mimeTypes where identifiersByMIMEType[mime] == nil {
            identifiersByMIMEType[mime] = identifier
        }
        ancestors = Dictionary(uniqueKeysWithValues: declarations.keys.map { ($0, walkAncestors(of: $0)) })
    }

    private func walkAncestors(of identifier: TypeIdentifier) -> Set<TypeIdentifier> {
        var found: Set<TypeIdentifier> = []
        var pending = declarations[identifier]?.parents ?? []
        while let next = pending.popLast() {
            if found.insert(next).inserted {
                pending += declarations[next]?.parents ?? []
            }
        }
        return found
    }

    /// True when `identifier` equals `other` or conforms to it directly or indirectly.
    public func conforms(_ identifier: TypeIdentifier, to other: TypeIdentifier) -> Bool {
        identifier == other || ancestors[identifier]?.contains(other) == true
    }

    /// `identifier` and every type it conforms to.
    public func conformances(of identifier: TypeIdentifier) -> Set<TypeIdentifier> {
        (ancestors[identifier] ?? []).union([identifier])
    }

    /// True when `identifier` conforms to at least one of `others`.
    public func conforms(_ identifier: TypeIdentifier, toAnyOf others: [TypeIdentifier]) -> Bool {
        others.contains { conforms(identifier, to: $0) }
    }

    /// The preferred MIME type of `identifier`, if it has one.
    public func mimeType(for identifier: TypeIdentifier) -> String? {
        declarations[identifier]?.mimeTypes.first
    }

    /// The type a browser's MIME type stands for. Parameters (`;charset=…`) are ignored.
    public func typeIdentifier(forMIMEType mimeType: String) -> TypeIdentifier? {
        let bare = mimeType.split(separator: ";").first.map { $0.trimmingWhitespace().lowercased() } ?? ""
        return identifiersByMIMEType[bare]
    }
}

extension TypeRegistry {
    /// The public types: text, HTML, URLs, JSON and the common image formats.
    public static let standard: TypeRegistry = {
        var registry = TypeRegistry()
        registry.declare(.item, conformingTo: [], mimeTypes: [])
        registry.declare(.content, conformingTo: [.item], mimeTypes: [])
        registry.declare(.data, conformingTo: [.item], mimeTypes: ["application/octet-stream"])
        registry.declare(.text, conformingTo: [.data, .content], mimeTypes: [])
        registry.declare(.plainText, conformingTo: [.text], mimeTypes: ["text/plain"])
        registry.declare(.utf8PlainText, conformingTo: [.plainText], mimeTypes: ["text/plain"])
        registry.declare(.html, conformingTo: [.text], mimeTypes: ["text/html"])
        registry.declare(.json, conformingTo: [.text], mimeTypes: ["application/json"])
        registry.declare(.url, conformingTo: [.data], mimeTypes: ["text/uri-list"])
        registry.declare(.fileURL, conformingTo: [.url], mimeTypes: [])
        registry.declare(.image, conformingTo: [.data, .content], mimeTypes: [])
        registry.declare(.png, conformingTo: [.image], mimeTypes: ["image/png"])
        registry.declare(.jpeg, conformingTo: [.image], mimeTypes: ["image/jpeg"])
        registry.declare(.gif, conformingTo: [.image], mimeTypes: ["image/gif"])
        registry.declare(.webP, conformingTo: [.image], mimeTypes: ["image/webp"])
        return registry
    }()
}

extension Substring {
    func trimmingWhitespace() -> Substring {
        var slice = self
        while slice.first?.isWhitespace == true { slice.removeFirst() }
        while slice.last?.isWhitespace == true { slice.removeLast() }
        return slice
    }
}
