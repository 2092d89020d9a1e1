import Dragboard
import DragboardStore
import Foundation

struct PageView {
    var csrf: String
    var boardID: String
    var boardTitle: String
    /// A fresh operation id for each of the page's own forms (a plain form sends it back once).
    var op: String
    /// The list kinds a new list may be, the kit's Cards first.
    var listKinds: [SelectOption]
    var version: Int
    var groups: [GroupView]
    /// Each zone, rendered by its own template.
    var zones: [String]
    /// ``DragRecipes/json``: how the browser composes the representations of rows without `data-drag`.
    var dragRecipes: String
    /// The viewer may not change the board: its add, rename and delete controls are left out.
    var readOnly = false
    /// The viewer owns the board: its settings (rename, delete) are shown.
    var mayManage = true
    /// The signed-in person's bar (``BoardRenderer/who(_:board:csrf:)``), or a marker filled per viewer.
    var who = ""
    /// The newest changes, for the activity panel.
    var activity: [ActivityView] = []
    /// The board's labels, each with its forms' colour choices.
    var labels: [LabelView] = []
    /// The palette, the board's colour selected.
    var boardColors: [SelectOption] = []
}

/// A label in the board's labels menu.
struct LabelView {
    var id: String
    var name: String
    var color: String
    /// The palette, the label's colour selected.
    var colors: [SelectOption]

    init(_ label: BoardLabel) {
        id = label.id
        name = label.name
        color = label.color.rawValue
        colors = SelectOption.palette(selected: label.color)
    }
}

extension SelectOption {
    /// The palette's colours as a select's options, `selected` chosen.
    static func palette(selected: PaletteColor?) -> [SelectOption] {
        PaletteColor.allCases.map { SelectOption(id: $0.rawValue, title: $0.title, selected: $0 == selected) }
    }
}

struct GroupView {
    var title: String
    var lists: [ListView]
}

struct ListView {
    var id: String
    var title: String
    var kind: String
    /// How many rows the list holds; `rows` may be the first of them only.
    var total: Int
    var rows: [RowView]
    /// The rows, rendered (``BoardRenderer/rowsHTML(_:)``).
    var rowsHTML: String
    /// An `<option>` per row, for the rename form.
    var optionsHTML: String
    /// ``BoardRenderer/moreHTML(_:title:shown:total:)``: empty when every row is shown.
    var moreHTML: String
    /// The viewer's form token and a fresh operation id, for the list's own forms; rows
    /// rendered for every viewer carry neither and point at these forms by id.
    var form: FormContext
}

/// What a rendered form needs besides its fields.
struct FormContext {
    var csrf: String
    var boardID: String
    var op: String
}

/// An `<option>` of a form's `<select>`: a list kind of the new-list form, a role on the members page.
struct SelectOption {
    var id: String
    var title: String
    var selected: Bool
}

struct RowView {
    var id: String
    var listID: String
    var kind: String
    var title: String
    /// The row kind's detail template, rendered (escaped by it).
    var detail: String
    /// The card's badges (labels, due date, description, checklist), rendered.
    var badges = ""
    /// The public representations, in fidelity order, as `[[mime, data], …]` JSON for `dragstart`;
    /// empty for a row its kind's recipe covers (the browser composes them from the title).
    var drag: String
}

/// What a row kind's detail template sees.
struct RowDetailView {
    var item: BoardItem
    var kind: any ItemKind
    var contents: [BoardItem]
    /// How many rows the container holds (`contents` may be the first of them only).
    var total: Int
    /// The contents as a list of their own (``ItemKind/contentsDropDelegate(for:)``), rendered.
    var contentsList = ""
}

/// A container's contents as a list of their own: a drop target named by the container's id.
struct ContentsListView {
    var id: String
    var title: String
    var total: Int
    /// The rows, rendered (``BoardRenderer/rowsHTML(_:)``).
    var rowsHTML: String
    var moreHTML: String
}

/// A zone's content, as its template sees it.
struct ZoneView {
    struct Image { var id: String; var name: String }

    var id: String
    var template: String
    var images: [Image]
    var text: String?

    init(_ zone: any ZoneKind, _ tx: BoardTransaction) throws {
        id = zone.id
        template = zone.template
        images = try tx.images(in: zone.id).map { Image(id: $0.id, name: $0.name) }
        text = try tx.label(zone.id)
    }
}

/// The board index: every board, newest activity first.
struct IndexView {
    /// A board's tile: its title, colour, counts and when it last changed.
    struct Board {
        var id: String
        var title: String
        var color: String
        var lists: Int
        var cards: Int
        var oneList: Bool
        var oneCard: Bool
        /// Whether it changed since it was made: a kit's seeded board has not, and has no date to show.
        var changed: Bool
        var iso: String
        var when: String

        init(_ board: BoardRecord, counts: (lists: Int, cards: Int)) {
            id = board.id
            title = board.title
            color = board.color.rawValue
            (lists, cards) = counts
            (oneList, oneCard) = (counts.lists == 1, counts.cards == 1)
            changed = board.activity > 0
            (iso, when) = ActivityView.shown(Date(timeIntervalSince1970: board.activity))
        }
    }

    var csrf: String
    var boards: [Board]
    /// The palette for a new board, the default chosen.
    var colors = SelectOption.palette(selected: .boardDefault)
    /// The signed-in person's bar.
    var who = ""
    /// The operation id the import form sends, so a form sent twice imports once.
    var importOp = UUID().uuidString.lowercased()
}
