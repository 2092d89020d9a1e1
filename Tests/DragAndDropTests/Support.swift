import Foundation
import Synchronization
@testable import DragAndDrop

/// Records every delegate call, in order, across targets.
final class CallLog: Sendable {
    private let calls = Mutex<[String]>([])
    func record(_ call: String) { calls.withLock { $0.append(call) } }
    var all: [String] { calls.withLock { $0 } }
    func of(_ target: String) -> [String] {
        all.filter { $0.hasSuffix(" \(target)") }.map { String($0.prefix { $0 != " " }) }
    }
}

/// A list of strings whose drag side writes plain text, like the table sample.
struct TextDragDelegate: ListDragDelegate {
    var rows: [String]
    var allowsMove = true
    var context: String?
    var log: CallLog?

    func itemsForBeginning(_ session: inout DragSession, at indexPath: IndexPath, in list: ListTarget) -> [DragItem] {
        if let context { session.localContext = context }
        return [DragItem(itemProvider: ItemProvider(object: rows[indexPath.row]), localObject: rows[indexPath.row])]
    }
    func dragSessionAllowsMoveOperation(_ session: DragSession, in list: ListTarget) -> Bool { allowsMove }
    func dragSessionWillBegin(_ session: DragSession, in list: ListTarget) { log?.record("willBegin \(list.id)") }
    func dragSessionDidEnd(_ session: DragSession, in list: ListTarget, operation: DropOperation) {
        log?.record("didEnd(\(operation.rawValue)) \(list.id)")
    }
}

/// Apple's "Adopting drag and drop in a table view" rules.
struct PlacesDropDelegate: ListDropDelegate {
    var log: CallLog?

    func canHandle(_ session: DropSession, in list: ListTarget) -> Bool {
        log?.record("canHandle \(list.id)")
        return session.canLoadObjects(ofClass: String.self)
    }
    func dropSessionDidEnter(_ session: DropSession, in list: ListTarget) { log?.record("enter \(list.id)") }
    func dropSessionDidExit(_ session: DropSession, in list: ListTarget) { log?.record("exit \(list.id)") }
    func dropSessionDidEnd(_ session: DropSession, in list: ListTarget) { log?.record("end \(list.id)") }

    func dropSessionDidUpdate(_ session: DropSession, in list: ListTarget, withDestinationIndexPath destinationIndexPath: IndexPath?) -> DropProposal {
        log?.record("update \(list.id)")
        guard session.items.count == 1 else { return .cancel }
        let fromHere = session.localDragSession?.sourceList?.id == list.id
        return DropProposal(operation: fromHere ? .move : .copy, intent: .insertAtDestinationIndexPath)
    }

    func performDrop(in list: ListTarget, with coordinator: inout DropCoordinator) throws {
        log?.record("perform \(list.id)")
        let destination = coordinator.destinationIndexPath ?? IndexPath(row: list.rowCount)
        let strings = try coordinator.session.loadObjects(ofClass: String.self)
        for (offset, pair) in zip(coordinator.items, strings).enumerated() {
            coordinator.drop(pair.0, toRowAt: IndexPath(row: destination.row + offset), content: pair.1)
        }
    }
}

/// The Person custom type of the seeds: written as a custom type and as plain text.
struct Person: Codable, Hashable, ItemProviderWriting, ItemProviderReading {
    static let typeIdentifier: TypeIdentifier = "com.example.person"
    var name: String
    var age: Int

    static var writableTypeIdentifiers: [TypeIdentifier] { [typeIdentifier, .utf8PlainText] }
    static var readableTypeIdentifiers: [TypeIdentifier] { [typeIdentifier] }

    func data(forTypeIdentifier typeIdentifier: TypeIdentifier) throws -> Data {
        typeIdentifier == Self.typeIdentifier ? try JSONEncoder().encode(self) : Data("\(name) (\(age))".utf8)
    }
    static func object(withItemProviderData data: Data, typeIdentifier: TypeIdentifier) throws -> Person {
        try JSONDecoder().decode(Person.self, from: data)
    }
}

extension TypeRegistry {
    static let withPerson = TypeRegistry.standard.declaring(Person.typeIdentifier, conformingTo: [.data])
}

/// A decoded image: only PNG here, recognised by its magic bytes.
struct PNGImage: ItemProviderReading {
    var byteCount: Int
    static var readableTypeIdentifiers: [TypeIdentifier] { [.image] }
    static func object(withItemProviderData data: Data, typeIdentifier: TypeIdentifier) throws -> PNGImage {
        guard data.starts(with: [0x89, 0x50, 0x4E, 0x47]) else { throw DragAndDropError.unreadableData(typeIdentifier) }
        return PNGImage(byteCount: data.count)
    }
}

extension Data {
    static let tinyPNG = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0])
}

func targets(_ lists: [(String, Int, any ListDropDelegate)], zones: [(String, any DropZoneDelegate)] = []) -> DropTargets {
    var targets = DropTargets()
    for (id, count, delegate) in lists { targets.add(ListTarget(id: id, rowCount: count), delegate: delegate) }
    for (id, delegate) in zones { targets.add(ZoneTarget(id: id), delegate: delegate) }
    return targets
}

extension SessionEngine.DropAction {
    var result: SessionEngine.DropResult? {
        if case .perform(let result) = self { return result }
        return nil
    }
    var refused: DropProposal? {
        if case .refuse(let proposal) = self { return proposal }
        return nil
    }
}
