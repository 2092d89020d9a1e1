import Foundation
import Testing
@testable import DragAndDrop

@Suite struct ProvidersAndTypesTests {
    @Test func conformanceFollowsTheGraphNotEquality() {
        let registry = TypeRegistry.withPerson
        #expect(registry.conforms(.utf8PlainText, to: .plainText))
        #expect(registry.conforms(.utf8PlainText, to: .text))
        #expect(registry.conforms(.utf8PlainText, to: .data))
        #expect(registry.conforms(.plainText, to: .content))
        #expect(registry.conforms(.html, to: .text))
        #expect(registry.conforms(.png, to: .image))
        #expect(registry.conforms(.webP, to: .image))
        #expect(registry.conforms(.fileURL, to: .url))
        #expect(registry.conforms(Person.typeIdentifier, to: .data))
        #expect(!registry.conforms(.plainText, to: .utf8PlainText))
        #expect(!registry.conforms(.png, to: .text))
        #expect(!registry.conforms(Person.typeIdentifier, to: .text))
    }

    @Test func mimeTypesMapBothWays() {
        let registry = TypeRegistry.withPerson
        #expect(registry.mimeType(for: .plainText) == "text/plain")
        #expect(registry.mimeType(for: .html) == "text/html")
        #expect(registry.mimeType(for: .url) == "text/uri-list")
        #expect(registry.mimeType(for: .png) == "image/png")
        #expect(registry.mimeType(for: Person.typeIdentifier) == "application/x-com.example.person+json")
        #expect(registry.typeIdentifier(forMIMEType: "text/plain;charset=utf-8") == .plainText)
        #expect(registry.typeIdentifier(forMIMEType: "Text/HTML") == .html)
        #expect(registry.typeIdentifier(forMIMEType: "application/x-com.example.person+json") == Person.typeIdentifier)
        #expect(registry.typeIdentifier(forMIMEType: "application/x-unknown") == nil)
    }

    @Test func representationsKeepFidelityOrderAndOwnProcessNeverGoesPublic() {
        var provider = ItemProvider()
        provider.registerData(Data("{}".utf8), forTypeIdentifier: "com.example.toy", visibility: .ownProcess)
        provider.registerData(Data("<b>Ball</b>".utf8), forTypeIdentifier: .html)
        provider.registerObject("Ball")
        provider.registerData(Data("again".utf8), forTypeIdentifier: .html)   // the first registration is kept
        #expect(provider.registeredTypeIdentifiers == ["com.example.toy", .html, .utf8PlainText])
        #expect(provider.registeredTypeIdentifiers(visibleAt: .all) == [.html, .utf8PlainText])
        #expect(provider.registeredTypeIdentifiers(visibleAt: .ownProcess) == ["com.example.toy", .html, .utf8PlainText])
    }

    @Test func hasItemsConformingUsesConformance() {
        let session = DropSession(items: [DragItem(itemProvider: ItemProvider(object: "text"))], localDragSession: nil)
        #expect(session.hasItemsConforming(toTypeIdentifiers: [.text]))
        #expect(session.hasItemsConforming(toTypeIdentifiers: [.image, .plainText]))
        #expect(!session.hasItemsConforming(toTypeIdentifiers: [.image]))
        #expect(!session.canLoadObjects(ofClass: PNGImage.self))
    }

    @Test func aPersonRoundTripsAsACustomTypeAndReadsAsText() throws {
        let ada = Person(name: "Ada", age: 36)
        let provider = ItemProvider(object: ada)
        #expect(provider.registeredTypeIdentifiers == [Person.typeIdentifier, .utf8PlainText])
        var session = DropSession(items: [DragItem(itemProvider: provider)], localDragSession: nil, registry: .withPerson)
        #expect(session.canLoadObjects(ofClass: Person.self))
        session.isPerformingDrop = true
        #expect(try session.loadObjects(ofClass: Person.self) == [ada])
        #expect(try session.loadObjects(ofClass: String.self) == ["Ada (36)"])
    }

    @Test func onlyWebURLsAreRead() throws {
        func read(_ text: String) throws -> URL { try URL.object(withItemProviderData: Data(text.utf8), typeIdentifier: .url) }
        #expect(try read("# comment\r\nhttps://example.com/a\r\nhttps://other") == URL(string: "https://example.com/a"))
        #expect(throws: DragAndDropError.unreadableData(.url)) { try read("javascript:alert(1)") }
        #expect(throws: DragAndDropError.unreadableData(.url)) { try read("file:///etc/passwd") }
        #expect(throws: DragAndDropError.unreadableData(.url)) { try read("") }
    }
}
