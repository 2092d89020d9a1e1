import CSodium

/// SHA-256 (FIPS 180-4) from libsodium (`crypto_hash_sha256`), for fingerprints and keys that must
/// not hold what they stand for: an idempotency record keeps 32 bytes of a request, a sign-in's
/// record the digest of its token.
public enum SHA256 {
    /// The digest of `bytes` as 64 lowercase hex digits.
    public static func hex(_ bytes: some Collection<UInt8>) -> String {
        let digest = Self.digest(bytes)
        let digits = Array("0123456789abcdef".utf8)
        return String(unsafeUninitializedCapacity: 64) { out in
            for (index, byte) in digest.enumerated() {
                out[2 * index] = digits[Int(byte >> 4)]
                out[2 * index + 1] = digits[Int(byte & 0x0f)]
            }
            return 64
        }
    }

    /// The 32 bytes of the digest of `bytes`.
    public static func digest(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        let hashed = bytes.withContiguousStorageIfAvailable { buffer in
            crypto_hash_sha256(&digest, buffer.baseAddress, UInt64(buffer.count))
        }
        if hashed == nil {
            let copy = Array(bytes)
            crypto_hash_sha256(&digest, copy, UInt64(copy.count))
        }
        return digest
    }
}
