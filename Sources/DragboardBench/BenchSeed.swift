import Dragboard
import DragboardStore
import Foundation
import Showcase

/// `DragboardBench seed <database> <rows>`: a showcase board file whose three cats hold `rows`
/// toys each, written through the kit's own store, for the HTTP benchmark to serve with the real
/// release server (seeding 30,000 rows through HTTP would take longer than the measurements).
enum BenchSeed {
    static func run(path: String, rows: Int) throws {
        let store = try BoardStore(path: path)
        if let seed = Showcase.kit.seed { try store.seedIfEmpty(seed) }
        for list in ["cat-1", "cat-2", "cat-3"] {
            let extra = rows - (try store.rows(in: list).count)
            guard extra > 0 else { continue }
            _ = try store.perform(operationID: "bench-seed-\(list)", fingerprint: "seed") { tx in
                try tx.insert((0..<extra).map { NewItem(kind: "toy", title: "Toy \(list) \($0)") }, at: Placement(listID: list))
                return "{}"
            }
        }
    }
}
