import Dragboard
import DragboardHTTP
import DragboardStore
import Foundation
import Logging
import MicroHTTP
import Showcase

/// Server time to apply a drop and render what changed, and to render the whole board,
/// through the public router (JSON decoding and the durable commit included).
enum BoardBench {
    static let csrf = "0123456789abcdef0123456789abcdef"

    static func makeBoard(rows: Int, root: URL) async throws -> (BoardService, Router, URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dragboard-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let store = try BoardStore(path: directory.appendingPathComponent("bench.sqlite").path)
        if let seed = Showcase.kit.seed { try store.seedIfEmpty(seed) }
        let extra = rows - (try store.rows(in: "cat-1").count)
        if extra > 0 {
            _ = try store.perform(operationID: "bench-seed", fingerprint: "seed") { tx in
                try tx.insert((0..<extra).map { NewItem(kind: "toy", title: "Toy \($0)") }, at: Placement(listID: "cat-1"))
                return "{}"
            }
        }
        let renderer = try await BoardRenderer(templatesDirectory: root.appendingPathComponent("Templates").path, kit: Showcase.kit)
        let service = try BoardService(store: store, renderer: renderer, imagesDirectory: directory.appendingPathComponent("images"), logger: Logger(label: "bench"))
        var router = Router()
        service.addRoutes(to: &router)
        return (service, router, directory)
    }

    static func post(_ router: Router, _ path: String, _ json: String) -> Response {
        router.respond(to: Request(method: .post, path: path, headers: [
            "Cookie": "dragboard_csrf=\(csrf)", "X-CSRF-Token": csrf, "Content-Type": "application/json",
        ], body: Array(json.utf8)))
    }

    static func run(root: URL) async throws {
        print("== Drop: apply + durable commit + changed-row fragments (reorder in a list) ==")
        var medians: [Int: Duration] = [:]
        for rows in [100, 10_000] {
            let (service, router, directory) = try await makeBoard(rows: rows, root: root)
            defer { try? FileManager.default.removeItem(at: directory) }
            var samples: [Duration] = []
            var begins: [Duration] = []
            var commits: [Duration] = []
            let clock = ContinuousClock()
            var ids = try service.store.rows(in: "cat-1").map(\.id)
            for iteration in 0..<400 {
                let token = String(format: "%032x", iteration + 1)
                var begin = Response()
                begins.append(clock.measure { begin = post(router, "/api/sessions", #"{"token":"\#(token)","list":"cat-1","items":["\#(ids[0])"]}"#) })
                guard begin.status == .created else { fatalError("begin failed: \(begin.status)") }
                let version = try service.store.version()
                let body = #"{"op":"\#(UUID().uuidString)","version":\#(version),"target":{"list":"cat-1"},"location":{"row":\#(rows / 2),"fraction":0.3}}"#
                var response: Response?
                let elapsed = clock.measure { response = post(router, "/api/sessions/\(token)/drop", body) }
                guard response?.status == .ok else { fatalError("drop failed: \(String(describing: response?.status))") }
                ids.insert(ids.removeFirst(), at: rows / 2 - 1)   // where the first row went
                _ = post(router, "/api/sessions/\(token)/end", "{}")
                // The floor: one durable transaction that renames a row, nothing else.
                let commit = try clock.measure {
                    _ = try service.store.perform(operationID: UUID().uuidString, fingerprint: "floor") { tx in
                        try tx.setTitle(ids[1], "Toy \(iteration)")
                        return "{}"
                    }
                }
                if iteration >= 20 {
                    samples.append(elapsed)
                    commits.append(commit)
                }
            }
            let measurement = Measurement(samples: samples)
            report("drop in a \(rows)-row list", measurement)
            report("  durable commit floor (one UPDATE, FULL sync)", Measurement(samples: commits))
            report("  drag start: session + proposal table", Measurement(samples: begins))
            medians[rows] = measurement.median
        }
        if let small = medians[100], let large = medians[10_000] {
            print(String(format: "10,000-row list vs 100-row list (p50): %.2fx", large / small))
        }

        print("== Whole board render (GET /boards/demo) ==")
        for rows in [1_000, 10_000] {
            let (service, router, directory) = try await makeBoard(rows: rows, root: root)
            defer { try? FileManager.default.removeItem(at: directory) }
            let page = Request(method: .get, path: "/boards/demo")
            // Cold: a change (not timed) before each request, so the page is read and rendered anew,
            // as the first viewer after every drop gets it.
            let clock = ContinuousClock()
            let first = try service.store.rows(in: "cat-1")[0].id
            var cold: [Duration] = []
            for iteration in 0..<(rows >= 10_000 ? 15 : 50) {
                _ = try service.store.perform(operationID: UUID().uuidString, fingerprint: "cold") { tx in
                    try tx.setTitle(first, "Toy cold \(iteration)")
                    return "{}"
                }
                cold.append(clock.measure { precondition(router.respond(to: page).status == .ok) })
            }
            report("board page, ~\(rows) items, cold (read + render)", Measurement(samples: cold))
            // Warm: nothing changed since the last request, so the page comes from the render cache.
            let warm = Measurement(iterations: rows >= 10_000 ? 15 : 50) {
                precondition(router.respond(to: page).status == .ok)
            }
            report("board page, ~\(rows) items, render cache hit", warm)
        }
    }
}

