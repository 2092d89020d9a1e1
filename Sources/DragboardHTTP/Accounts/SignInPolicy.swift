/// How people sign in: how long a sign-in lasts, how its cookie travels, and whether a server
/// with no accounts serves anyone.
public struct SignInPolicy: Sendable {
    /// Days a sign-in lasts without being used (`--session-days`).
    public var sessionDays = 30
    /// Marks the sign-in cookie `Secure` (`--secure-cookies`), for a server reached over HTTPS.
    public var secureCookies = false
    /// Whether, while no account exists, everyone is served without signing in. True only for a
    /// server bound to loopback: anywhere else a server with no account serves no one.
    public var openWithoutAccounts = true

    public init() {}

    /// The sign-in cookie's name.
    public static let cookieName = "dragboard_session"
}
