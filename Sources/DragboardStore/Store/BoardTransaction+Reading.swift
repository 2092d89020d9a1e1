import Dragboard


/// A transaction reads the board the way the drop targets are built from it.
extension BoardTransaction: BoardReading {
    package func listRecords() throws -> [ListRecord] { try lists() }
    package func topRows(in listID: String) throws -> [ItemRecord] { try rows(in: listID) }
    package func rowCount(in listID: String, container containerID: String) throws -> Int { try rowCount(listID, containerID) }
}
