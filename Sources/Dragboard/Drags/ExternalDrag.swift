import DragAndDrop
import Foundation

/// A drag from another app or origin, as the domain sees it: the browser shows only types (and
/// the files' MIME types) before the drop, so its items are promises of those types, loaded from
/// the drop's payload only while the drop is performed.
package enum ExternalDrag {
    /// The items of such a drag: one per file (its bytes and its name, read from `payload`), then
    /// one holding every string type the registry knows (never the app's own row references,
    /// which only this server writes).
    package static func items(types: [String], files: [String], payload: DropPayload, registry: TypeRegistry) -> [DragItem] {
        var items: [DragItem] = []
        for (index, mimeType) in files.enumerated() {
            var provider = ItemProvider()
            let type = registry.typeIdentifier(forMIMEType: mimeType) ?? .data
            provider.registerFileRepresentation(forTypeIdentifier: type) { try payload.file(at: index).file }
            provider.registerDataRepresentation(forTypeIdentifier: UploadedFileName.typeIdentifier, visibility: .ownProcess) { progress in
                let name = Data(try payload.file(at: index).name.utf8)
                progress.complete(Int64(name.count))
                return name
            }
            items.append(DragItem(itemProvider: provider))
        }
        var strings = ItemProvider()
        for mimeType in types {
            let bare = mimeType.lowercased()
            guard let type = registry.typeIdentifier(forMIMEType: bare), type != BoardKit.itemReference else { continue }
            strings.registerDataRepresentation(forTypeIdentifier: type) { progress in
                guard let string = payload.string(for: bare) else { throw DragboardError.unprocessable("the drop carried no \(bare) data") }
                progress.complete(Int64(string.utf8.count))
                return Data(string.utf8)
            }
        }
        if !strings.representations.isEmpty { items.append(DragItem(itemProvider: strings)) }
        return items
    }
}
