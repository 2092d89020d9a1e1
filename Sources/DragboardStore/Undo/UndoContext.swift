
/// The browser identity the undo history of the request being handled belongs to: set by the
/// form routes around an edit, so the edits need no extra parameter.
package enum UndoContext {
    @TaskLocal package static var owner: String?
}
