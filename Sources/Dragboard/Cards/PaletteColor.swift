/// The fixed palette a board's labels and the board itself take their colour from: a name,
/// never a free colour, so every theme can give each one a shade that keeps text readable.
public enum PaletteColor: String, Sendable, Codable, CaseIterable {
    case green, yellow, orange, red, purple, blue, teal, pink, grey

    /// The colour a new board gets when none is chosen.
    public static let boardDefault = PaletteColor.blue

    /// The colour named `name`. - Throws: ``DragboardError/badRequest(_:)`` naming the palette.
    public static func named(_ name: String) throws -> PaletteColor {
        guard let color = PaletteColor(rawValue: name) else {
            throw DragboardError.badRequest("“\(name.prefix(40))” is not a colour of the palette (\(allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        return color
    }

    /// The colour's name as people read it.
    public var title: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }
}
