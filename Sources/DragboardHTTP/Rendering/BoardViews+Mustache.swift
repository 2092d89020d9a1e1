import Dragboard
import Mustache

// Direct child lookup instead of swift-mustache's Mirror reflection, which dominated render
// time (about 0.2 ms a row): templates name these fields, nothing else.

extension PageView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "csrf": csrf
        case "boardID": boardID
        case "boardTitle": boardTitle
        case "op": op
        case "listKinds": listKinds
        case "version": version
        case "groups": groups
        case "zones": zones.isEmpty ? nil : ZonesHTML(html: zones.joined())
        case "dragRecipes": dragRecipes
        case "readOnly": readOnly
        case "mayManage": mayManage
        case "who": who
        case "activity": activity
        case "labels": labels
        case "hasLabels": !labels.isEmpty
        case "boardColors": boardColors
        case "newLabelColors": SelectOption.palette(selected: .green)
        default: nil
        }
    }
}

/// The zones, rendered, for the page's zone group.
struct ZonesHTML: MustacheParent {
    var html: String
    func child(named name: String) -> Any? { name == "html" ? html : nil }
}

extension GroupView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "title": title
        case "lists": lists
        default: nil
        }
    }
}

extension ListView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "id": id
        case "title": title
        case "kind": kind
        case "rows": rows
        case "rowsHTML": rowsHTML
        case "optionsHTML": optionsHTML
        case "total": total
        case "moreHTML": moreHTML
        case "csrf": form.csrf
        case "boardID": form.boardID
        case "op": form.op
        default: nil
        }
    }
}

extension SelectOption: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "id": id
        case "title": title
        case "selected": selected
        default: nil
        }
    }
}

extension RowView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "id": id
        case "listID": listID
        case "kind": kind
        case "title": title
        case "detail": detail
        case "badges": badges
        case "drag": drag
        case "hasDrag": !drag.isEmpty
        default: nil
        }
    }
}

extension RowDetailView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "id": item.id
        case "kind": item.kind
        case "title": item.title
        case "count": total
        case "contents": contents.map { ContentView(id: $0.id, title: $0.title) }
        case "contentsList": contentsList
        default: kind.templateValue(named: name, of: item, contents: contents)
        }
    }

    struct ContentView: MustacheParent {
        var id: String
        var title: String
        func child(named name: String) -> Any? {
            switch name {
            case "id": id
            case "title": title
            default: nil
            }
        }
    }
}

extension ContentsListView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "id": id
        case "title": title
        case "rowsHTML": rowsHTML
        case "total": total
        case "moreHTML": moreHTML
        default: nil
        }
    }
}

extension ZoneView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "id": id
        case "images": images
        case "hasImages": !images.isEmpty
        case "text": text ?? ""
        case "hasText": text != nil
        default: nil
        }
    }
}

extension ZoneView.Image: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "id": id
        case "name": name
        default: nil
        }
    }
}

extension IndexView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "csrf": csrf
        case "boards": boards
        case "who": who
        case "colors": colors
        case "importOp": importOp
        default: nil
        }
    }
}

extension IndexView.Board: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "id": id
        case "title": title
        case "color": color
        case "lists": lists
        case "cards": cards
        case "oneList": oneList
        case "oneCard": oneCard
        case "changed": changed
        case "iso": iso
        case "when": when
        default: nil
        }
    }
}
