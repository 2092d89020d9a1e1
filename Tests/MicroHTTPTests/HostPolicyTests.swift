@testable import MicroHTTP
import Testing

/// `HostPolicy.allows` checks ASCII `Host` values in place, without the strings of the reference rule
/// (trim, lower-case, `normalized`, look up); both must agree on every value.
@Suite struct HostPolicyTests {
    static let values: [String] = [
        "localhost", "LOCALHOST", "LocalHost:8080", "localhost.", "localhost..", "localhost.:80", " localhost\t",
        "127.0.0.1", "127.0.0.1:65535", "127.0.0.1:123456", "127.0.0.1:", "127.0.0.1:8a", "127.0.0.1:80:80",
        "[::1]", "[::1]:80", "[::1]x", "[::1", "::1", "[::1]:", "[::1]:123456", "[]", "[", "]",
        "board.example", "Board.Example:443", "board.example.", "board.example.evil", "evil.example",
        "", " ", ":80", ".", ".:80", "local host", "localhost@evil", "user@localhost", "local/host", "localhost\u{0B}",
        "localhost\r", "localhost\u{1F}", "lÖcalhost", "localhost\u{A0}", "board.example\u{200B}", "[::1]\u{A0}",
        "dragboard.lan", "DRAGBOARD.LAN:1", "0.0.0.0", "my-machine",
    ]

    @Test(arguments: [("127.0.0.1", ["Board.Example"]), ("0.0.0.0", ["dragboard.lan", "lÖcal"]), ("::1", [])])
    func inPlaceCheckAgreesWithTheReferenceRule(host: String, allowed: [String]) {
        let policy = HostPolicy(host: host, allowedHosts: allowed)
        for value in Self.values {
            #expect(policy.allows(value) == policy.allowsByNormalizing(value), "\(value.debugDescription)")
        }
        #expect(policy.allows("localhost:80"))
        #expect(!policy.allows("evil.example"))
    }
}
