import Dragboard
import DragboardHTTP
import DragboardStore
import Foundation
import MicroHTTP

/// Storing dropped images: upload through the streaming sink, then the drop that keeps them.
/// Peak memory must not grow with the file size: the sink streams to disk.
enum ImageBench {
    static func peakMemoryKB() -> Int {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return usage.ru_maxrss
    }

    static func run(root: URL) async throws {
        print("== Dropped images: upload (streamed to disk) + drop into the image well ==")
        let chunk = [UInt8](repeating: 0x42, count: 64 * 1024)
        let header: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0]
        for (label, size, count) in [("100 KB", 100 * 1024, 200), ("10 MB", 10 * 1024 * 1024, 12)] {
            // A board of its own for each size: the well keeps at most 200 images (the default quota).
            let (service, router, directory) = try await BoardBench.makeBoard(rows: 10, root: root)
            defer { try? FileManager.default.removeItem(at: directory) }
            let before = peakMemoryKB()
            var samples: [Duration] = []
            let clock = ContinuousClock()
            for index in 0..<count {
                let token = String(format: "%032x", 0xabc000 + index + size)
                let begin = BoardBench.post(router, "/api/sessions/external", #"{"token":"\#(token)","types":[],"files":["image/png"]}"#)
                guard begin.status == .created else { fatalError("external begin failed: \(begin.status)") }
                var response = Response()
                samples.append(try clock.measure {
                    let sink = try service.uploadSink(token, request: Request(method: .post, path: "/"), owner: BoardBench.csrf)
                    try header.withUnsafeBytes { try sink.write($0) }
                    var written = header.count
                    while written < size {
                        let part = chunk.prefix(size - written)
                        try part.withUnsafeBytes { try sink.write($0) }
                        written += part.count
                    }
                    let upload = try sink.finish()
                    guard case .bytes(let bytes) = upload.body, let json = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
                          let file = json["file"] as? String else { fatalError("upload failed") }
                    let version = try service.store.version()
                    response = BoardBench.post(router, "/api/sessions/\(token)/drop",
                                               #"{"op":"\#(UUID().uuidString)","version":\#(version),"target":{"zone":"image-well"},"files":["\#(file)"],"data":[]}"#)
                })
                guard response.status == .ok else { fatalError("image drop failed: \(response.status)") }
                _ = BoardBench.post(router, "/api/sessions/\(token)/end", "{}")
            }
            let measurement = Measurement(samples: samples)
            let seconds = Double(measurement.median.components.seconds) + Double(measurement.median.components.attoseconds) / 1e18
            report("store a \(label) image", measurement)
            print(String(format: "  throughput at p50: %.1f MB/s; %.0f images/s", Double(size) / 1_048_576 / seconds, 1 / seconds))
            print("  peak memory: \(before / 1024) MB before, \(peakMemoryKB() / 1024) MB after")
        }
    }
}
