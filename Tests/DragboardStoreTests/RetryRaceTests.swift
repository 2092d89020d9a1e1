import Dispatch
@testable import DragboardStore
import Foundation
import Synchronization
import Testing
@testable import Dragboard
@testable import DragboardPostgres

/// On PostgreSQL an operation's record is read with its board's lock, in one statement, as of
/// before the lock was waited for. A retry that arrives while its first attempt holds the board
/// (through another instance) finds no record there and runs again: it must still be answered as
/// the first attempt was, and change nothing more.
@Suite struct RetryRaceTests {
    /// The first attempt on `first` holds the board until the retry on `second` waits for it; then
    /// both finish. Returns both results.
    func race(_ t: TempStore, body: @escaping @Sendable (BoardTransaction) throws -> String) throws -> (OperationResult, OperationResult) {
        let second = try BoardStore(database: t.path)
        let holding = DispatchSemaphore(value: 0), go = DispatchSemaphore(value: 0)
        let firstResult = Mutex<Result<OperationResult, any Error>?>(nil)
        let firstDone = DispatchSemaphore(value: 0)
        let store = t.store
        Thread {
            let result = Result {
                try store.perform(operationID: "op", fingerprint: "f") { tx in
                    let response = try body(tx)
                    holding.signal()
                    go.wait()
                    return response
                }
            }
            firstResult.withLock { $0 = result }
            firstDone.signal()
        }.start()
        holding.wait()
        let retryResult = Mutex<Result<OperationResult, any Error>?>(nil)
        let retryDone = DispatchSemaphore(value: 0)
        Thread {
            let result = Result { try second.perform(operationID: "op", fingerprint: "f", body) }
            retryResult.withLock { $0 = result }
            retryDone.signal()
        }.start()
        // The retry's lock statement waits for the first attempt's transaction.
        let deadline = Date().addingTimeInterval(30)
        while try t.store.engine.readOne({ try $0.fetchOne(Int.self, sql: """
            SELECT COUNT(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'
            """) }) ?? 0 == 0 {
            guard Date() < deadline else { break }
        }
        go.signal()
        firstDone.wait()
        retryDone.wait()
        return (try #require(firstResult.withLock { $0 }).get(), try #require(retryResult.withLock { $0 }).get())
    }

    /// The retry's body changes the board again: its record's id is taken, and it is answered from
    /// the record.
    @Test func aRetryThatChangesAgainIsAnsweredFromTheFirstAttemptsRecord() throws {
        let t = try TempStore(engine: .postgres)
        defer { t.remove() }
        let before = try t.store.version()
        let (first, retry) = try race(t) { tx in
            try tx.setTitle("a", "Renamed " + UUID().uuidString)
            return "renamed"
        }
        #expect(!first.replayed && first.version == before + 1)
        #expect(retry.replayed && retry.response == first.response && retry.version == first.version)
        #expect(try t.store.version() == before + 1)
        #expect(try t.store.rows(in: "people").filter { $0.title.hasPrefix("Renamed") }.count == 1)
    }

    /// The retry's body finds nothing to change (the first attempt did it): answered from the record,
    /// not as a change that did nothing.
    @Test func aRetryThatFindsNothingToChangeIsAnsweredFromTheFirstAttemptsRecord() throws {
        let t = try TempStore(engine: .postgres)
        defer { t.remove() }
        let before = try t.store.version()
        let (first, retry) = try race(t) { tx in
            try tx.move(["a"], to: Placement(listID: "links"))
            return "moved"
        }
        #expect(!first.replayed && first.version == before + 1)
        #expect(retry.replayed && retry.response == "moved" && retry.version == first.version)
        #expect(try t.store.version() == before + 1)
    }
}
