import Foundation

/// A promise of typed representations of one dragged thing, like `NSItemProvider`.
///
/// Representations are kept in registration order, first = highest fidelity. Each has a
/// ``Visibility``: ``Visibility/all`` may leave the app through the browser's DataTransfer,
/// ``Visibility/ownProcess`` is only ever held by the server. Data is produced lazily by a
/// load handler and can be loaded only while a drop is performed (see ``DropSession``).
public struct ItemProvider: Sendable {
    /// Who may see a representation.
    public enum Visibility: String, Sendable, Codable, Hashable {
        /// Any app: the browser may carry it out of the page.
        case all
        /// Only the app that created it: it never reaches the browser's DataTransfer.
        case ownProcess
    }

    /// Produces a representation's bytes, reporting progress as it goes.
    public typealias LoadHandler = @Sendable (_ progress: LoadProgress) throws -> Data

    /// One registered representation.
    public struct Representation: Sendable {
        public let typeIdentifier: TypeIdentifier
        public let visibility: Visibility
        let load: LoadHandler
        let fileURL: URL?
        let fileLoader: (@Sendable () throws -> URL)?

        /// Whether the representation is a file (on disk or promised), rather than bytes in memory.
        public var isFile: Bool { fileLoader != nil }
    }

    /// Registered representations, highest fidelity first.
    public private(set) var representations: [Representation] = []
    /// A name for the item, as offered by the source (a file name, a title).
    public var suggestedName: String?

    public init() {}

    /// Registers a lazily produced representation. A type registered twice keeps its first registration.
    public mutating func registerDataRepresentation(
        forTypeIdentifier typeIdentifier: TypeIdentifier,
        visibility: Visibility = .all,
        loadHandler: @escaping LoadHandler
    ) {
        guard !representations.contains(where: { $0.typeIdentifier == typeIdentifier }) else { return }
        representations.append(Representation(typeIdentifier: typeIdentifier, visibility: visibility, load: loadHandler, fileURL: nil, fileLoader: nil))
    }

    /// Registers bytes that already exist.
    public mutating func registerData(_ data: Data, forTypeIdentifier typeIdentifier: TypeIdentifier, visibility: Visibility = .all) {
        registerDataRepresentation(forTypeIdentifier: typeIdentifier, visibility: visibility) { progress in
            progress.complete(Int64(data.count))
            return data
        }
    }

    /// Registers a representation backed by a file on disk; ``loadFileRepresentation(forTypeIdentifier:)``
    /// hands out the file itself so large payloads are never held in memory.
    public mutating func registerFileRepresentation(
        forTypeIdentifier typeIdentifier: TypeIdentifier, fileURL: URL, visibility: Visibility = .all
    ) {
        guard !representations.contains(where: { $0.typeIdentifier == typeIdentifier }) else { return }
        let load: LoadHandler = { progress in
            let data = try Data(contentsOf: fileURL)
            progress.complete(Int64(data.count))
            return data
        }
        representations.append(Representation(typeIdentifier: typeIdentifier, visibility: visibility, load: load, fileURL: fileURL, fileLoader: { fileURL }))
    }

    /// Registers a file that does not exist yet — a promise, like an upload that arrives with
    /// the drop. `fileLoader` is called only while the drop is performed.
    public mutating func registerFileRepresentation(
        forTypeIdentifier typeIdentifier: TypeIdentifier, visibility: Visibility = .all,
        fileLoader: @escaping @Sendable () throws -> URL
    ) {
        guard !representations.contains(where: { $0.typeIdentifier == typeIdentifier }) else { return }
        let load: LoadHandler = { progress in
            let data = try Data(contentsOf: try fileLoader())
            progress.complete(Int64(data.count))
            return data
        }
        representations.append(Representation(typeIdentifier: typeIdentifier, visibility: visibility, load: load, fileURL: nil, fileLoader: fileLoader))
    }

    /// Registered type identifiers in fidelity order.
    public var registeredTypeIdentifiers: [TypeIdentifier] { representations.map(\.typeIdentifier) }

    /// The type identifiers visible at `visibility`: `.all` leaves out `ownProcess` representations.
    public func registeredTypeIdentifiers(visibleAt visibility: Visibility) -> [TypeIdentifier] {
        representations.filter { visibility == .ownProcess || $0.visibility == .all }.map(\.typeIdentifier)
    }

    /// True if some representation conforms to `typeIdentifier` (conformance, not equality).
    public func hasItemConforming(toTypeIdentifier typeIdentifier: TypeIdentifier, in registry: TypeRegistry) -> Bool {
        representations.contains { registry.conforms($0.typeIdentifier, to: typeIdentifier) }
    }

    /// The highest-fidelity representation conforming to one of `typeIdentifiers`.
    func representation(conformingTo typeIdentifiers: [TypeIdentifier], in registry: TypeRegistry) -> Representation? {
        representations.first { registry.conforms($0.typeIdentifier, toAnyOf: typeIdentifiers) }
    }

    /// Loads a representation's bytes. Internal: apps load through ``DropSession`` during a drop.
    func loadData(_ representation: Representation, progress: LoadProgress) throws -> Data {
        try representation.load(progress)
    }

    /// The file behind a file-backed representation, without reading it.
    public func fileURL(forTypeIdentifier typeIdentifier: TypeIdentifier, in registry: TypeRegistry) -> URL? {
        representation(conformingTo: [typeIdentifier], in: registry)?.fileURL
    }
}

/// Progress of loading one representation, like `NSProgress`.
public final class LoadProgress: Sendable {
    private let report: @Sendable (Int64, Int64) -> Void

    /// - Parameter report: receives (completed, total) units; total is 0 while unknown.
    public init(report: @escaping @Sendable (Int64, Int64) -> Void = { _, _ in }) {
        self.report = report
    }

    /// Reports `completed` of `total` units.
    public func update(completed: Int64, total: Int64) { report(completed, total) }

    /// Reports that all `total` units are done.
    public func complete(_ total: Int64) { report(total, total) }
}

extension ItemProvider {
    /// The representations that may leave the app, as (MIME type, bytes) in fidelity order.
    ///
    /// This is the drag source writing its own data: the browser's DataTransfer can only be
    /// filled synchronously at drag start, so a server pre-renders what a row offers.
    /// `ownProcess` representations and types without a MIME type are never included.
    public func publicRepresentations(in registry: TypeRegistry) throws -> [(mimeType: String, data: Data)] {
        try representations.compactMap { representation in
            guard representation.visibility == .all, let mimeType = registry.mimeType(for: representation.typeIdentifier) else { return nil }
            return (mimeType, try representation.load(LoadProgress()))
        }
    }
}
