/// Result of ``BoardStore/perform(operationID:fingerprint:_:)``.
public struct OperationResult: Sendable, Equatable {
    /// The response the operation's body returned (stored for replays).
    public var response: String
    /// The board version after the operation (unchanged for a no-op).
    public var version: Int
    /// `true` when this is a retry answered from the stored response.
    public var replayed: Bool
    /// Other boards that rows left in this operation (moved to this board), with their new
    /// versions: their viewers must hear of it. Empty for a replay.
    public var departures: [Departure]

    public init(response: String, version: Int, replayed: Bool, departures: [Departure] = []) {
        self.response = response
        self.version = version
        self.replayed = replayed
        self.departures = departures
    }

    /// Rows that left a board for another one in an operation.
    public struct Departure: Sendable, Equatable {
        public var board: String
        /// The board's version after the operation.
        public var version: Int
        public var items: [String]
    }
}

/// An operation's record as stored: what a retry of it is answered with.
package struct OperationRecord: Sendable, Equatable {
    package var fingerprint: String
    package var response: String
    package var version: Int

    package init(fingerprint: String, response: String, version: Int) {
        self.fingerprint = fingerprint
        self.response = response
        self.version = version
    }

    /// Where a transaction keeps the record of operation `id` it read (an `OperationRecord?`).
    package static func memoKey(_ id: String) -> MemoKey { MemoKey("operation " + id) }

    /// The record of operation `id`, if it committed.
    static func read(_ id: String, _ db: any SQLConnection) throws -> OperationRecord? {
        try db.cachedStatement(sql: "SELECT fingerprint, response, version FROM operation WHERE id = ?").row(arguments: [id]).map {
            OperationRecord(fingerprint: $0[0], response: $0[1], version: $0[2])
        }
    }
}
