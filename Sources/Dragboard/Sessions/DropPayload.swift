import DragAndDrop
import Foundation
import Synchronization

/// What a drop from outside brings: the strings the browser read from its DataTransfer and the
/// files uploaded for it. Filled at drop time; the session's item providers are promises that
/// read from it — the UIKit model, where data is loaded only in perform-drop.
package final class DropPayload: Sendable {
    private struct State {
        var strings: [String: String] = [:]
        var uploads: [String: DroppedImage] = [:]
        /// Upload ids in the order of the session's file items.
        var fileOrder: [String?] = []
        /// Uploads stored or in progress.
        var reserved = 0
    }

    private let state = Mutex(State())
    /// Where this session's uploads wait until a drop stores them.
    package let uploadDirectory: URL
    /// How many files the drag showed when it entered: no more uploads are taken.
    let declaredFiles: Int

    package init(uploadDirectory: URL, declaredFiles: Int) {
        self.uploadDirectory = uploadDirectory
        self.declaredFiles = declaredFiles
    }

    /// Takes one of the declared uploads, or refuses: a session stores at most the files it
    /// declared.
    package func reserveUpload() throws {
        try state.withLock { state in
            guard state.reserved < declaredFiles else {
                let files = declaredFiles == 1 ? "1 file" : "\(declaredFiles) files"
                throw DragboardError.quotaExceeded("this drag declared \(files); no more uploads are taken for it")
            }
            state.reserved += 1
        }
    }

    /// Gives back an upload that failed or was refused, so the browser may send it again.
    package func releaseUpload() { state.withLock { $0.reserved -= 1 } }

    package func setStrings(_ strings: [String: String]) { state.withLock { $0.strings = strings } }
    package func string(for mimeType: String) -> String? { state.withLock { $0.strings[mimeType] } }

    package func addUpload(_ id: String, _ file: DroppedImage) { state.withLock { $0.uploads[id] = file } }
    func upload(_ id: String) -> DroppedImage? { state.withLock { $0.uploads[id] } }

    /// Binds the session's file items, in order, to uploads (nil: the browser did not upload that
    /// file); throws for an unknown upload.
    package func bindFiles(_ ids: [String?]) throws {
        try state.withLock { state in
            guard ids.allSatisfy({ $0.map { state.uploads[$0] != nil } ?? true }) else { throw DragboardError.notFound("unknown uploaded file") }
            state.fileOrder = ids
        }
    }

    /// The upload bound to the session's `index`-th file item.
    package func file(at index: Int) throws -> DroppedImage {
        try state.withLock { state in
            guard state.fileOrder.indices.contains(index), let id = state.fileOrder[index], let file = state.uploads[id] else {
                throw DragboardError.unprocessable("file \(index + 1) of the drop was not uploaded")
            }
            return file
        }
    }

    /// Deletes uploads no drop stored (a drop moves the ones it keeps out of the folder).
    func discard() {
        try? FileManager.default.removeItem(at: uploadDirectory)
    }
}
