import Testing
@testable import Dragboard

@Test func placeholder() { #expect(true) }
