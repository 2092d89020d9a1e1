import Foundation

extension SessionEngine {
    /// Computes every target's decisions in one call: `canHandle` first (cached for the session),
    /// then the proposals of each destination as runs, plus the copy-modifier variant.
    ///
    /// Cost is linear in rows at worst; delegates that override `dropProposals` answer in O(runs).
    public mutating func proposalTable() -> ProposalTable {
        var entries: [ProposalTable.Entry] = []
        for (list, delegate) in targets.lists {
            let id = DropTargetID.list(list.id)
            guard canHandle(id) else {
                entries.append(.init(target: id, handled: false, runs: [], noRow: .cancel(Self.reasonNotHandled), copyModifier: nil))
                continue
            }
            let plain = listVariant(list, delegate: delegate, copyModifier: dropSession.isCopyModifierPressed)
            let copy = listVariant(list, delegate: delegate, copyModifier: true)
            entries.append(.init(target: id, handled: true, runs: plain.runs, noRow: plain.noRow, copyModifier: copy == plain ? nil : copy))
        }
        for (zone, delegate) in targets.zones {
            let id = DropTargetID.zone(zone.id)
            guard canHandle(id) else {
                entries.append(.init(target: id, handled: false, runs: [], noRow: .cancel(Self.reasonNotHandled), copyModifier: nil))
                continue
            }
            func answer(copyModifier: Bool) -> DropProposal {
                var session = dropSession
                session.isCopyModifierPressed = copyModifier
                return enforce(delegate.dropSessionDidUpdate(session, in: zone), destination: nil, isList: false)
            }
            let plain = answer(copyModifier: dropSession.isCopyModifierPressed)
            let copy = answer(copyModifier: true)
            entries.append(.init(target: id, handled: true, runs: [], noRow: plain,
                                 copyModifier: copy == plain ? nil : .init(runs: [], noRow: copy)))
        }
        return ProposalTable(entries: entries, automaticZones: automaticZones)
    }

    private func listVariant(_ list: ListTarget, delegate: any ListDropDelegate, copyModifier: Bool) -> ProposalTable.Variant {
        // The session as it is, unless the variant asks for another modifier (a copy of the session).
        guard dropSession.isCopyModifierPressed != copyModifier else { return listVariant(list, delegate: delegate, session: dropSession) }
        var session = dropSession
        session.isCopyModifierPressed = copyModifier
        return listVariant(list, delegate: delegate, session: session)
    }

    private func listVariant(_ list: ListTarget, delegate: any ListDropDelegate, session: DropSession) -> ProposalTable.Variant {
        var runs = ProposalRunBuilder()
        for run in delegate.dropProposals(for: session, in: list) {
            let destination = IndexPath(row: run.start, section: list.section)
            runs.append(enforce(run.proposal, destination: destination, isList: true), count: run.count)
        }
        let noRow = enforce(delegate.dropSessionDidUpdate(session, in: list, withDestinationIndexPath: nil), destination: nil, isList: true)
        return .init(runs: runs.runs, noRow: noRow)
    }

    /// Asks `canHandle` once per target per session; a `false` stops every later call for it.
    /// A person refused everywhere (``DragUser/refusal``) is answered before any delegate: every
    /// target takes part, to say `forbidden` and why.
    mutating func canHandle(_ target: DropTargetID) -> Bool {
        if dropSession.user?.refusal != nil { return true }
        if let known = canHandleAnswers[target] { return known }
        let answer: Bool
        switch target {
        case .list(let id): answer = targets.list(id).map { $0.delegate.canHandle(dropSession, in: $0.target) } ?? false
        case .zone(let id): answer = targets.zone(id).map { $0.delegate.canHandle(dropSession, in: $0.target) } ?? false
        }
        canHandleAnswers[target] = answer
        return answer
    }

    /// The pointer entered `target`. Leaves the previous target first. Returns whether the
    /// target handles the session; when it does not, it gets no further calls.
    @discardableResult
    public mutating func enter(_ target: DropTargetID) throws -> Bool {
        try requireDragging()
        try requireKnown(target)
        if currentTarget == target { return canHandle(target) }
        if let previous = currentTarget { try exit(previous) }
        currentTarget = target
        guard canHandle(target) else { return false }
        touch(target)
        switch target {
        case .list(let id): if let (list, delegate) = targets.list(id) { delegate.dropSessionDidEnter(dropSession, in: list) }
        case .zone(let id): if let (zone, delegate) = targets.zone(id) { delegate.dropSessionDidEnter(dropSession, in: zone) }
        }
        return true
    }

    /// The pointer moved within `target`: the delegate's proposal after the engine's rules,
    /// with `automatic` resolved. A target that cannot handle the session answers `cancel`.
    public mutating func update(_ target: DropTargetID, at location: DropLocation) throws -> ResolvedProposal {
        try requireDragging()
        if currentTarget != target { try enter(target) }
        guard canHandle(target) else { return ResolvedProposal(proposal: .cancel(Self.reasonNotHandled), destinationIndexPath: nil) }
        return try decide(target, at: location)
    }

    /// The pointer left `target`.
    public mutating func exit(_ target: DropTargetID) throws {
        try requireDragging()
        guard currentTarget == target else { return }
        currentTarget = nil
        guard canHandle(target) else { return }
        switch target {
        case .list(let id): if let (list, delegate) = targets.list(id) { delegate.dropSessionDidExit(dropSession, in: list) }
        case .zone(let id): if let (zone, delegate) = targets.zone(id) { delegate.dropSessionDidExit(dropSession, in: zone) }
        }
    }

    func decide(_ target: DropTargetID, at location: DropLocation) throws -> ResolvedProposal {
        switch target {
        case .list(let id):
            guard let (list, delegate) = targets.list(id) else { throw DragAndDropError.unknownTarget(target) }
            return try resolve(location, in: list, delegate: delegate, session: dropSession)
        case .zone(let id):
            guard let (zone, delegate) = targets.zone(id) else { throw DragAndDropError.unknownTarget(target) }
            let answer = delegate.dropSessionDidUpdate(dropSession, in: zone)
            return ResolvedProposal(proposal: enforce(answer, destination: nil, isList: false), destinationIndexPath: nil)
        }
    }

    mutating func touch(_ target: DropTargetID) {
        if !touchedTargets.contains(target) { touchedTargets.append(target) }
    }

    func requireDragging() throws {
        guard phase == .dragging else { throw DragAndDropError.sessionEnded }
    }

    func requireKnown(_ target: DropTargetID) throws {
        guard targets.ids.contains(target) else { throw DragAndDropError.unknownTarget(target) }
    }
}
