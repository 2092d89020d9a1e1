import Foundation

// `make bench`: prints medians and p99s; nothing here is asserted. These figures are in process
// (the router called directly: no sockets, no libmicrohttpd); Tests/bench/http_bench.py measures
// the release server over real sockets.
let arguments = CommandLine.arguments.dropFirst()
if arguments.first == "import" {
    try await ImportBench.run(root: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
} else if arguments.first == "seed", arguments.count == 3, let rows = Int(arguments.last!) {
    try BenchSeed.run(path: arguments[arguments.startIndex + 1], rows: rows)
} else {
    let root = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    ProposalTableBench.run()
    try await BoardBench.run(root: root)
    try await ImageBench.run(root: root)
    try await ImportBench.run(root: root)
}
