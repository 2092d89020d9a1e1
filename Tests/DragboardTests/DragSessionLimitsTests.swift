import DragAndDrop
@testable import Dragboard
import Foundation
import Testing

/// The shares of drags in progress: per browser, per address, per signed-in person, and the reserve that
/// keeps a newcomer able to drag when many addresses fill theirs.
@Suite struct DragSessionLimitsTests {
    private func engine() -> SessionEngine {
        SessionEngine(externalItems: [DragItem(itemProvider: ItemProvider(object: "Card"))], targets: DropTargets())
    }

    private func token() -> String {
        UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    }

    private func refusal(_ work: () throws -> Void) -> String? {
        do {
            try work()
            return nil
        } catch let DragboardError.tooMany(words, retryAfter) {
            #expect((retryAfter ?? 0) >= 1, "a 429 says when to try again")
            return words
        } catch {
            return "\(error)"
        }
    }

    @Test func aNewcomerStillDragsWhenOtherAddressesFillTheirShares() throws {
        let sessions = DragSessions(limits: BoardLimits(sessionsPerClient: 1000, sessionsPerAddress: 40, sessions: 64, sessionReserve: 24))
        // Address A fills its share while the server has room.
        for index in 0..<40 { _ = try sessions.insert(engine(), token: token(), owner: "a\(index)", address: "10.0.0.1", version: 0) }
        // Only the reserve is left: address B (within its share) gets up to the light use, then words.
        for index in 0..<BoardLimits.lightSessionUse { _ = try sessions.insert(engine(), token: token(), owner: "b\(index)", address: "10.0.0.2", version: 0) }
        let words = refusal { _ = try sessions.insert(engine(), token: token(), owner: "b-more", address: "10.0.0.2", version: 0) }
        #expect(words?.contains("nearly at its limit") == true)
        // Someone from a new address can still drag.
        #expect(refusal { _ = try sessions.insert(engine(), token: token(), owner: "newcomer", address: "10.0.0.3", version: 0) } == nil)
    }

    @Test func aSignedInPersonHasAShareAcrossBrowsersAndAddresses() throws {
        let sessions = DragSessions(limits: BoardLimits(sessionsPerClient: 1000, sessionsPerAddress: 1000, sessionsPerUser: 3))
        for index in 0..<3 { _ = try sessions.insert(engine(), token: token(), owner: "browser\(index)", address: "10.0.0.\(index)", user: "ada", version: 0) }
        let words = refusal { _ = try sessions.insert(engine(), token: token(), owner: "browser9", address: "10.0.0.9", user: "ada", version: 0) }
        #expect(words?.contains("your account has 3 unfinished drags") == true)
        #expect(refusal { _ = try sessions.insert(engine(), token: token(), owner: "browser9", address: "10.0.0.9", user: "grace", version: 0) } == nil)
    }

    @Test func filesWaitingInADragAreGivenBackWhenItEndsOrExpires() throws {
        let sessions = DragSessions(lifetime: .milliseconds(200), limits: BoardLimits(pendingUploadBytesPerDrag: 100, pendingUploadBytesPerAddress: 150,
                                                                                     pendingUploadBytes: 1000))
        let ended = try sessions.insert(engine(), token: token(), owner: "a", address: "10.0.0.1", version: 0)
        let expiring = try sessions.insert(engine(), token: token(), owner: "a", address: "10.0.0.1", version: 0)
        try sessions.reserveUpload(100, for: try sessions.entry(ended, owner: "a"))
        #expect(refusal { try sessions.reserveUpload(1, for: try sessions.entry(ended, owner: "a")) }?.contains("a drag may bring at most") == true)
        let addressFull = refusal { try sessions.reserveUpload(60, for: try sessions.entry(expiring, owner: "a")) }
        #expect(addressFull?.contains("from your network address") == true)
        try sessions.reserveUpload(50, for: try sessions.entry(expiring, owner: "a"))
        #expect(sessions.uploads.total == 150)
        sessions.remove(ended)
        #expect(sessions.uploads.total == 50)
        // The sweep ends the other at its lifetime, whether or not anyone drags again.
        let deadline = ContinuousClock.now + .seconds(5)
        while sessions.uploads.total > 0, ContinuousClock.now < deadline {
            sessions.removeExpired()
            Thread.sleep(forTimeInterval: 0.01)
        }
        #expect(sessions.uploads.total == 0)
        #expect(sessions.count == 0)
    }
}
