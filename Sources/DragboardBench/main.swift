import Foundation

// `make bench`: prints medians and p99s; nothing here is asserted.
let root = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
ProposalTableBench.run()
try await BoardBench.run(root: root)
try await ImageBench.run(root: root)
