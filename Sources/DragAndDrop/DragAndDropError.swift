/// Everything the engine can refuse.
public enum DragAndDropError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Data was requested outside perform-drop: like UIKit, items are promises until the drop.
    case dataNotAvailable
    /// No representation can be read as the requested class.
    case noMatchingRepresentation
    /// A representation's bytes are not what its type claims.
    case unreadableData(TypeIdentifier)
    /// An event named a target the engine was not given.
    case unknownTarget(DropTargetID)
    /// An event arrived after the session ended, or a second drop.
    case sessionEnded
    /// A destination outside the list.
    case destinationOutOfRange(Int, rowCount: Int)

    public var description: String {
        switch self {
        case .dataNotAvailable: "data can be loaded only while a drop is performed"
        case .noMatchingRepresentation: "no representation of the requested type"
        case .unreadableData(let type): "the dropped \(type) data is not readable"
        case .unknownTarget(let target): "unknown drop target \(target)"
        case .sessionEnded: "the session has ended"
        case .destinationOutOfRange(let row, let count): "destination row \(row) is outside 0...\(count)"
        }
    }
}
