import Dragboard
import Foundation
import Synchronization

/// Each board's page and `/api/board` body, rendered once per version and shared by every viewer:
/// a resync storm after a conflict costs one render, not one per viewer.
///
/// What differs per viewer is rendered as markers and filled in after the cache: the viewer's
/// CSRF token, and a fresh operation id for each form. The markers hold a secret drawn at launch
/// and never sent, so no stored text can forge one.
final class RenderCache: Sendable {
    private static let secret = DragSessions.randomToken()
    /// Rendered in place of the viewer's CSRF token.
    static let csrfMarker = "<@\(secret)-csrf@>"
    /// Rendered in place of each form's operation id.
    static let opMarker = "<@\(secret)-op@>"
    /// Rendered in place of the signed-in person's bar (their name, sign-out).
    static let whoMarker = "<@\(secret)-who@>"

    /// A body kept: a board's page as one role sees it (each role's controls differ), or its `/api/board`.
    enum Body: Hashable, Sendable {
        case page(BoardRole)
        case api

        static let all: [Body] = BoardRole.allCases.map(Body.page) + [.api]
    }

    private struct Key: Hashable { var board: String; var body: Body }

    /// A rendered body cut where the viewer's parts go: `slots[i]` goes after `segments[i]`.
    struct Cut: Sendable {
        enum Slot: Sendable { case csrf, op, who }
        let version: Int
        let segments: [ArraySlice<UInt8>]
        let slots: [Slot]

        init(_ text: String, version: Int) {
            self.version = version
            let bytes = Array(text.utf8)
            let plain: [(Slot, String)] = [(.csrf, RenderCache.csrfMarker), (.op, RenderCache.opMarker), (.who, RenderCache.whoMarker)]
            let markers = plain.map { ($0.0, Array(HTMLEscaping.escape($0.1).utf8)) }
            var segments: [ArraySlice<UInt8>] = [], slots: [Slot] = [], start = 0, index = 0
            // Every marker starts with "&lt;@": a byte scan for "&" then a compare is enough.
            while index < bytes.count {
                if bytes[index] == UInt8(ascii: "&") {
                    guard let (slot, marker) = markers.first(where: { bytes[index...].starts(with: $0.1) }) else {
                        index += 1
                        continue
                    }
                    slots.append(slot)
                    segments.append(bytes[start..<index])
                    index += marker.count
                    start = index
                } else {
                    index += 1
                }
            }
            segments.append(bytes[start...])
            self.segments = segments
            self.slots = slots
        }

        /// The body for one viewer.
        func filled(csrf: String, who: String = "", op: () -> String) -> [UInt8] {
            var out: [UInt8] = []
            out.reserveCapacity(segments.reduce(0) { $0 + $1.count } + slots.count * 40)
            for (index, segment) in segments.enumerated() {
                out.append(contentsOf: segment)
                if index < slots.count {
                    switch slots[index] {
                    case .csrf: out.append(contentsOf: csrf.utf8)
                    case .op: out.append(contentsOf: op().utf8)
                    case .who: out.append(contentsOf: who.utf8)
                    }
                }
            }
            return out
        }
    }

    /// The bodies kept, each with when it was last served: the least recently served goes first
    /// once more than `capacity` are kept, so boards nobody opens any more cost no memory.
    private struct Entries {
        var cuts: [Key: (cut: Cut, used: UInt64)] = [:]
        var clock: UInt64 = 0

        mutating func get(_ key: Key, atLeast version: Int) -> Cut? {
            guard let entry = cuts[key], entry.cut.version >= version else { return nil }
            clock += 1
            cuts[key]?.used = clock
            return entry.cut
        }

        mutating func put(_ cut: Cut, for key: Key, capacity: Int) {
            guard (cuts[key]?.cut.version ?? Int.min) <= cut.version else { return }
            clock += 1
            cuts[key] = (cut, clock)
            // A scan over at most `capacity` entries, once per fresh render: cheaper than the render.
            while cuts.count > capacity, let oldest = cuts.min(by: { $0.value.used < $1.value.used })?.key {
                cuts[oldest] = nil
            }
        }
    }

    private let entries = Mutex(Entries())
    /// One lock per body, held while it renders: viewers asking meanwhile wait for that render.
    private let renderLocks = Mutex<[Key: NSLock]>([:])
    private let renderCount = Atomic<Int>(0)
    /// How many bodies are kept at most (a page and an `/api/board` body per board).
    let capacity: Int

    init(capacity: Int = 128) {
        self.capacity = max(1, capacity)
    }

    /// How many bodies are kept now.
    var count: Int { entries.withLock { $0.cuts.count } }

    /// Forgets `board`'s bodies (it was deleted: nobody can ask for them before it comes back).
    func forget(board: String) {
        entries.withLock { entries in
            for body in Body.all { entries.cuts[Key(board: board, body: body)] = nil }
        }
        renderLocks.withLock { locks in
            for body in Body.all { locks[Key(board: board, body: body)] = nil }
        }
    }

    /// How many bodies were rendered (not served from the cache) so far.
    var renders: Int { renderCount.load(ordering: .relaxed) }

    /// `board`'s `body` at `version` (the board's current one) for the viewer holding `csrf`;
    /// `render` draws it with the markers and says which version it drew (a newer one, if the
    /// board moved on meanwhile).
    func body(board: String, _ body: Body, version: Int, csrf: String, who: String = "", render: () throws -> (text: String, version: Int)) throws -> [UInt8] {
        let key = Key(board: board, body: body)
        if let cut = entries.withLock({ $0.get(key, atLeast: version) }) { return cut.filled(csrf: csrf, who: who, op: BoardService.newID) }
        let lock = renderLocks.withLock { locks in
            if let lock = locks[key] { return lock }
            let lock = NSLock()
            locks[key] = lock
            return lock
        }
        lock.lock()
        defer { lock.unlock() }
        if let cut = entries.withLock({ $0.get(key, atLeast: version) }) { return cut.filled(csrf: csrf, who: who, op: BoardService.newID) }
        let (text, drawn) = try render()
        renderCount.add(1, ordering: .relaxed)
        let cut = Cut(text, version: drawn)
        entries.withLock { $0.put(cut, for: key, capacity: capacity) }
        return cut.filled(csrf: csrf, who: who, op: BoardService.newID)
    }
}
