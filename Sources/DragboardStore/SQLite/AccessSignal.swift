import Foundation
import Glibc
import Synchronization

/// A count of changes to who may do what, kept in a small file beside a SQLite database and mapped
/// into every process that opens the database (the server, and `dragboard users` beside it): a
/// process that commits such a change raises it, and a server notices by reading its own memory, at
/// the cost of a load, not a read transaction. SQLite's own `-shm` file works the same way.
///
/// The count means nothing but "it moved": a missing file starts at zero, and two processes that
/// raise it at once both move it.
final class AccessSignal: Sendable {
    /// Where the count is mapped (an address: the mapping lives as long as this object).
    private let address: UInt
    let path: String

    /// The file beside the database at `databasePath`.
    static func path(beside databasePath: String) -> String { databasePath + "-access" }

    /// Opens (creating it if needed) and maps the file beside `databasePath`.
    /// - Throws: ``StoreError/invalid(_:)`` when the file cannot be opened for writing or mapped:
    ///   a process that could not raise the count would change access unseen.
    init(beside databasePath: String) throws {
        path = Self.path(beside: databasePath)
        let size = MemoryLayout<UInt64>.size
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw Self.failure("open", path) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw Self.failure("stat", path) }
        // Grown to its size once; never shrunk (another process may have it mapped).
        if status.st_size < size, ftruncate(descriptor, off_t(size)) != 0 { throw Self.failure("size", path) }
        let mapped = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0)
        guard let mapped, mapped != MAP_FAILED else { throw Self.failure("map", path) }
        address = UInt(bitPattern: mapped)
    }

    deinit {
        munmap(UnsafeMutableRawPointer(bitPattern: address), MemoryLayout<UInt64>.size)
    }

    /// The count in the mapped page, shared with every other process that maps it. An aligned
    /// 8-byte atomic in shared memory is atomic across processes too.
    private var count: UnsafeMutablePointer<Atomic<UInt64>> {
        UnsafeMutableRawPointer(bitPattern: address)!.assumingMemoryBound(to: Atomic<UInt64>.self)
    }

    /// The count now.
    var value: UInt64 {
        count.pointee.load(ordering: .acquiring)
    }

    /// Moves the count: every process that maps the file sees it move. Called after the change
    /// committed, so whoever sees it move and asks the database again reads the change.
    func raise() {
        count.pointee.wrappingAdd(1, ordering: .releasing)
    }

    private static func failure(_ step: String, _ path: String) -> StoreError {
        StoreError.invalid("cannot \(step) \(path), where processes sharing the database tell each other of access changes: \(String(cString: strerror(errno)))")
    }
}
