import DragAndDrop
import Dragboard
import Foundation
import Mustache

/// Renders the board from `Templates/` with swift-mustache; every value is HTML-escaped.
///
/// The kit's templates are `index`, `page`, `list` and `row`; a row kind may add a detail template
/// (rendered inside its rows) and every zone has its own.
public struct BoardRenderer: Sendable {
    let library: MustacheLibrary
    /// The kinds whose rows and zones this renderer draws.
    public let kit: BoardKit
    /// How the browser composes most rows' representations at `dragstart` (see ``DragRecipes``).
    let recipes: DragRecipes
    /// The `row` template compiled, when it uses only the row's fields (see ``RowTemplate``).
    let rowTemplate: RowTemplate?

    /// Loads every `*.mustache` template of `directory`, and checks that the kit's kinds and
    /// zones find theirs.
    ///
    /// `staticFiles`: where the page's static files are served. Templates name them as
    /// `"/static/app.css"`; with the versioned prefix of ``MicroHTTP/StaticFiles/version``
    /// (`/static/<version>`) every such reference is rewritten once, here, so pages ask for files
    /// the browser may keep for good.
    public init(templatesDirectory directory: String, kit: BoardKit, staticFiles: String = "/static") async throws {
        library = try Self.library(directory, staticFiles: staticFiles)
        self.kit = kit
        recipes = DragRecipes(kit: kit)
        rowTemplate = (try? String(contentsOfFile: directory + "/row.mustache", encoding: .utf8)).flatMap(RowTemplate.init(source:))
        let names = ["index", "page", "list", "row", "move", "login", "members", "who", "activity", "card", "notice", "confirm"] + (kit.contentsListKinds.isEmpty ? [] : ["contents"]) + kit.itemKinds.compactMap(\.detailTemplate) + kit.zones.map(\.template)
        for name in names where library.getTemplate(named: name) == nil {
            throw DragboardError.notFound("template \(name).mustache is missing from \(directory)")
        }
    }

    /// The templates of `directory`, each named by its file name without `.mustache`.
    private static func library(_ directory: String, staticFiles: String) throws -> MustacheLibrary {
        var library = MustacheLibrary()
        for name in try FileManager.default.contentsOfDirectory(atPath: directory).sorted() where name.hasSuffix(".mustache") {
            let source = try String(contentsOfFile: directory + "/" + name, encoding: .utf8)
            try library.register(source.replacingOccurrences(of: "\"/static/", with: "\"\(staticFiles)/"), named: String(name.dropLast(".mustache".count)))
        }
        return library
    }

    /// The board index.
    func index(_ boards: [BoardRecord], counts: [String: (lists: Int, cards: Int)] = [:], csrf: String, who: String = "") -> String {
        library.render(IndexView(csrf: csrf, boards: boards.map { .init($0, counts: counts[$0.id] ?? (0, 0)) }, who: who), withTemplate: "index") ?? ""
    }

    /// A board's whole page; every form gets `op` (a fresh operation id each when `nil`).
    func page(_ board: BoardRecord, _ snapshot: BoardSnapshot, zones: [ZoneView], csrf: String, op: String? = nil,
              role: BoardRole = .owner, who: String = "", activity: [Activity] = []) -> String {
        var remaining = snapshot.lists
        var groups = kit.groups.map { group -> GroupView in
            let taken = remaining.filter { group.listKinds?.contains($0.kind) ?? true }
            remaining.removeAll { group.listKinds?.contains($0.kind) ?? true }
            return GroupView(title: group.title, lists: taken.map { listView($0, in: snapshot, board: board.id, csrf: csrf, op: op) })
        }
        if !remaining.isEmpty {   // lists no group takes still show, last
            groups.append(GroupView(title: "Lists", lists: remaining.map { listView($0, in: snapshot, board: board.id, csrf: csrf, op: op) }))
        }
        // A group with no list shows nothing (a kit's "Cats" heading on a board of plain cards).
        groups.removeAll { $0.lists.isEmpty }
        if groups.isEmpty { groups.append(GroupView(title: "Lists", lists: [])) }   // where a first list goes
        let kinds = ([CardsList.id] + kit.listKinds.map(\.id).filter { $0 != CardsList.id }).compactMap { kit.listKind($0) }
        let page = PageView(csrf: csrf, boardID: board.id, boardTitle: board.title, op: op ?? BoardService.newID(),
                            listKinds: kinds.map { SelectOption(id: $0.id, title: $0.title, selected: $0.id == CardsList.id) }, version: snapshot.version, groups: groups, zones: zones.map { zone($0) }, dragRecipes: recipes.json,
                            readOnly: !role.mayEdit, mayManage: role == .owner, who: who, activity: activity.map(ActivityView.init),
                            labels: snapshot.labels.all.map(LabelView.init), boardColors: SelectOption.palette(selected: board.color))
        return library.render(page, withTemplate: "page") ?? ""
    }

    /// One list of `board`, as swapped in by the browser after a resync, with the forms of the
    /// viewer holding `csrf` (and `op`, or a fresh operation id, for its forms).
    /// `rows` and `contents` may be the first rows only: `total` tells each list's and
    /// container's whole count (the rendered count when it returns nil).
    public func list(_ list: ListRecord, rows: [ItemRecord], contents: (String) -> [ItemRecord], total: (String) -> Int? = { _ in nil },
                     board: String, csrf: String, op: String? = nil, labels: BoardLabels = BoardLabels()) -> String {
        library.render(listView(list, rows: rows, contents: contents, total: total, board: board, csrf: csrf, op: op, labels: labels), withTemplate: "list") ?? ""
    }

    /// One list of a (windowed) snapshot, as swapped in by the browser after a resync.
    func list(_ list: ListRecord, in snapshot: BoardSnapshot, board: String, csrf: String, op: String? = nil) -> String {
        library.render(listView(list, in: snapshot, board: board, csrf: csrf, op: op), withTemplate: "list") ?? ""
    }

    /// One row, as inserted by the browser after a drop; `contents` are a container's rows (it
    /// shows the first ``BoardKit/rowWindow`` of them).
    public func row(_ item: ItemRecord, contents: [ItemRecord], labels: BoardLabels = BoardLabels()) -> String {
        // Through the compiled row template where it applies, as a page's rows are: a drop's answer
        // renders its rows on every drop.
        rowsHTML([rowView(item, contents: Array(contents.prefix(kit.rowWindow)), total: contents.count, labels: labels)])
    }

    /// Rows following others in a list or container, as the browser appends them while a list scrolls.
    func rows(_ items: [ItemRecord], contents: (String) -> [ItemRecord], total: (String) -> Int?, labels: BoardLabels) -> String {
        rowsHTML(items.map { rowView($0, contents: kit.isContainer($0.kind) ? contents($0.id) : [], total: total($0.id), labels: labels) })
    }

    /// One drop zone, as swapped in by the browser after a drop on it.
    func zone(_ zone: ZoneView) -> String {
        library.render(zone, withTemplate: zone.template) ?? ""
    }

    func listView(_ list: ListRecord, in snapshot: BoardSnapshot, board: String, csrf: String, op: String? = nil) -> ListView {
        listView(list, rows: snapshot.rows(in: list.id), contents: snapshot.contents(of:), total: snapshot.rowCount(of:), board: board, csrf: csrf, op: op,
                 labels: snapshot.labels)
    }

    func listView(_ list: ListRecord, rows: [ItemRecord], contents: (String) -> [ItemRecord], total: (String) -> Int?,
                  board: String, csrf: String, op: String? = nil, labels: BoardLabels = BoardLabels()) -> ListView {
        let rows = rows.map { rowView($0, contents: kit.isContainer($0.kind) ? contents($0.id) : [], total: total($0.id), labels: labels) }
        let count = total(list.id) ?? rows.count
        return ListView(id: list.id, title: list.title, kind: list.kind, total: count, rows: rows, rowsHTML: rowsHTML(rows), optionsHTML: optionsHTML(rows),
                        moreHTML: moreHTML(list.id, title: list.title, shown: rows.count, total: count),
                        form: FormContext(csrf: csrf, boardID: board, op: op ?? BoardService.newID()))
    }

    /// `contents` may be the first rows of a container only; `total` is then its whole count.
    func rowView(_ record: ItemRecord, contents: [ItemRecord], total: Int? = nil, labels: BoardLabels = BoardLabels()) -> RowView {
        let item = BoardItem(record)
        let kind = kit.itemKind(item.kind)
        var detail = ""
        if let template = kind.detailTemplate {
            let count = total ?? contents.count
            var view = RowDetailView(item: item, kind: kind, contents: contents.map(BoardItem.init), total: count)
            if kit.hasContentsList(item.kind) {
                // Rows inside render as rows (one level: what a container holds is shown flat).
                let list = ContentsListView(id: item.id, title: item.title, total: count, rowsHTML: rowsHTML(contents.map { rowView($0, contents: [], labels: labels) }),
                                            moreHTML: moreHTML(item.id, title: item.title, shown: contents.count, total: count))
                view.contentsList = library.render(list, withTemplate: "contents") ?? ""
            }
            detail = library.render(view, withTemplate: template) ?? ""
            while detail.last?.isNewline == true { detail.removeLast() }
        }
        return RowView(id: item.id, listID: record.listID, kind: item.kind, title: item.title, detail: detail,
                       badges: badges(of: record, labels: labels), drag: recipes.covers(record) ? "" : dragData(item))
    }

    /// One row through swift-mustache's `row` template.
    func mustacheRow(_ row: RowView) -> String {
        library.render(row, withTemplate: "row") ?? ""
    }

    /// The rows of a list, one after another, as `{{#rows}}{{> row}}{{/rows}}` renders them.
    func rowsHTML(_ rows: [RowView]) -> String {
        guard let rowTemplate else { return rows.map(mustacheRow).joined() }
        var out: [UInt8] = []
        out.reserveCapacity(rows.count * 640)
        for row in rows { rowTemplate.render(row, into: &out) }
        return String(decoding: out, as: UTF8.self)
    }

    /// The "Show more" link after a list's first rows, when it has more: without JavaScript it
    /// loads the page with a wider window for that list (a relative link keeps the board's
    /// address); with JavaScript it is also where the next rows load from (`paging.js`).
    func moreHTML(_ id: String, title: String, shown: Int, total: Int) -> String {
        guard shown < total else { return "" }
        var out: [UInt8] = []
        out.append(contentsOf: #"<a class="show-more" data-show-more href="?list="#.utf8)
        RowTemplate.escape(id, into: &out)
        out.append(contentsOf: "&amp;rows=\(shown + kit.rowWindow)#list-".utf8)
        RowTemplate.escape(id, into: &out)
        out.append(contentsOf: #"">Show more of "#.utf8)
        RowTemplate.escape(title, into: &out)
        out.append(contentsOf: #" <span class="show-more-count" data-shown>(\#(shown) of \#(total) shown)</span></a>"#.utf8)
        return String(decoding: out, as: UTF8.self)
    }

    /// Each row as an `<option>` of the list's rename form.
    func optionsHTML(_ rows: [RowView]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(rows.count * 64)
        for row in rows {
            out.append(contentsOf: #"<option value=""#.utf8)
            RowTemplate.escape(row.id, into: &out)
            out.append(contentsOf: #"">"#.utf8)
            RowTemplate.escape(row.title, into: &out)
            out.append(contentsOf: "</option>".utf8)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The public representations, in fidelity order, as `[[mime, data], …]` JSON for `dragstart`,
    /// for the rows no recipe covers.
    func dragData(_ item: BoardItem) -> String {
        let pairs = ((try? kit.itemProvider(for: item).publicRepresentations(in: kit.types)) ?? []).map { [$0.mimeType, String(decoding: $0.data, as: UTF8.self)] }
        return String(decoding: (try? JSONEncoder().encode(pairs)) ?? Data("[]".utf8), as: UTF8.self)
    }
}
