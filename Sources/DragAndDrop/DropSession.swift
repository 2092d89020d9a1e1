import Foundation

/// The destination side of a drag, like `UIDropSession`.
///
/// Types are visible during the whole hover; data only while a drop is performed.
public struct DropSession: Sendable {
    /// The items, in the order they should be placed.
    public let items: [DragItem]
    /// The drag session when the drag started in this app (same origin, any window); nil for
    /// drags from another app or origin — which can only be copied.
    public let localDragSession: DragSession?
    /// The type graph used for conformance questions.
    public let registry: TypeRegistry
    /// Whether the user holds the copy modifier (Alt on Linux and Windows, Option on macOS).
    public internal(set) var isCopyModifierPressed: Bool = false
    /// True only inside perform-drop, the one place data may be loaded.
    public internal(set) var isPerformingDrop: Bool = false
    /// Who drags and their roles, when the app knows people (see ``SessionEngine/setUser(_:)``).
    public internal(set) var user: DragUser?

    /// Every type some representation of some item conforms to: delegates ask
    /// ``hasItemsConforming(toTypeIdentifiers:)`` for every target of a proposal table, twice.
    private let conformances: Set<TypeIdentifier>

    public init(items: [DragItem], localDragSession: DragSession?, registry: TypeRegistry = .standard) {
        self.items = items
        self.localDragSession = localDragSession
        self.registry = registry
        var conformances: Set<TypeIdentifier> = []
        for item in items {
            for representation in item.itemProvider.representations {
                conformances.formUnion(registry.conformances(of: representation.typeIdentifier))
            }
        }
        self.conformances = conformances
    }

    /// Whether a move is possible at all: only inside the app that started the drag, and only when its delegate allows it.
    public var allowsMoveOperation: Bool { localDragSession?.allowsMoveOperation ?? false }

    /// True if at least one item has a representation conforming to one of `typeIdentifiers`.
    public func hasItemsConforming(toTypeIdentifiers typeIdentifiers: [TypeIdentifier]) -> Bool {
        typeIdentifiers.contains { conformances.contains($0) }
    }

    /// True if at least one item can be read as `Object`.
    public func canLoadObjects<Object: ItemProviderReading>(ofClass type: Object.Type) -> Bool {
        items.contains { $0.itemProvider.canLoadObject(ofClass: type, in: registry) }
    }

    /// Loads every item that can be read as `Object`, in item order.
    ///
    /// Available only while a drop is performed. `progress` receives the aggregate fraction
    /// (0…1) over all loaded items.
    public func loadObjects<Object: ItemProviderReading>(
        ofClass type: Object.Type, progress: @escaping @Sendable (Double) -> Void = { _ in }
    ) throws -> [Object] {
        guard isPerformingDrop else { throw DragAndDropError.dataNotAvailable }
        let loadable = items.compactMap { $0.itemProvider.representation(conformingTo: Object.readableTypeIdentifiers, in: registry) }
        let aggregate = AggregateProgress(count: loadable.count, report: progress)
        return try loadable.enumerated().map { index, representation in
            let data = try representation.load(LoadProgress { done, total in aggregate.update(index, done: done, total: total) })
            return try Self.read(Object.self, from: data, typeIdentifier: representation.typeIdentifier)
        }
    }
}

extension DropSession {
    /// Loads one item as `Object`, or nil when it has no such representation.
    /// Available only while a drop is performed, like `NSItemProvider.loadObject(ofClass:)` in perform-drop.
    public func loadObject<Object: ItemProviderReading>(ofClass type: Object.Type, from item: DropItem, progress: LoadProgress = LoadProgress()) throws -> Object? {
        guard isPerformingDrop else { throw DragAndDropError.dataNotAvailable }
        guard let representation = item.dragItem.itemProvider.representation(conformingTo: Object.readableTypeIdentifiers, in: registry) else { return nil }
        let data = try representation.load(progress)
        return try Self.read(Object.self, from: data, typeIdentifier: representation.typeIdentifier)
    }

    /// Data that does not decode as the type it claims (a person that is not JSON, from another
    /// app) is unreadable, as a failed `loadObject` is in UIKit: never an unexplained failure.
    static func read<Object: ItemProviderReading>(_ type: Object.Type, from data: Data, typeIdentifier: TypeIdentifier) throws -> Object {
        do {
            return try Object.object(withItemProviderData: data, typeIdentifier: typeIdentifier)
        } catch is DecodingError {
            throw DragAndDropError.unreadableData(typeIdentifier)
        }
    }
}

extension DropSession {
    /// The file behind an item's representation conforming to `typeIdentifier`, without reading
    /// it into memory, like `loadFileRepresentation(forTypeIdentifier:)`; nil when the item has
    /// no file-backed representation of that type. Available only while a drop is performed.
    public func loadFileRepresentation(forTypeIdentifier typeIdentifier: TypeIdentifier, from item: DropItem) throws -> (url: URL, typeIdentifier: TypeIdentifier)? {
        guard isPerformingDrop else { throw DragAndDropError.dataNotAvailable }
        let candidates = item.dragItem.itemProvider.representations.filter { registry.conforms($0.typeIdentifier, to: typeIdentifier) }
        guard let representation = candidates.first(where: { $0.fileLoader != nil }), let loader = representation.fileLoader else { return nil }
        return (try loader(), representation.typeIdentifier)
    }
}
