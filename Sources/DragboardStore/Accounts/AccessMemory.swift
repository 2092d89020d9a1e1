import Dragboard

/// What a server remembers of who may do what, at one ``AccessWatch`` epoch: all of it is
/// forgotten when the epoch moves. Only what was found is kept (an unknown sign-in token is asked
/// again each time: remembering guesses would cost memory, not save reads).
struct AccessMemory: Sendable {
    /// A sign-in as read, with its last use then.
    struct KnownSignIn: Sendable {
        var signIn: SignIn
        var lastSeen: Double
    }

    /// A board's title and someone's role on it (nil: not a member).
    struct KnownAccess: Sendable {
        var title: String
        var role: BoardRole?
    }

    /// Entries of each kind past which the memory starts again (bounded by count: each is small).
    static let capacity = 4_096

    private(set) var epoch = -1
    private(set) var hasNoAccounts = false
    private var signIns: [String: KnownSignIn] = [:]
    private var access: [String: KnownAccess] = [:]

    /// Forgets everything learnt before `epoch`; false for an answer older than what is kept (an
    /// answer read before the epoch last moved: never kept).
    private mutating func turn(to epoch: Int) -> Bool {
        if epoch < self.epoch { return false }
        if epoch > self.epoch { self = AccessMemory(epoch: epoch) }
        return true
    }

    init(epoch: Int = -1) {
        self.epoch = epoch
    }

    func signIn(digest: String, at epoch: Int) -> KnownSignIn? {
        epoch == self.epoch ? signIns[digest] : nil
    }

    func access(_ key: String, at epoch: Int) -> KnownAccess? {
        epoch == self.epoch ? access[key] : nil
    }

    func knowsNoAccounts(at epoch: Int) -> Bool {
        epoch == self.epoch && hasNoAccounts
    }

    mutating func keep(_ known: KnownSignIn, digest: String, at epoch: Int) {
        guard turn(to: epoch) else { return }
        if signIns.count >= Self.capacity { signIns.removeAll() }
        signIns[digest] = known
    }

    mutating func keep(_ known: KnownAccess, for key: String, at epoch: Int) {
        guard turn(to: epoch) else { return }
        if access.count >= Self.capacity { access.removeAll() }
        access[key] = known
    }

    mutating func keepNoAccounts(at epoch: Int) {
        guard turn(to: epoch) else { return }
        hasNoAccounts = true
    }

    /// Where a person's (nil: nobody signs in) access to a board is kept.
    static func accessKey(account: Account?, board: String) -> String {
        (account.map { $0.id + ($0.isAdmin ? " admin" : "") } ?? "") + "\u{1F}" + board
    }
}
