/// Who drags, as the app knows them.
///
/// UIKit's sessions know no person: one device, one user. A server serves several, so a
/// ``DropSession`` may carry the person (``DropSession/user``) and delegates may decide by them;
/// and whatever a delegate says, the engine forbids every drop a person may not make
/// (``refusal``), with those words, in every answer: the proposal table, each hover, the drop.
public struct DragUser: Sendable, Hashable {
    /// How much a person may do where they drag or drop, weakest first.
    public enum Role: String, Sendable, Hashable, Comparable, CaseIterable {
        /// Reads, follows live changes, drags out as copies.
        case viewer
        /// Also moves, copies, adds, renames, deletes and undoes.
        case editor
        /// Also manages who may do what, and deletes the whole.
        case owner

        public static func < (lhs: Role, rhs: Role) -> Bool {
            allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
        }

        /// Whether this role may change what it holds.
        public var mayEdit: Bool { self >= .editor }
    }

    /// The person's name, as others see it.
    public var name: String
    /// Their role where the drag started (nil for a drag from another app).
    public var sourceRole: Role?
    /// Their role where the items would land.
    public var destinationRole: Role
    /// Why this person may not drop here, in words for them; nil when they may.
    public var refusal: String?

    public init(name: String, sourceRole: Role?, destinationRole: Role, refusal: String? = nil) {
        self.name = name
        self.sourceRole = sourceRole
        self.destinationRole = destinationRole
        self.refusal = refusal
    }
}

extension SessionEngine {
    /// Tells the session who drags (again whenever their roles change, or the drop moves to a
    /// place where they have another role); delegates read it as ``DropSession/user``.
    public mutating func setUser(_ user: DragUser?) {
        dropSession.user = user
    }
}
