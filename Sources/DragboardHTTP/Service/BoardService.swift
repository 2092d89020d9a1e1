import DragAndDrop
import Dragboard
import DragboardStore
import Foundation
import JSONWriting
import Logging
import Passwords
import Synchronization

/// A board served over HTTP: store, renderer, drag sessions and live viewers, with one method
/// per request. Route handlers decode and guard; everything here is the kit's behaviour, and
/// what the board holds is the app's ``BoardKit``.
public final class BoardService: Sendable {
    public let store: BoardStore
    public let renderer: BoardRenderer
    public let sessions: DragSessions
    public let live: LiveHub
    /// Requests, drops, database waits, streams and drags, for `GET /metrics`.
    public let metrics = ServerMetrics()
    /// Import files received at once (each held in memory until read).
    let importSlots = ImportSlots()
    /// Stored images, named by id; uploads wait in `uploads/` until a drop keeps them.
    public let imagesDirectory: URL
    /// Quotas of stored images and live sessions.
    public let limits: Limits
    let logger: Logger
    /// Each board's page and `/api/board`, rendered once per version for every viewer.
    let renderCache = RenderCache()
    /// How people sign in, and the check in front of every route but sign-in's.
    public let signInPolicy: SignInPolicy
    let gate: SignInGate
    /// Failed sign-ins, per name and per address.
    let throttle = SignInThrottle()
    /// Closes the streams of people who lost their place, twice a second (see ``sweepLiveStreams()``).
    private let sweep = Mutex<RepeatingTimer?>(nil)

    /// The app's declaration of the board: list, row and zone kinds, types, page groups.
    public var kit: BoardKit { renderer.kit }

    /// Largest image a drop may upload.
    static let maximumImageSize = 20 * 1024 * 1024

    public init(store: BoardStore, renderer: BoardRenderer, imagesDirectory: URL, limits: Limits = Limits(),
                signIn: SignInPolicy = SignInPolicy(), live: LiveHub = LiveHub(), logger: Logger) throws {
        self.store = store
        self.signInPolicy = signIn
        self.gate = SignInGate(store: store, policy: signIn)
        self.renderer = renderer
        self.imagesDirectory = imagesDirectory
        self.limits = limits
        self.sessions = DragSessions(limits: limits)
        self.live = live
        self.logger = logger
        // Changes other instances sharing the database commit reach this instance's viewers too.
        try store.observeOtherInstances { [weak live, store] board, version in
            guard let live else { return }
            live.announce(board: board, version: version)
            guard live.hasViewers(board) else { return }
            // And its line in their activity panel, read off the listener's thread (an event loop's).
            DispatchQueue.global().async {
                guard let entry = try? store.activity(board: board, version: version) else { return }
                live.tellActivity(board: board, version: version, author: entry.author, words: entry.words, at: entry.date)
            }
        }
        store.observeCommits { [databaseWait = metrics.databaseWait] duration in databaseWait.record(duration) }
        // Uploads left by a previous run were never dropped: nothing refers to them. Instances sharing
        // a database share the folder too: there, only uploads no drag can still be waiting for go.
        let uploads = imagesDirectory.appendingPathComponent("uploads")
        if store.isShared {
            Self.removeEntries(of: uploads, olderThan: Date() - 3600)
        } else {
            try? FileManager.default.removeItem(at: uploads)
        }
        try FileManager.default.createDirectory(at: uploads, withIntermediateDirectories: true)
        pruneRetiredImages()
        // The decoy hash a sign-in with an unknown name verifies against, made now: the first such
        // sign-in must not take twice as long as a wrong password (timing would tell them apart).
        _ = PasswordHash.decoy
        sweep.withLock { $0 = RepeatingTimer(every: .milliseconds(500), label: "dragboard.sweep") { [weak self] in
            self?.sweepLiveStreams()
            self?.sessions.removeExpired()
        } }
    }

    /// Opens (or creates) the board's database, seeds it with the kit's seed when it is new, and
    /// loads the templates: everything a router needs to serve `kit`.
    ///
    /// - Parameters:
    ///   - databasePath: Where the data lives: a SQLite file by default, or whatever `openStore`
    ///     understands (`BoardStore(database:)` of `DragboardPostgres` also takes a
    ///     `postgres://user:password@host:port/dbname` URL that several instances share).
    ///   - imagesDirectory: Where stored images live; by default next to a SQLite file
    ///     (`<databasePath>-images`), or `dragboard-images` in the working directory with a
    ///     shared database. Instances sharing a database must share this folder too.
    public convenience init(kit: BoardKit, databasePath: String, openStore: (String) throws -> BoardStore = { try BoardStore(path: $0) },
                            imagesDirectory: String? = nil, templatesDirectory: String, staticFiles: String = "/static",
                            limits: Limits = Limits(), signIn: SignInPolicy = SignInPolicy(),
                            logger: Logger = Logger(label: "dragboard")) async throws {
        let store = try openStore(databasePath)
        if let seed = kit.seed { try store.seedIfEmpty(seed) }
        let renderer = try await BoardRenderer(templatesDirectory: templatesDirectory, kit: kit, staticFiles: staticFiles)
        let images = imagesDirectory ?? (store.isShared ? "dragboard-images" : databasePath + "-images")
        try self.init(store: store, renderer: renderer, imagesDirectory: URL(fileURLWithPath: images, isDirectory: true),
                      limits: limits, signIn: signIn, logger: logger)
    }

    /// A board's whole page for a viewer holding `csrf`. The kit's zones sit on the default
    /// board. - Throws: ``StoreError/unknownBoard(_:)``.
    func page(board: String = BoardStore.defaultBoardID, csrf: String) throws -> String {
        String(decoding: try pageBody(board: board, csrf: csrf), as: UTF8.self)
    }

    /// ``pageBody(board:csrf:wider:role:who:)`` for the visitor of a request the gate let through.
    /// `done`: the operation a plain form just ran, whose words the page shows (with Undo).
    func pageBody(board: String, visitor: Visitor, wider: RowWindow? = nil, done: String? = nil) throws -> [UInt8] {
        let role = visitor.access?.role ?? .owner
        return try pageBody(board: board, csrf: visitor.browserToken, wider: wider, role: role,
                            who: renderer.who(visitor.account, board: board, csrf: visitor.browserToken)
                                + notice(done: done, board: board, csrf: visitor.browserToken, mayEdit: role.mayEdit))
    }

    /// ``page(board:csrf:)`` as the bytes sent, from ``RenderCache`` when the board has not changed.
    /// Each list shows its first ``BoardKit/rowWindow`` rows; `wider` shows more of one list or
    /// container (the "Show more" link without JavaScript), rendered for this viewer alone.
    /// (`role`: what the viewer may do, which decides the controls shown; `who`: their bar.)
    func pageBody(board: String = BoardStore.defaultBoardID, csrf: String, wider: RowWindow? = nil, role: BoardRole = .owner, who: String = "") throws -> [UInt8] {
        let render = { [self] in
            let (record, snapshot, zones) = try store.read(board: board) { tx in
                (try tx.board(), try tx.windowedSnapshot(window: kit.rowWindow, wider: wider), tx.hasZones ? try kit.zones.map { try ZoneView($0, tx) } : [])
            }
            let activity = try store.activity(board: board, limit: BoardService.activityPanelSize)
            return (renderer.page(record, snapshot, zones: zones, csrf: RenderCache.csrfMarker, op: RenderCache.opMarker, role: role,
                                  who: RenderCache.whoMarker, activity: activity), snapshot.version)
        }
        if let wider, wider.count > kit.rowWindow {
            let (text, version) = try render()
            return RenderCache.Cut(text, version: version).filled(csrf: csrf, who: who, op: BoardService.newID)
        }
        return try renderCache.body(board: board, .page(role), version: try store.version(board: board), csrf: csrf, who: who, render: render)
    }

    /// The board index for `visitor`: the boards they may open, newest activity first.
    func index(visitor: Visitor) throws -> String {
        let boards = try visitor.account.map { try store.boards(for: $0) } ?? store.boards()
        return renderer.index(boards, counts: try store.boardCounts(), csrf: visitor.browserToken, who: renderer.who(visitor.account, board: nil, csrf: visitor.browserToken))
    }

    /// Every list of a board, rendered: how a browser that missed a version catches up.
    /// Its forms carry the token of the viewer who asked (`csrf`).
    func board(_ board: String = BoardStore.defaultBoardID, csrf: String = "") throws -> BoardAPI.BoardResponse {
        let snapshot = try store.read(board: board) { try $0.windowedSnapshot(window: kit.rowWindow) }
        return BoardAPI.BoardResponse(version: snapshot.version, lists: snapshot.lists.map {
            BoardAPI.ListHTML(id: $0.id, html: renderer.list($0, in: snapshot, board: board, csrf: csrf))
        })
    }

    /// ``board(_:csrf:)`` as the JSON sent, from ``RenderCache`` when the board has not changed.
    func boardBody(_ board: String = BoardStore.defaultBoardID, csrf: String) throws -> [UInt8] {
        try renderCache.body(board: board, .api, version: try store.version(board: board), csrf: csrf) {
            let snapshot = try store.read(board: board) { try $0.windowedSnapshot(window: kit.rowWindow) }
            let response = BoardAPI.BoardResponse(version: snapshot.version, lists: snapshot.lists.map {
                BoardAPI.ListHTML(id: $0.id, html: renderer.list($0, in: snapshot, board: board, csrf: RenderCache.csrfMarker, op: RenderCache.opMarker))
            })
            return (try Self.json(response), snapshot.version)
        }
    }

    /// Tells the viewers of boards that rows left (moved to another board) to take them away.
    func broadcastDepartures(_ departures: [OperationResult.Departure]) {
        for departure in departures {
            let changes = departure.items.map { BoardAPI.Change(kind: .remove, item: $0) }
            // The lists' counts as now (that board may have moved on since: its next change says them again).
            let counts = try? store.read(board: departure.board) { tx in Dictionary(try tx.listCounts().map { ($0.list, $0.count) }, uniquingKeysWith: { a, _ in a }) }
            live.broadcast(event: "changes", board: departure.board, version: departure.version,
                           json: BoardAPI.LiveChanges(version: departure.version, changes: changes, counts: counts).jsonString)
        }
    }

    static func json<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
