import Foundation
import Testing
import DragAndDrop

// ACCOUNTS-EXAMPLE-BEGIN
func dropSessionDidUpdate(_ session: DropSession, in list: ListTarget, withDestinationIndexPath destination: IndexPath?) -> DropProposal {
    // Only owners may drop into the "Approved" list.
    if list.id == "approved", session.user.map({ $0.destinationRole != .owner }) ?? false {
        return .forbidden("Only an owner can approve cards.")
    }
    return DropProposal(operation: .move, intent: .insertAtDestinationIndexPath)
}
// ACCOUNTS-EXAMPLE-END

/// The docs' delegate rule by person, as a delegate.
struct ApprovalDelegate: ListDropDelegate {
    func canHandle(_ session: DropSession, in list: ListTarget) -> Bool { true }

    func dropSessionDidUpdate(_ session: DropSession, in list: ListTarget, withDestinationIndexPath destination: IndexPath?) -> DropProposal {
        DragAndDropTests.dropSessionDidUpdate(session, in: list, withDestinationIndexPath: destination)
    }

    func performDrop(in list: ListTarget, with coordinator: inout DropCoordinator) throws {
        for (offset, item) in coordinator.items.enumerated() { coordinator.drop(item, toRowAt: IndexPath(row: offset)) }
    }
}

/// The engine decides by the person who drags (``DropSession/user``).
@Suite struct DragUserTests {
    static func engine(user: DragUser?, delegate: any ListDropDelegate = ApprovalDelegate()) throws -> SessionEngine {
        var page = DropTargets()
        page.add(ListTarget(id: "approved", rowCount: 1), delegate: delegate)
        page.add(ListTarget(id: "todo", rowCount: 1), delegate: delegate)
        var engine = SessionEngine(externalItems: [DragItem(itemProvider: ItemProvider(object: "Card"))], targets: page)
        engine.setUser(user)
        return engine
    }

    @Test func aRefusedPersonIsForbiddenEverywhereInTheirWordsWhateverTheDelegateSays() throws {
        let viewer = DragUser(name: "bob", sourceRole: .viewer, destinationRole: .viewer, refusal: "You can view this board but not change it.")
        var engine = try Self.engine(user: viewer)
        for entry in engine.proposalTable().entries {
            #expect(entry.handled)
            #expect(entry.noRow == .forbidden("You can view this board but not change it."))
            #expect(entry.runs.allSatisfy { $0.proposal.operation == .forbidden })
        }
        #expect(try engine.update(.list("todo"), at: .row(0, fraction: 0.2)).proposal.reason == "You can view this board but not change it.")
        guard case .refuse(let proposal) = try engine.drop(on: .list("todo"), at: .row(0, fraction: 0.2)) else {
            Issue.record("a viewer's drop was performed")
            return
        }
        #expect(proposal.operation == .forbidden)
    }

    @Test func delegatesDecideByTheRoleOfThePerson() throws {
        let editor = DragUser(name: "bob", sourceRole: .editor, destinationRole: .editor)
        var engine = try Self.engine(user: editor)
        #expect(try engine.update(.list("approved"), at: .noRow).proposal == .forbidden("Only an owner can approve cards."))
        #expect(try engine.update(.list("todo"), at: .noRow).proposal.operation == .copy)   // from another app: a copy
        var owners = try Self.engine(user: DragUser(name: "alice", sourceRole: .owner, destinationRole: .owner))
        #expect(try owners.update(.list("approved"), at: .noRow).proposal.operation == .copy)
        var nobody = try Self.engine(user: nil)
        #expect(try nobody.update(.list("approved"), at: .noRow).proposal.operation == .copy)
    }

    @Test func rolesCompareWeakestFirst() {
        #expect(DragUser.Role.viewer < .editor && DragUser.Role.editor < .owner)
        #expect(!DragUser.Role.viewer.mayEdit && DragUser.Role.editor.mayEdit && DragUser.Role.owner.mayEdit)
    }

    @Test func theReadmeAndDocsShowThisCompiledRule() throws {
        let here = URL(fileURLWithPath: #filePath)
        let root = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: here, encoding: .utf8)
        let begin = try #require(text.range(of: "// ACCOUNTS-EXAMPLE-BEGIN\n")), end = try #require(text.range(of: "// ACCOUNTS-EXAMPLE-END"))
        for document in ["docs/kit.md", "docs/accounts.md"] {
            let shown = try String(contentsOf: root.appendingPathComponent(document), encoding: .utf8)
            #expect(shown.contains(String(text[begin.upperBound..<end.lowerBound])), "\(document) must show the rule of DragUserTests.swift verbatim")
        }
    }
}
