/// The board as a card edit changes it, inside the edit's transaction (the store's transaction
/// conforms): a row's payload, the board's labels and colour.
package protocol CardEditing: BoardEditing {
    /// Replaces a row's payload.
    func setPayload(_ id: String, _ payload: String) throws
    func labels() throws -> BoardLabels
    func setLabels(_ labels: BoardLabels) throws
    func setColor(_ color: PaletteColor) throws
}
