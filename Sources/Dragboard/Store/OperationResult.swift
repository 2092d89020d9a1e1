/// Result of ``BoardStore/perform(operationID:fingerprint:_:)``.
public struct OperationResult: Sendable, Equatable {
    /// The response the operation's body returned (stored for replays).
    public var response: String
    /// The board version after the operation (unchanged for a no-op).
    public var version: Int
    /// `true` when this is a retry answered from the stored response.
    public var replayed: Bool

    public init(response: String, version: Int, replayed: Bool) {
        self.response = response
        self.version = version
        self.replayed = replayed
    }
}
