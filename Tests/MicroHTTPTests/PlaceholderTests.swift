import Testing
@testable import MicroHTTP

@Test func placeholder() { #expect(true) }
