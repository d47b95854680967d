import BallRendering
import ColourCore

// MARK: - The naive baseline

/// What a naive program sends: every cell of every frame, each with a full cursor address
/// where the previous cell was not its left neighbour and a colour code wherever the colours
/// change, with exact 24-bit colours. The bench compares the rasteriser's bytes with these.
struct NaiveFrameWriter {
    private var previous: Frame?

    /// A writer that has drawn nothing yet.
    init() {}

    /// The bytes that take the screen from the last frame to `frame`.
    mutating func bytes(for frame: Frame) -> String {
        var output = ""
        var pen: (foreground: FlatColour, background: FlatColour, bold: Bool)?
        var cursor: (column: Int, row: Int)?
        let whole = previous?.size != frame.size
        if whole { output += "\u{1B}[?25l\u{1B}[0m\u{1B}[H\u{1B}[2J" }
        for row in 0..<frame.size.rows {
            for column in 0..<frame.size.columns {
                let cell = frame[column, row]
                if !whole, let previous, previous[column, row] == cell { continue }
                if cursor.map({ $0.column != column || $0.row != row }) ?? true {
                    output += "\u{1B}[\(row + 1);\(column + 1)H"
                }
                if pen.map({
                    $0.foreground != cell.foreground || $0.background != cell.background || $0.bold != cell.bold
                })
                    ?? true
                {
                    output += Self.style(cell)
                    pen = (cell.foreground, cell.background, cell.bold)
                }
                output.unicodeScalars.append(cell.glyph)
                // Past the last column the cursor stays put (pending wrap): move explicitly.
                cursor = column + 1 < frame.size.columns ? (column + 1, row) : nil
            }
        }
        previous = frame
        return output
    }

    private static func style(_ cell: FrameCell) -> String {
        let (fr, fg, fb) = cell.foreground.rgb.channels
        let (br, bg, bb) = cell.background.rgb.channels
        return "\u{1B}[\(cell.bold ? "1" : "22");38;2;\(fr);\(fg);\(fb);48;2;\(br);\(bg);\(bb)m"
    }
}
