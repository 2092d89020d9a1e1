import DragAndDrop
import Foundation

/// A drop target that is not a list — UIKit's `UIDropInteraction` on any view — registered
/// with ``BoardKit``: an image well, a label, a trash can. The kit renders it from
/// ``template`` as an element with `data-zone="<id>"`, asks ``dropDelegate()`` about drops,
/// and lets ``performDrop(_:in:)`` store what was accepted inside the drop's transaction.
public protocol ZoneKind: Sendable {
    /// The zone's id on the page (`data-zone`) and in the store.
    var id: String { get }
    /// `Templates/<template>.mustache`, rendered with the zone's `id`, `images`, `hasImages`,
    /// `text` and `hasText`. Defaults to `zone-<id>`.
    var template: String { get }
    /// The zone's name in announcements and move-to menus. Defaults to its id, in words.
    var title: String { get }

    /// The delegate deciding drops on the zone.
    func dropDelegate() -> any DropZoneDelegate

    /// Stores what the delegate accepted (each placement's `content`) through `zone`, inside
    /// the drop's transaction: throwing rolls back everything, files included. Returns the
    /// sentence shown to whoever dropped.
    func performDrop(_ placements: [DropPlacement], in zone: inout ZoneWriter) throws -> String
}

extension ZoneKind {
    public var template: String { "zone-\(id)" }
    public var title: String {
        let words = String(id.map { $0 == "-" ? " " : $0 })
        return words.prefix(1).uppercased() + words.dropFirst()
    }
}
