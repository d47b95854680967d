import ColourCore

// MARK: - Frames as terminal bytes (for asciicast files)

/// Turns frames into the bytes an xterm-compatible terminal draws them from, with exact
/// 24-bit colours: the first frame whole, each later one as the cells that changed.
///
/// The interactive program presents frames through ncurses; this writer is for files
/// (asciicast), where no terminal is attached and the output must be the same for every run.
public struct AnsiFrameWriter {
    private var previous: Frame?

    /// A writer that has drawn nothing yet.
    public init() {}

    /// The bytes that take the screen from the last frame to `frame`.
    public mutating func bytes(for frame: Frame) -> String {
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

// MARK: - asciicast v2

/// Writes a replay as an asciicast v2 file (asciinema's format): a header line, then
/// `[time, "o", text]` lines holding the frames the renderer produced.
public enum AsciicastExport {
    /// Replays `reader` and calls `emit` with each line of the cast (no newline).
    ///
    /// `speed` divides every pause; `maximumIdle` caps each pause first (as asciinema's
    /// idle limit does).
    public static func run(
        reader: ReplayReader, speed: Double = 1, maximumIdle: Double? = nil, emit: (String) -> Void
    ) throws {
        let player = try ReplayPlayer(reader: reader)
        let header = try reader.readHeader()
        emit(
            #"{"version":2,"width":\#(header.terminal.columns),"height":\#(header.terminal.rows),"title":"colourful-ball replay","env":{"TERM":"xterm-256color"}}"#
        )
        var renderer = Renderer()
        var writer = AnsiFrameWriter()
        var frame = Frame(size: header.terminal, fill: .flatWhite)
        var latest: Appearance?
        let subscription = player.session.viewModel.appearance.sink { latest = $0 }
        defer { subscription.cancel() }
        var timing = ReplayTiming(speed: speed, maximumIdle: maximumIdle)
        var castTime = 0.0
        var drawn: Appearance?
        func emitFrameIfChanged() {
            guard let appearance = latest, appearance != drawn else { return }
            drawn = appearance
            renderer.render(appearance, into: &frame)
            let time = ((castTime * 1_000_000).rounded() / 1_000_000).plainText
            emit("[\(time), \"o\", \(writer.bytes(for: frame).jsonQuoted)]")
        }
        emitFrameIfChanged()
        while let event = try player.nextEvent() {
            castTime += timing.pause(before: event)
            player.apply(event)
            emitFrameIfChanged()
        }
    }
}
