import Foundation

/// What a drop would do, like `UIDropOperation`.
public enum DropOperation: String, Sendable, Codable, Hashable, CaseIterable {
    /// No drop: the items fly back. perform-drop is never called.
    case cancel
    /// The target would normally take a drop but forbids this one; shown with a badge and a reason.
    case forbidden
    /// The items are copied. The only operation across apps.
    case copy
    /// The items are moved. Only inside the app that started the drag, and only when it allows moves.
    case move

    /// Whether this operation reaches perform-drop.
    public var performsDrop: Bool { self == .copy || self == .move }

    /// Strictness for reconciling two answers: forbidden > cancel > copy > move.
    var strictness: Int {
        switch self {
        case .move: 0
        case .copy: 1
        case .cancel: 2
        case .forbidden: 3
        }
    }
}

/// A target's answer for a hover, like `UITableViewDropProposal`.
public struct DropProposal: Sendable, Hashable, Codable {
    /// Where the items go in a list, like `UITableViewDropProposal.Intent`.
    public enum Intent: String, Sendable, Codable, Hashable {
        /// The drop is accepted but the location is not known: no gap, no highlight.
        case unspecified
        /// Rows are inserted at the destination index path: an insertion indicator.
        case insertAtDestinationIndexPath = "insert-at"
        /// The items go into the row at the destination (a container): the row is highlighted.
        case insertIntoDestinationIndexPath = "insert-into"
        /// Chosen by position within the row; see ``AutomaticIntentZones``.
        case automatic
    }

    public var operation: DropOperation
    public var intent: Intent
    /// Whether the drop point should follow the pointer precisely (kept for parity with UIKit).
    public var isPrecise: Bool
    /// Why a `forbidden` or `cancel` proposal refuses the drop, in words shown to the user
    /// during the hover and after the release. `copy` and `move` carry none.
    public var reason: String?

    public init(operation: DropOperation, intent: Intent = .unspecified, isPrecise: Bool = false, reason: String? = nil) {
        self.operation = operation
        self.intent = intent
        self.isPrecise = isPrecise
        self.reason = reason
    }

    public static let cancel = DropProposal(operation: .cancel)

    /// A cancel proposal that says why the target does not take these items.
    public static func cancel(_ reason: String) -> DropProposal {
        DropProposal(operation: .cancel, reason: reason)
    }

    /// A forbidden proposal with the reason shown to the user.
    public static func forbidden(_ reason: String) -> DropProposal {
        DropProposal(operation: .forbidden, reason: reason)
    }
}
