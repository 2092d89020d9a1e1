import Dragboard
import DragboardHTTP
import DragboardStore
import Foundation
import MicroHTTP

/// Importing a Trello export of 5,000 cards (10 lists, labels, checklists) through `POST /boards/import`:
/// read, checked and stored in one operation. Goal: under 10 s.
enum ImportBench {
    static func trelloExport(cards: Int, lists: Int = 10) -> [UInt8] {
        var text = #"{"name":"Bench board","prefs":{"background":"blue"},"labels":["#
        text += (0..<6).map { #"{"id":"lab\#($0)","name":"Label \#($0)","color":"\#(["green", "red", "sky", "lime", "purple", "orange"][$0])"}"# }.joined(separator: ",")
        text += #"],"lists":["# + (0..<lists).map { #"{"id":"list\#($0)","name":"List \#($0)","closed":false,"pos":\#($0 * 1000)}"# }.joined(separator: ",")
        text += #"],"cards":["#
        text += (0..<cards).map { index in
            #"{"id":"card\#(index)","name":"Card number \#(index)","desc":"A description of card \#(index)\nwith two lines","closed":\#(index % 50 == 0),"# +
                #""pos":\#(index),"idList":"list\#(index % lists)","due":"2027-0\#(1 + index % 9)-1\#(index % 9)T10:00:00.000Z","idLabels":["lab\#(index % 6)"]}"#
        }.joined(separator: ",")
        text += #"],"checklists":["#
        text += stride(from: 0, to: cards, by: 5).map { index in
            #"{"id":"chk\#(index)","idCard":"card\#(index)","pos":1,"checkItems":[{"name":"One","state":"complete","pos":1},{"name":"Two","state":"incomplete","pos":2}]}"#
        }.joined(separator: ",")
        return Array((text + "]}").utf8)
    }

    static func run(root: URL) async throws {
        print("== Import: a Trello export of 5,000 cards through POST /boards/import (goal: < 10 s) ==")
        let file = trelloExport(cards: 5_000)
        var samples: [Duration] = []
        for _ in 0..<3 {
            let (_, router, directory) = try await BoardBench.makeBoard(rows: 10, root: root)
            defer { try? FileManager.default.removeItem(at: directory) }
            let headers: HTTPHeaders = ["Cookie": "dragboard_csrf=\(BoardBench.csrf)", "X-CSRF-Token": BoardBench.csrf, "Content-Type": "application/json"]
            let clock = ContinuousClock()
            let started = clock.now
            let response = router.respond(to: Request(method: .post, path: "/boards/import", headers: headers, body: file))
            samples.append(clock.now - started)
            guard response.status == .created else { fatalError("import failed: \(response.status.code)") }
        }
        let sorted = samples.sorted()
        print("  \(file.count / 1024) KB file, 4,900 open cards: median \(sorted[1]), best \(sorted[0]), worst \(sorted[2]) (3 runs)")
    }
}
