import Dragboard

/// A transaction is the board the domain's operations read and write (``BoardReading``,
/// ``BoardWriting``, ``BoardEditing``): drop targets are built from it, drops land on it, edits change it.
extension BoardTransaction: BoardEditing {
    package func listRecords() throws -> [ListRecord] { try lists() }
    package func topRows(in listID: String) throws -> [ItemRecord] { try rows(in: listID) }
    package func rowCount(in listID: String, container containerID: String) throws -> Int { try rowCount(listID, containerID) }
    package func rowID(at index: Int, inList listID: String) throws -> String? {
        try rowBound(at: index, in: Gap(listID: listID, containerID: nil))?.id
    }
}
