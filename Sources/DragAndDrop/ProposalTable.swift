/// A run of equal proposals over consecutive destination rows.
public struct ProposalRun: Hashable, Sendable, Codable {
    /// The first destination row of the run.
    public var start: Int
    /// How many destination rows it covers.
    public var count: Int
    public var proposal: DropProposal

    public init(start: Int, count: Int, proposal: DropProposal) {
        self.start = start
        self.count = count
        self.proposal = proposal
    }

    public var rows: Range<Int> { start..<(start + count) }
}

/// Appends proposals row by row, merging equal neighbours into runs.
public struct ProposalRunBuilder: Sendable {
    public private(set) var runs: [ProposalRun] = []
    private var next = 0

    public init() {}

    public mutating func append(_ proposal: DropProposal, count: Int = 1) {
        if let last = runs.indices.last, runs[last].proposal == proposal {
            runs[last].count += count
        } else {
            runs.append(ProposalRun(start: next, count: count, proposal: proposal))
        }
        next += count
    }
}

/// Every target's decision for a session, computed in one call so the browser can answer
/// `dragover` synchronously without asking the server.
public struct ProposalTable: Sendable {
    /// One target's decisions.
    public struct Entry: Sendable {
        public var target: DropTargetID
        /// False when `canHandle` said no: the target takes no drop at all.
        public var handled: Bool
        /// Destination rows `0...rowCount` of a list, as runs; empty for zones.
        public var runs: [ProposalRun]
        /// The proposal over empty space (a nil destination), or the zone's proposal.
        public var noRow: DropProposal
        /// The same decisions while the copy modifier is held, when they differ.
        public var copyModifier: Variant?
    }

    /// Decisions under the copy modifier.
    public struct Variant: Sendable, Equatable {
        public var runs: [ProposalRun]
        public var noRow: DropProposal
    }

    public var entries: [Entry]
    public var automaticZones: AutomaticIntentZones

    public func entry(for target: DropTargetID) -> Entry? { entries.first { $0.target == target } }
}

extension ProposalTable.Entry {
    /// The proposal for destination row `row`, or over empty space when nil.
    public func proposal(at row: Int?) -> DropProposal {
        guard handled else { return noRow }
        guard let row else { return noRow }
        return runs.first { $0.rows.contains(row) }?.proposal ?? .cancel
    }
}
