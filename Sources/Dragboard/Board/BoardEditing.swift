/// The board as an edit changes it, inside the edit's transaction: the port the domain's edits
/// write through (the store's transaction conforms).
package protocol BoardEditing: BoardWriting {
    /// The board the transaction works on.
    func board() throws -> BoardRecord
    func renameBoard(_ title: String) throws
    /// Deletes the board with its lists and rows.
    func deleteBoard() throws
    /// Adds a list at the end of the board; returns it as stored.
    func addList(_ list: ListRecord) throws -> ListRecord
    func renameList(_ listID: String, _ title: String) throws
    /// Deletes a list with its rows.
    func deleteList(_ listID: String) throws
    /// The row, if it is on this board.
    func itemOnBoard(_ id: String) throws -> ItemRecord
    func setTitle(_ id: String, _ title: String) throws
    /// Deletes rows (a container with its contents).
    func delete(_ ids: [String]) throws
    /// The stored images the rows of a list show.
    func imagesShown(inList listID: String) throws -> [String]
    /// Forgets the images of `ids` no row shows any more; returns those forgotten (their files may go).
    func forgetUnshownImages(_ ids: [String], zoneID: String) throws -> [String]
    func image(_ id: String) throws -> ZoneImageRecord?
    func removeImage(_ id: String) throws
}
