import DragAndDrop

/// A drop as the domain decides it, inside the drop's transaction: the engine decides again
/// against the board as it is now (whatever version the client saw), then the kit's landing puts
/// the items in place. It returns what happened in domain values; the caller records it (undo,
/// activity), stores the answer and tells the viewers.
package struct DropDecision {
    /// What the person asked for: where they released, what they saw.
    package struct Release {
        package var target: DropTargetID
        package var location: DropLocation
        /// The row under the pointer, as the client saw it: the place is found again by it when
        /// the board changed since.
        package var hoveredItem: String?
        /// The board version the client saw.
        package var seenVersion: Int
        /// The operation the page showed, when it showed one (the stricter answer wins).
        package var shown: DropOperation?
        package var copy: Bool

        package init(target: DropTargetID, location: DropLocation, hoveredItem: String?, seenVersion: Int, shown: DropOperation?, copy: Bool) {
            self.target = target
            self.location = location
            self.hoveredItem = hoveredItem
            self.seenVersion = seenVersion
            self.shown = shown
            self.copy = copy
        }
    }

    /// What a drop did.
    package enum Outcome {
        /// Nothing was applied: the proposal in force was `cancel` or `forbidden`.
        case refused(DropProposal)
        /// The items landed.
        case landed(DropProposal, DropLanding.Landed)
    }

    let kit: BoardKit
    let landing: DropLanding

    package init(kit: BoardKit, landing: DropLanding) {
        self.kit = kit
        self.landing = landing
    }

    /// Decides `release` with `engine` (moved on: concluded when the items landed) on `board` at
    /// `version`. `user`: the person, read again for this drop (nil where nobody signs in).
    /// - Throws: ``DragboardError/conflict(_:)`` when a dragged row moved or the hovered row is gone since.
    package func drop(_ release: Release, engine: inout SessionEngine, movesLists: Bool, user: DragUser?, on board: some BoardWriting,
                      version: Int) throws -> Outcome {
        var working = engine
        let stale = version != release.seenVersion
        if let source = working.dropSession.dragSource, source.listID != BoardKit.listsTargetID {
            // What is read next, in one query: the dragged rows with where they are (for undo), the hovered
            // row a stale page's location is rebased on with its index and neighbours, and the source,
            // which may be a container whose contents are a list.
            let dragged = working.dropSession.items.compactMap { $0.localObject as? String }
            let hovered = stale ? release.hoveredItem : nil
            var indexed: [String: String] = [:]
            if let hovered, case .list(let target) = release.target { indexed[hovered] = target }
            try board.prefetchRows(dragged + [hovered, source.listID].compactMap { $0 }, indexed: indexed,
                                   leaving: Dictionary(dragged.map { ($0, source.listID) }, uniquingKeysWith: { first, _ in first }))
        }
        // Always, whatever version the client says it saw: a client is not trusted to know what someone else did since.
        try working.dropSession.checkItemsUnmoved(on: board)
        var location = release.location
        if stale {
            location = try location.rebased(hoveredItem: release.hoveredItem, target: release.target, on: board)
        }
        working.updateTargets(try board.dropTargets(kit, movingLists: movesLists))
        if user != nil { working.setUser(user) }
        working.setCopyModifierPressed(release.copy)
        let outcome: Outcome
        switch try working.drop(on: release.target, at: location, shownOperation: release.shown) {
        case .refuse(let proposal):
            outcome = .refused(proposal)
        case .perform(let result):
            outcome = .landed(result.proposal, try landing.land(result, session: working.dropSession, on: board))
            working.conclude()
        }
        engine = working
        return outcome
    }
}
