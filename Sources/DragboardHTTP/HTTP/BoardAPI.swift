import DragAndDrop
import Dragboard
import Foundation

/// The JSON the browser and the server exchange. Field names are short: this is a wire format.
enum BoardAPI {
    /// A drop target: `{"list": "todo"}` or `{"zone": "label"}`.
    struct Target: Decodable, Hashable {
        var list: String?
        var zone: String?

        var id: DropTargetID {
            get throws {
                switch (list, zone) {
                case (let list?, nil): return .list(list)
                case (nil, let zone?): return .zone(zone)
                default: throw DragboardError.badRequest("a target names exactly one of list or zone")
                }
            }
        }

        init(_ id: DropTargetID) {
            switch id {
            case .list(let list): self.list = list
            case .zone(let zone): self.zone = zone
            }
        }
    }

    /// Where the pointer is: over row `row` at `fraction` of its height, or over no row.
    /// `item` is the hovered row's id: a stale view is rebased by it, never by index.
    struct Location: Decodable, Hashable {
        var row: Int?
        var fraction: Double?
        var item: String?

        var dropLocation: DropLocation {
            get throws {
                guard let row else { return .noRow }
                guard row >= 0 else { throw DragboardError.unprocessable("row \(row) is negative") }
                let fraction = fraction ?? 0.5
                guard fraction.isFinite, (0...1).contains(fraction) else { throw DragboardError.unprocessable("fraction must be within 0...1") }
                return .row(row, fraction: fraction)
            }
        }
    }

    struct Proposal: Decodable, Hashable {
        var op: DropOperation
        var intent: String
        var reason: String?

        init(_ proposal: DropProposal) {
            op = proposal.operation
            intent = proposal.intent.rawValue
            reason = proposal.reason
        }
    }

    struct Run: Decodable, Hashable {
        var start: Int
        var count: Int
        var proposal: Proposal
    }

    struct Variant: Decodable, Hashable {
        var runs: [Run]
        var noRow: Proposal
    }

    struct TargetTable: Decodable, Hashable {
        var target: Target
        var handled: Bool
        var runs: [Run]
        var noRow: Proposal
        var copy: Variant?
        /// The target's title, for announcements and move-to menus.
        var name: String?
        /// The target's entry in a move-to menu ("Move to Done"), present when a drop at its end
        /// (or, for a zone, on it) would be taken.
        var menu: String?
    }

    struct Table: Decodable, Hashable {
        var zones: AutomaticIntentZones
        var targets: [TargetTable]

        init(_ table: ProposalTable) {
            zones = table.automaticZones
            func runs(_ runs: [ProposalRun]) -> [Run] { runs.map { Run(start: $0.start, count: $0.count, proposal: Proposal($0.proposal)) } }
            targets = table.entries.map { entry in
                TargetTable(target: Target(entry.target), handled: entry.handled, runs: runs(entry.runs), noRow: Proposal(entry.noRow),
                            copy: entry.copyModifier.map { Variant(runs: runs($0.runs), noRow: Proposal($0.noRow)) })
            }
        }
    }

    struct BeginRequest: Codable {
        /// The session token the browser chose: it wrote it into the DataTransfer at `dragstart`.
        var token: String
        var list: String
        var items: [String]
        /// The page's board; the default board when absent.
        var board: String?
    }

    /// Another window joins a session: its board's lists become the targets.
    struct JoinRequest: Codable {
        var board: String?
    }

    struct BeginResponse: Decodable, Equatable {
        var token: String
        var version: Int
        var count: Int
        var allowsMove: Bool
        var restricted: Bool
        var table: Table
        /// What a screen reader says on pick-up, composed from the rows' and list's titles.
        var announcement: String?
        /// Said instead of a move-to menu when no target takes the rows.
        var nowhere: String?
        /// For a drag from another app: which files the server takes, so the browser refuses the
        /// others with a reason before sending a byte.
        var uploads: Uploads? = nil
    }

    /// The files an upload may be: their types and the largest size, in bytes.
    struct Uploads: Decodable, Equatable {
        var types: [String]
        var maxBytes: Int
    }

    /// The first `dragenter` of a drag from another app: the types the browser shows (data is
    /// readable only at the drop) and the types of the dragged files.
    struct ExternalRequest: Codable {
        var token: String
        var types: [String]
        var files: [String]
        var board: String?
    }

    struct UploadResponse: Codable {
        var file: String
        var size: Int
        var type: String
    }

    struct TargetRequest: Decodable {
        var target: Target?
        var location: Location?
        var copy: Bool?
    }

    struct TargetResponse: Decodable, Equatable {
        var handled: Bool
        var proposal: Proposal?
        var destination: Int?
        /// The target and what a drop there would do, in words (with a refusal's reason).
        var announcement: String?
    }

    struct DropRequest: Decodable, Equatable {
        /// The client's operation id: a retried drop is applied once and answers the same.
        var op: String
        /// The board version the browser showed.
        var version: Int
        var target: Target
        var location: Location?
        var shown: DropOperation?
        var copy: Bool?
        /// A drop from outside: the DataTransfer's strings as `[type, data]` pairs…
        var data: [[String]]?
        /// …and the ids of its uploaded files, in the order of the session's file items.
        var files: [String?]?
    }

    /// A change to the page, applied by the browser in order: a ``Dragboard/BoardChange`` with the
    /// HTML it shows.
    struct Change: Decodable, Hashable {
        /// `resync`: a list was added, renamed, reordered or deleted, so the browser fetches the
        /// board's lists (rendered with its own form tokens); `title`: the board's new title (in
        /// `html`, as text); `gone`: the board was deleted.
        typealias Kind = BoardChange.Kind
        var kind: Kind
        var item: String
        var list: String?
        /// Insert after this row; nil inserts first.
        var after: String?
        var html: String?
    }

    struct DropResponse: Decodable, Equatable {
        var operation: DropOperation
        var intent: String?
        var reason: String?
        var message: String
        var target: Target
        var version: Int
        var changes: [Change]
        /// Each list's row count after the change (see ``BoardService/counts(_:tx:)``).
        var counts: [String: Int]?
    }

    struct EndResponse: Decodable, Equatable {
        var operation: DropOperation
        var target: Target?
        var version: Int
        /// Said when the session ended without a drop.
        var announcement: String?
    }

    struct ListHTML: Codable {
        var id: String
        var html: String
    }

    /// A live event for viewers of a board that only needs rows taken away.
    struct LiveChanges: Decodable, Equatable {
        var version: Int
        var changes: [Change]
        var counts: [String: Int]?
    }

    struct BoardResponse: Codable {
        var version: Int
        var lists: [ListHTML]
    }
}

extension BoardChange.Kind: Decodable {}

extension BoardAPI.Change {
    /// The domain's change, as the page takes it (its HTML filled in when rendered).
    init(_ change: BoardChange) {
        self.init(kind: change.kind, item: change.item, list: change.list, after: change.after)
    }
}
