import Foundation
import Testing
@testable import DragAndDrop

/// Drop zones shaped like UIDropInteraction: an image well and a label.
@Suite struct DropZoneTests {
    struct ImageWell: DropZoneDelegate {
        func canHandle(_ session: DropSession, in zone: ZoneTarget) -> Bool { session.canLoadObjects(ofClass: PNGImage.self) }
        func dropSessionDidUpdate(_ session: DropSession, in zone: ZoneTarget) -> DropProposal { DropProposal(operation: .copy) }
        func performDrop(in zone: ZoneTarget, with coordinator: inout DropCoordinator) throws {
            let images = try coordinator.session.loadObjects(ofClass: PNGImage.self)
            for (item, image) in zip(coordinator.items, images) { coordinator.accept(item, content: image.byteCount) }
        }
    }

    struct Label: DropZoneDelegate {
        func canHandle(_ session: DropSession, in zone: ZoneTarget) -> Bool { session.canLoadObjects(ofClass: String.self) }
        func dropSessionDidUpdate(_ session: DropSession, in zone: ZoneTarget) -> DropProposal { DropProposal(operation: .copy) }
        func performDrop(in zone: ZoneTarget, with coordinator: inout DropCoordinator) throws {
            let text = try coordinator.session.loadObjects(ofClass: String.self).first ?? ""
            coordinator.accept(coordinator.items[0], content: text)
        }
    }

    func external(_ provider: ItemProvider) -> SessionEngine {
        SessionEngine(externalItems: [DragItem(itemProvider: provider)], targets: targets([], zones: [("image-well", ImageWell()), ("label", Label())]))
    }

    @Test func theImageWellTakesImagesAndRefusesText() throws {
        var png = ItemProvider()
        png.registerData(.tinyPNG, forTypeIdentifier: .png)
        var session = external(png)
        let table = session.proposalTable()
        #expect(table.entry(for: .zone("image-well"))?.handled == true)
        #expect(table.entry(for: .zone("label"))?.handled == false)
        let result = try #require(try session.drop(on: .zone("image-well"), at: .noRow).result)
        #expect(result.placements.first?.content as? Int == Data.tinyPNG.count)
        #expect(result.placements.first?.destination == .zone)

        var text = ItemProvider()
        text.registerObject("not an image")
        var refused = external(text)
        #expect(try refused.enter(.zone("image-well")) == false)
        #expect(try refused.drop(on: .zone("image-well"), at: .noRow).refused == .cancel(SessionEngine.reasonNotHandled))
    }

    @Test func aFakeImageFailsAtLoadTimeNotBefore() throws {
        var fake = ItemProvider()
        fake.registerData(Data("<svg onload=alert(1)>".utf8), forTypeIdentifier: .png)
        var session = external(fake)
        #expect(try session.enter(.zone("image-well")))
        #expect(throws: DragAndDropError.unreadableData(.png)) { try session.drop(on: .zone("image-well"), at: .noRow) }
    }

    @Test func helloWorldDroppedIntoALabel() throws {
        var session = external(ItemProvider(object: "Hello World"))
        let result = try #require(try session.drop(on: .zone("label"), at: .noRow).result)
        #expect(result.proposal == DropProposal(operation: .copy, intent: .unspecified))
        #expect(result.placements.first?.content as? String == "Hello World")
    }

    @Test func dataIsLoadableOnlyWhilePerformingTheDrop() throws {
        let session = external(ItemProvider(object: "secret until drop"))
        #expect(session.dropSession.canLoadObjects(ofClass: String.self))
        #expect(throws: DragAndDropError.dataNotAvailable) { try session.dropSession.loadObjects(ofClass: String.self) }
    }

    @Test func loadingReportsAggregateProgress() throws {
        var first = ItemProvider()
        first.registerDataRepresentation(forTypeIdentifier: .png) { progress in
            progress.update(completed: 50, total: 100)
            progress.complete(100)
            return .tinyPNG
        }
        var second = ItemProvider()
        second.registerData(.tinyPNG, forTypeIdentifier: .png)
        let seen = CallLog()
        var session = SessionEngine(externalItems: [DragItem(itemProvider: first), DragItem(itemProvider: second)], targets: DropTargets())
        session.dropSession.isPerformingDrop = true
        _ = try session.dropSession.loadObjects(ofClass: PNGImage.self) { seen.record(String(format: "%.2f", $0)) }
        #expect(seen.all == ["0.25", "0.50", "1.00"])
    }
}

@Suite struct FilePromiseTests {
    @Test func aPromisedFileIsResolvedOnlyAtDropTime() throws {
        let resolved = CallLog()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("promise-\(UUID().uuidString).png")
        try Data.tinyPNG.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        var provider = ItemProvider()
        provider.registerFileRepresentation(forTypeIdentifier: .png) { resolved.record("loaded"); return file }
        var session = DropSession(items: [DragItem(itemProvider: provider)], localDragSession: nil)
        let item = DropItem(dragItem: session.items[0], sourceIndexPath: nil)
        #expect(session.hasItemsConforming(toTypeIdentifiers: [.image]))
        #expect(throws: DragAndDropError.dataNotAvailable) { try session.loadFileRepresentation(forTypeIdentifier: .image, from: item) }
        #expect(resolved.all.isEmpty)
        session.isPerformingDrop = true
        let loaded = try #require(try session.loadFileRepresentation(forTypeIdentifier: .image, from: item))
        #expect(loaded.url == file && loaded.typeIdentifier == .png)
        #expect(try session.loadFileRepresentation(forTypeIdentifier: .text, from: item) == nil)
        #expect(try session.loadObjects(ofClass: PNGImage.self).first?.byteCount == Data.tinyPNG.count)
    }
}
