import Foundation

#if !canImport(UIKit)
extension IndexPath {
    /// A table row's index path, as UIKit spells it: section first, then row.
    public init(row: Int, section: Int = 0) {
        self.init(indexes: [section, row])
    }

    /// The section of a table index path.
    public var section: Int { self[0] }

    /// The row of a table index path.
    public var row: Int { self[1] }
}
#endif
