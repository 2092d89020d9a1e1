import DragAndDrop
import Foundation

/// Proposal tables for lists of growing length: the default row-by-row path must stay linear.
enum ProposalTableBench {
    struct Blocks: ListDropDelegate {
        func dropSessionDidUpdate(_ session: DropSession, in list: ListTarget, withDestinationIndexPath destinationIndexPath: IndexPath?) -> DropProposal {
            guard let row = destinationIndexPath?.row else { return DropProposal(operation: .copy) }
            return (row / 50) % 2 == 0 ? DropProposal(operation: .move, intent: .insertAtDestinationIndexPath) : .forbidden("full")
        }
        func performDrop(in list: ListTarget, with coordinator: inout DropCoordinator) throws {}
    }

    struct Source: ListDragDelegate {
        func itemsForBeginning(_ session: inout DragSession, at indexPath: IndexPath, in list: ListTarget) -> [DragItem] {
            [DragItem(itemProvider: ItemProvider(object: "row \(indexPath.row)"))]
        }
    }

    static func run() {
        print("== Proposal table (default per-row delegate, runs of 50) ==")
        var perRow: [Int: Double] = [:]
        for rows in [10, 1_000, 100_000] {
            var targets = DropTargets()
            targets.add(ListTarget(id: "list", rowCount: rows), delegate: Blocks())
            let iterations = rows >= 100_000 ? 30 : 300
            let measurement = Measurement(iterations: iterations) {
                var engine = SessionEngine.beginDrag(from: ListTarget(id: "list", rowCount: rows), at: [IndexPath(row: 0)], delegate: Source(), targets: targets)!
                _ = engine.proposalTable()
            }
            report("proposal table, \(rows) rows", measurement)
            let (seconds, atto) = measurement.median.components
            perRow[rows] = (Double(seconds) * 1e9 + Double(atto) / 1e9) / Double(rows + 1)
        }
        if let small = perRow[1_000], let large = perRow[100_000] {
            print(String(format: "per-row cost at 100,000 rows vs 1,000 rows: %.2fx (1.0 = linear)", large / small))
        }
    }
}
