import DragAndDrop
import Foundation

extension BoardKit {
    /// A row's representations, highest fidelity first: the server-only reference, what its
    /// kind registers (a custom type, a URL), HTML the server built and escaped, plain text.
    public func itemProvider(for item: BoardItem) -> ItemProvider {
        let kind = itemKind(item.kind)
        var provider = ItemProvider()
        provider.suggestedName = item.title
        provider.registerData(Data(item.id.utf8), forTypeIdentifier: Self.itemReference, visibility: .ownProcess)
        kind.registerRepresentations(of: item, in: &provider)
        // Built when loaded: a drop within the board reads the reference, not the HTML.
        provider.registerDataRepresentation(forTypeIdentifier: .html) { progress in
            let html = Data(kind.html(of: item).utf8)
            progress.complete(Int64(html.count))
            return html
        }
        provider.registerObject(kind.plainText(of: item))
        return provider
    }
}
