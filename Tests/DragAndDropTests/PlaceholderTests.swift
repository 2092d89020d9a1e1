import Testing
@testable import DragAndDrop

@Test func placeholder() { #expect(true) }
