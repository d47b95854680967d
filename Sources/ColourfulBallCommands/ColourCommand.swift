import ArgumentParser
import BallReplay
import ColourCore
import Platform
import TerminalIO
import TextFormats

/// `colourful-ball colour`: the colour rules, headless, for people and scripts.
struct ColourCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "colour",
        abstract: "Print the ball and background colours for a position, or flatten / complement a colour.",
        // One position, or one of the other questions: the argument is an array only so that a
        // negative number reads as a number, which ArgumentParser's own usage would draw as many.
        usage: """
            colourful-ball colour <x> <y> [--cells] [--json]
            colourful-ball colour --flatten <#RRGGBB> [--json]
            colourful-ball colour --complement <#RRGGBB> [--json]
            colourful-ball colour --palette [--json]
            """,
        discussion: """
            Positions are in points, as on the original phone screen (one terminal cell is \
            8 by 16 points); negative numbers work as they are (`colour -300 10`) or after `--`.
            """,
        aliases: ["color"]
    )

    @Argument(
        parsing: .allUnrecognized,
        help: ArgumentHelp("The ball centre: X and Y in points (or a column and row with --cells).", valueName: "x y"))
    var coordinates: [String] = []

    @Flag(help: "Read X and Y as a cell column and row (0-based) instead of points.")
    var cells = false

    @Option(help: ArgumentHelp("Print the flat colour nearest to a colour.", valueName: "#RRGGBB"))
    var flatten: String?

    @Option(help: ArgumentHelp("Print the complementary flat colour of a colour.", valueName: "#RRGGBB"))
    var complement: String?

    @Flag(help: "List all 48 flat colours (with swatches on a colour terminal).")
    var palette = false

    @Flag(help: "Print JSON instead of text.")
    var json = false

    mutating func validate() throws {
        let modes = [!coordinates.isEmpty, flatten != nil, complement != nil, palette].filter { $0 }.count
        guard modes == 1 else {
            throw ValidationError(
                modes == 0
                    ? "Give a position (X Y), --flatten, --complement or --palette."
                    : "Give only one of: a position (X Y), --flatten, --complement, --palette.")
        }
        if cells, coordinates.isEmpty { throw ValidationError("--cells goes with a position (COLUMN ROW).") }
        // Parse now, so a bad value is reported with this command's usage.
        if !coordinates.isEmpty { _ = try position() }
        if let flatten { _ = try Self.colour(flatten) }
        if let complement { _ = try Self.colour(complement) }
    }

    func run() throws {
        var output = ""
        if palette {
            output = paletteText()
        } else if let flatten {
            output = colourAnswer(
                input: flatten, flat: ColourCore.flatten(try Self.colour(flatten)), verb: "flattens to")
        } else if let complement {
            output = colourAnswer(
                input: complement, flat: complementary(try Self.colour(complement)), verb: "complements to")
        } else {
            output = try positionAnswer()
        }
        try DescriptorOutput.standardOutput.writeAll(Array((output + "\n").utf8))
    }

    // MARK: - Positions

    /// The coordinates as given, without the `--` that may end the options before them.
    private var numbers: [String] {
        guard let terminator = coordinates.firstIndex(of: "--") else { return coordinates }
        var numbers = coordinates
        numbers.remove(at: terminator)
        return numbers
    }

    /// The position the coordinates name, in points.
    private func position() throws -> PointPosition {
        let coordinates = numbers
        if let unknown = coordinates.first(where: { $0.hasPrefix("-") && Double($0) == nil }) {
            throw ValidationError("Unknown option '\(unknown.visibleInMessage)'.")
        }
        guard coordinates.count == 2 else {
            throw ValidationError(
                "Give exactly two numbers, X and Y\(cells ? " (a column and a row)" : " in points"), such as `colour 328 192`; got \(coordinates.count)."
            )
        }
        let first = try Self.number(coordinates[0], cells: cells)
        let second = try Self.number(coordinates[1], cells: cells)
        let position =
            cells ? PointPosition(column: Int(first), row: Int(second)) : PointPosition(x: first, y: second)
        guard position.x.isFinite, position.y.isFinite, (position.x + position.y).isFinite else {
            throw ValidationError("The position is too large: X + Y must be a finite number.")
        }
        return position
    }

    private func positionAnswer() throws -> String {
        let position = try position()
        let ball = BallColourRule.ballColour(at: position)
        let background = BallColourRule.backgroundCandidate(forBall: ball)
        if json {
            return
                #"{"points":[\#(position.x.plainText),\#(position.y.plainText)],"ball":\#(ball.jsonObject),"background":\#(background.jsonObject)}"#
        }
        let swatches = Swatches.forStandardOutput()
        var lines = ["position    \(position.x.plainText), \(position.y.plainText) points"]
        if cells { lines[0] += "  (cell \(numbers[0]), \(numbers[1]))" }
        lines.append("ball        \(swatches.swatch(ball))\(ball.name) \(ball.hex)")
        if let background {
            lines.append("background  \(swatches.swatch(background))\(background.name) \(background.hex)")
        } else {
            lines.append("background  unchanged (the complement of \(ball.name) is itself)")
        }
        return lines.joined(separator: "\n")
    }

    /// Parses one coordinate: a finite decimal number (cells: a whole number).
    static func number(_ text: String, cells: Bool) throws -> Double {
        guard let value = Double(text), !text.isEmpty, text.allSatisfy({ !$0.isWhitespace }) else {
            throw ValidationError(
                "'\(text.visibleInMessage)' is not a number: give X and Y as numbers, such as `colour 328 192`.")
        }
        guard value.isFinite else {
            throw ValidationError(
                "'\(text.visibleInMessage)' is not a finite number: give X and Y as ordinary numbers.")
        }
        if cells, value != value.rounded() {
            throw ValidationError("'\(text.visibleInMessage)' is not a cell: with --cells give a whole column and row.")
        }
        if cells, abs(value) > 1e12 {
            throw ValidationError(
                "'\(text.visibleInMessage)' is too large for a cell: with --cells give a column and row of at most 12 digits."
            )
        }
        return value
    }

    // MARK: - Colours

    static func colour(_ text: String) throws -> RGBColour {
        guard let colour = RGBColour(hex: text) else {
            throw ValidationError("'\(text.visibleInMessage)' is not a colour: write it as #RRGGBB, such as '#78302A'.")
        }
        return colour
    }

    private func colourAnswer(input: String, flat: FlatColour, verb: String) -> String {
        let inputHex = RGBColour(hex: input)!.hex
        if json { return #"{"input":"\#(inputHex)","flat":\#(flat.jsonObject)}"# }
        let swatches = Swatches.forStandardOutput()
        return
            "\(swatches.swatch(RGBColour(hex: input)!))\(inputHex) \(verb) \(swatches.swatch(flat))\(flat.name) \(flat.hex)"
    }

    private func paletteText() -> String {
        if json {
            let entries = FlatColour.allCases.map { colour in
                let definition = colour.definition
                return
                    #"{"name":"\#(colour.name)","hex":"\#(colour.hex)","hsb":[\#(definition.hue),\#(definition.saturation),\#(definition.brightness)],"complement":"\#(colour.complement.name)","xterm256":\#(colour.terminalIndex(in: .xterm256)),"ansi16":\#(colour.terminalIndex(in: .ansi16)),"ansi8":\#(colour.terminalIndex(in: .ansi8))}"#
            }
            return #"{"palette":[\#(entries.joined(separator: ","))]}"#
        }
        let swatches = Swatches.forStandardOutput()
        var lines = ["    name                 hex      h/s/b        complement           xterm-256 16 8"]
        for colour in FlatColour.allCases {
            let definition = colour.definition
            let hsb = "\(definition.hue)/\(definition.saturation)/\(definition.brightness)"
            lines.append(
                swatches.swatch(colour) + colour.name.padded(21) + colour.hex + "  " + hsb.padded(13)
                    + colour.complement.name.padded(21) + String(colour.terminalIndex(in: .xterm256)).padded(10)
                    + String(colour.terminalIndex(in: .ansi16)).padded(3) + String(colour.terminalIndex(in: .ansi8)))
        }
        return lines.joined(separator: "\n")
    }
}

extension String {
    fileprivate func padded(_ width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}

// MARK: - Swatches

/// Colour swatches for standard output: 24-bit where the terminal says it has it, the
/// xterm-256 table otherwise, nothing when stdout is not a colour terminal or NO_COLOR is set.
struct Swatches {
    enum Depth { case none, indexed, direct }
    let depth: Depth

    static func forStandardOutput() -> Swatches {
        guard isatty(STDOUT_FILENO) == 1 else { return Swatches(depth: .none) }
        switch ColourDepth.forStandardOutput() {
        case .monochrome: return Swatches(depth: .none)
        case .direct: return Swatches(depth: .direct)
        case .palette: return Swatches(depth: .indexed)
        }
    }

    func swatch(_ colour: FlatColour) -> String {
        switch depth {
        case .none: return ""
        case .indexed: return "\u{1B}[48;5;\(colour.terminalIndex(in: .xterm256))m  \u{1B}[0m "
        case .direct: return swatch(colour.rgb)
        }
    }

    func swatch(_ colour: RGBColour) -> String {
        switch depth {
        case .none: return ""
        case .indexed: return swatch(ColourCore.flatten(colour))
        case .direct:
            let (red, green, blue) = colour.channels
            return "\u{1B}[48;2;\(red);\(green);\(blue)m  \u{1B}[0m "
        }
    }
}
