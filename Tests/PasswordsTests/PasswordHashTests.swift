import Passwords
import Testing

@Suite struct PasswordHashTests {
    @Test func aHashIsArgon2idAndVerifiesOnlyItsPassword() throws {
        let hash = try PasswordHash.make("correct horse battery staple")
        #expect(hash.hasPrefix("$argon2id$"))
        #expect(!hash.contains("correct horse"))
        #expect(PasswordHash.verify("correct horse battery staple", against: hash))
        #expect(!PasswordHash.verify("correct horse battery stapler", against: hash))
        #expect(!PasswordHash.verify("", against: hash))
    }

    @Test func twoHashesOfOnePasswordDifferBySalt() throws {
        let first = try PasswordHash.make("same password")
        let second = try PasswordHash.make("same password")
        #expect(first != second)
        #expect(PasswordHash.verify("same password", against: first) && PasswordHash.verify("same password", against: second))
    }

    @Test func theDecoyMatchesNoPassword() {
        #expect(PasswordHash.decoy.hasPrefix("$argon2id$"))
        #expect(!PasswordHash.verify("", against: PasswordHash.decoy))
        #expect(!PasswordHash.verify("password", against: PasswordHash.decoy))
    }

    @Test func tokensAre256RandomBitsInHex() {
        let tokens = (0..<100).map { _ in PasswordHash.randomToken() }
        #expect(Set(tokens).count == 100)
        #expect(tokens.allSatisfy { $0.count == 64 && $0.allSatisfy(\.isHexDigit) && $0 == $0.lowercased() })
    }

    @Test func aGarbledHashVerifiesNothing() {
        #expect(!PasswordHash.verify("anything", against: "not a hash"))
        #expect(!PasswordHash.verify("anything", against: ""))
    }
}
