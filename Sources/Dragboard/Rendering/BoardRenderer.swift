import DragAndDrop
import Foundation
import Mustache

/// Renders the board from `Templates/` with swift-mustache; every value is HTML-escaped.
public struct BoardRenderer: Sendable {
    let library: MustacheLibrary

    /// Loads every `*.mustache` template of `directory`.
    public init(templatesDirectory directory: String) async throws {
        library = try await MustacheLibrary(directory: directory)
        for name in ["page", "list", "row", "zone-image-well", "zone-label"] where library.getTemplate(named: name) == nil {
            throw DragboardError.notFound("template \(name).mustache is missing from \(directory)")
        }
    }

    /// The whole page.
    func page(_ snapshot: BoardSnapshot, zones: ZonesView, csrf: String) -> String {
        let lists = snapshot.lists.map { listView($0, rows: snapshot.rows(in: $0.id), contents: snapshot.contents(of:)) }
        let page = PageView(csrf: csrf, version: snapshot.version, zones: zones,
                            cats: lists.filter { $0.kind == ListKind.cat.rawValue }, others: lists.filter { $0.kind != ListKind.cat.rawValue })
        return library.render(page, withTemplate: "page") ?? ""
    }

    /// One list, as swapped in by the browser after a resync.
    public func list(_ list: ListRecord, rows: [ItemRecord], contents: (String) -> [ItemRecord]) -> String {
        library.render(listView(list, rows: rows, contents: contents), withTemplate: "list") ?? ""
    }

    /// One row, as inserted by the browser after a drop.
    public func row(_ item: ItemRecord, contents: [ItemRecord]) -> String {
        library.render(RowView(BoardItem(item), contents: contents), withTemplate: "row") ?? ""
    }

    /// One drop zone, as swapped in by the browser after a drop on it.
    func zone(_ id: String, _ zones: ZonesView) -> String {
        library.render(zones, withTemplate: "zone-\(id)") ?? ""
    }

    func listView(_ list: ListRecord, rows: [ItemRecord], contents: (String) -> [ItemRecord]) -> ListView {
        ListView(id: list.id, title: list.title, kind: list.kind,
                 rows: rows.map { RowView(BoardItem($0), contents: $0.kind == ItemKind.box.rawValue ? contents($0.id) : []) })
    }
}

struct PageView {
    var csrf: String
    var version: Int
    var zones: ZonesView
    var cats: [ListView]
    var others: [ListView]
}

struct ListView {
    var id: String
    var title: String
    var kind: String
    var rows: [RowView]
}

struct RowView {
    struct Content { var id: String; var title: String }

    var id: String
    var kind: String
    var title: String
    var hasAge: Bool
    var age: Int
    var isLink: Bool
    var url: String
    var isBox: Bool
    var count: Int
    var countLabel: String
    var contents: [Content]
    /// The public representations, in fidelity order, as `[[mime, data], …]` JSON for `dragstart`.
    var drag: String

    init(_ item: BoardItem, contents: [ItemRecord]) {
        id = item.id
        kind = item.kind.rawValue
        title = item.title
        hasAge = item.age != nil
        age = item.age ?? 0
        isLink = item.kind == .link
        url = item.url ?? ""
        isBox = item.kind == .box
        count = contents.count
        countLabel = contents.count == 1 ? "toy" : "toys"
        self.contents = contents.map { Content(id: $0.id, title: $0.title) }
        drag = Self.dragData(item)
    }

    static func dragData(_ item: BoardItem) -> String {
        let pairs = ((try? item.itemProvider.publicRepresentations(in: BoardTypes.registry)) ?? []).map { [$0.mimeType, String(decoding: $0.data, as: UTF8.self)] }
        return String(decoding: (try? JSONEncoder().encode(pairs)) ?? Data("[]".utf8), as: UTF8.self)
    }
}

/// The drop zones' content.
struct ZonesView {
    struct Image { var id: String; var name: String }

    var images: [Image]
    var label: String
    var hasLabel: Bool

    init(_ tx: BoardTransaction) throws {
        images = try tx.images(in: ImageWellDelegate.id).map { Image(id: $0.id, name: $0.name) }
        let text = try tx.label(LabelDelegate.id)
        label = text ?? ""
        hasLabel = text != nil
    }
}
