import BallModel
import ColourCore
import TextFormats

// MARK: - What shows on the status bars

/// Which flat colours show against the status line's two bars (dark and light) at one colour
/// depth: worked out once (WCAG 2.1's contrast ratio per colour and bar, at least 3:1), then
/// looked up.
struct BarVisibility: Sendable {
    private let onDark: [Bool]
    private let onLight: [Bool]

    /// The table for a screen of colour depth `depth`.
    init(depth: ColourDepth) {
        onDark = FlatColour.allCases.map { depth.canTellApart($0, Renderer.statusBackground) }
        onLight = FlatColour.allCases.map { depth.canTellApart($0, Renderer.statusForeground) }
    }

    /// Whether `colour` shows against a bar of colour `bar` (one of the two).
    func shows(_ colour: FlatColour, on bar: FlatColour) -> Bool {
        (bar == Renderer.statusBackground ? onDark : onLight)[Int(colour.rawValue)]
    }

    /// The cell a swatch of `colour` sits on, on the bar of `status`: the bar, or the text's
    /// colour where the swatch would not show against it.
    func swatchBackground(_ colour: FlatColour, on status: StatusColours) -> FlatColour {
        shows(colour, on: status.bar) ? status.bar : status.text
    }
}
