import Passwords
import Testing

/// FIPS 180-4's examples (NIST's "SHA256.pdf") and a message longer than one block.
@Suite struct SHA256Tests {
    @Test func theStandardsExamplesHashAsPublished() {
        #expect(SHA256.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex([UInt8]()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test func anyCollectionOfBytesHashesAsItsArray() {
        let message = Array(repeating: Array("0123456789".utf8), count: 100).joined()
        #expect(SHA256.hex(message) == SHA256.hex(Array(message)))
        #expect(SHA256.hex("a".utf8) == "ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb")
    }
}
