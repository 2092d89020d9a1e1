import CSodium

/// Argon2id password hashes from libsodium (`crypto_pwhash_str`), OWASP's first choice: the
/// stored string (`$argon2id$v=19$m=…,t=…,p=1$salt$hash`) carries its own salt and parameters,
/// so a later increase of the cost still verifies every hash made before it.
public enum PasswordHash {
    /// A new hash of `password` with a fresh random salt, at libsodium's interactive cost
    /// (2 passes over 64 MiB: about 0.1 s on one core).
    /// - Throws: ``PasswordHashError/outOfMemory`` when the 64 MiB cannot be had.
    public static func make(_ password: String) throws(PasswordHashError) -> String {
        precondition(sodiumReady)
        var output = [CChar](repeating: 0, count: csodium_pwhash_strbytes())
        let bytes = Self.cBytes(password)
        let status = crypto_pwhash_str(&output, bytes, UInt64(bytes.count - 1), csodium_pwhash_opslimit(), csodium_pwhash_memlimit())
        guard status == 0 else { throw .outOfMemory }
        return String(decoding: output.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether `password` is the one `hash` was made from (constant time in the password).
    public static func verify(_ password: String, against hash: String) -> Bool {
        precondition(sodiumReady)
        let bytes = Self.cBytes(password)
        return crypto_pwhash_str_verify(hash, bytes, UInt64(bytes.count - 1)) == 0
    }

    /// A hash no password matches, to verify against when a name is unknown: a wrong name then
    /// costs the same Argon2id run as a wrong password, and timing does not tell them apart.
    public static let decoy: String = (try? make(randomToken())) ?? "$argon2id$v=19$m=65536,t=2,p=1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"

    /// `bytes` random bytes from the kernel's generator, as lowercase hex: 32 bytes (256 bits)
    /// by default, a sign-in's token.
    public static func randomToken(bytes: Int = 32) -> String {
        precondition(sodiumReady)
        var buffer = [UInt8](repeating: 0, count: bytes)
        randombytes_buf(&buffer, bytes)
        return buffer.map { byte in
            let hex = String(byte, radix: 16)
            return hex.count == 1 ? "0" + hex : hex
        }.joined()
    }

    /// The password's UTF-8 bytes and a terminating NUL (never part of the length passed), so
    /// even an empty password has an address.
    private static func cBytes(_ password: String) -> [CChar] {
        password.utf8.map { CChar(bitPattern: $0) } + [0]
    }

    /// `sodium_init` once, before the first call (it is safe to call from several threads).
    private static let sodiumReady: Bool = sodium_init() >= 0
}

/// What hashing a password can fail with.
public enum PasswordHashError: Error, Sendable {
    /// libsodium could not allocate the memory Argon2id needs.
    case outOfMemory
}
