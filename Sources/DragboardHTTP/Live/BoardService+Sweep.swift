import Dispatch
import Dragboard
import DragboardStore
import Logging

extension BoardService {
    /// Closes the live streams of sign-ins that ended and of people who are no longer members of
    /// the board they watch, whichever process made the change (`dragboard users remove`, another
    /// instance's members page): two reads, only while signed-in streams are open.
    func sweepLiveStreams() {
        let viewers = live.signedInViewers
        guard !viewers.isEmpty else { return }
        do {
            let standing = try store.standing(ofSignIns: Set(viewers.compactMap(\.signIn)))
            live.close { viewer in
                guard let signIn = viewer.signIn else { return false }
                guard let found = standing[signIn] else { return true }
                return !found.isAdmin && !found.boards.contains(viewer.board)
            }
        } catch {
            logger.warning("live stream sweep failed: \(error)")
        }
    }

}

/// A repeating timer that stops when its owner lets it go.
final class RepeatingTimer: Sendable {
    // A dispatch source may be cancelled from any thread; it is set once, before any other use.
    private nonisolated(unsafe) let timer: any DispatchSourceTimer

    init(every interval: DispatchTimeInterval, label: String, _ tick: @escaping @Sendable () -> Void) {
        timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: label))
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler(handler: tick)
        timer.resume()
    }

    deinit {
        timer.cancel()
    }
}
