/// The board as a drop changes it, inside the operation's transaction: the port the domain's
/// operations write through (the store's transaction conforms), so they know no database.
package protocol BoardWriting: BoardReading {
    func lists() throws -> [ListRecord]
    func item(_ id: String) throws -> ItemRecord
    /// Reads the rows `ids` at once (a missing one as missing), so that asking for each of them
    /// by id in this operation costs nothing more: a drop names its dragged and hovered rows first.
    /// A row `indexed` names with a list comes with its place among that list's top-level rows (its
    /// index and the rows beside it: a drop lands beside the hovered row), a row `leaving` names
    /// with the rows beside it where a query is sent anyway (where a dragged row was, for undo).
    func prefetchItems(_ ids: [String], indexed: [String: String], leaving: [String: String]) throws
    /// The id of the top-level row at `index` of a list, or nil past its end.
    func rowID(at index: Int, inList listID: String) throws -> String?
    /// The row just before `id` in its list or container, or nil when it is first.
    func predecessor(of id: String) throws -> String?
    /// How many rows a list (`containerID` nil) or a container's contents hold.
    func rowCount(_ listID: String, _ containerID: String?) throws -> Int
    /// Moves rows, consecutively in the given order, to `placement`.
    func move(_ ids: [String], to placement: Placement) throws
    /// Copies rows (containers with their contents) to `placement`; returns the copies' ids.
    func copy(_ ids: [String], to placement: Placement) throws -> [String]
    /// Inserts new rows at `placement`; returns their ids.
    func insert(_ items: [NewItem], at placement: Placement) throws -> [String]
    /// Moves lists so that the first lands at `index` among the lists that stay.
    func moveLists(_ ids: [String], to index: Int) throws
    /// The index of a top-level row in its list, or nil when it is not there.
    func index(of id: String, in listID: String) throws -> Int?
    /// The index of a row among a container's contents, or nil when it is not there.
    func index(of id: String, inContainer containerID: String) throws -> Int?
    /// Who deleted the card titled `title` from this board, when a signed-in person did.
    func deleter(ofItemTitled title: String) throws -> String?
}

extension BoardWriting {
    /// The container row named `id`, when its contents are a list of their own on this board.
    /// An id that names one of the board's lists names that list (as a drop's target does), and no
    /// row is read for it: the lists are known, a missing row never is past the next change.
    package func contentsListContainer(_ id: String, kit: BoardKit) throws -> ItemRecord? {
        let lists = try lists()
        guard !lists.contains(where: { $0.id == id }), let item = try? item(id), item.containerID == nil,
              kit.hasContentsList(item.kind), lists.contains(where: { $0.id == item.listID }) else { return nil }
        return item
    }

    /// ``prefetchItems(_:indexed:leaving:)`` of the rows among `ids`: a list's id names no row to
    /// read (``contentsListContainer(_:kit:)``).
    package func prefetchRows(_ ids: [String], indexed: [String: String] = [:], leaving: [String: String] = [:]) throws {
        let lists = Set(try lists().map(\.id))
        try prefetchItems(ids.filter { !lists.contains($0) }, indexed: indexed, leaving: leaving)
    }

    /// The title and row count of a target list: a list of the board, or a container's contents.
    package func titledList(_ id: String, kit: BoardKit) throws -> (title: String, rowCount: Int)? {
        if let list = try lists().first(where: { $0.id == id }) { return (list.title, try rowCount(in: list.id)) }
        guard let container = try contentsListContainer(id, kit: kit) else { return nil }
        return (container.title, try rowCount(container.listID, container.id))
    }
}
