import BallModel
import ColourCore
import TextFormats

// MARK: - Rendering

/// Builds the frame for an appearance: the screen in its colour, the ball as a half-block
/// disc, and the status line. Pure: the same appearance always gives the same frame.
///
/// The disc's whole cells are blanks in the ball's colour, and its half cells are all lower
/// half blocks `▄`: in the ball's colour on the screen's where the disc covers the lower half,
/// in the screen's colour on the ball's where it covers the upper half. So the ball's colour
/// meets the cell's edges only as a cell background, which every terminal paints exactly;
/// a glyph's edge is only ever the disc's own edge. (xterm draws block elements from the
/// font: its `█` left seams between rows and slivers beside a moving ball, and its `▀` a
/// blended row at the cell's top, while `▄` reaches the cell's bottom.)
///
/// Every colour stays visible at the screen's colour depth (``init(depth:)``): the status bar
/// is dark, or light where the screen's colour would not show against a dark one, and a
/// swatch that would not show against the bar sits on a cell of the bar's text colour. On a
/// monochrome screen the status line, the "too small" notice and the disc are in reverse
/// video, so they stand out where colours do not show.
package struct Renderer: Sendable {
    /// The status line's text colour on its usual dark bar.
    package static let statusForeground = FlatColour.flatWhite
    /// The status line's usual background: a dark bar.
    package static let statusBackground = FlatColour.flatBlackDark

    /// Whether the status line and notices are drawn in reverse video (no colours).
    package let monochrome: Bool
    /// The disc's cells, kept for the screen size its shape was made for.
    private var disc: (size: ScreenSize, rows: [DiscRow])?
    /// The status line's parts as ready cells, made once per colour (see ``StatusLine/Part``).
    private var statusParts: StatusParts
    /// The status line's place, rewritten for each frame in the same storage.
    private var place: [Unicode.Scalar] = []
    /// Which colours show against the status line's bars at this depth.
    private let visibility: BarVisibility

    /// A renderer for a screen that shows colours as a terminal of `depth` does; it keeps the
    /// disc's cells between frames of the same size.
    package init(depth: ColourDepth = .direct) {
        monochrome = depth == .monochrome
        visibility = BarVisibility(depth: depth)
        statusParts = StatusParts(visibility: visibility, reverse: monochrome)
    }

    /// The status line's colours over a screen of colour `fill`: light text on a dark bar,
    /// or dark text on a light bar where the screen would not show against a dark one.
    package func statusColours(over fill: FlatColour) -> StatusColours {
        visibility.shows(fill, on: Self.statusBackground)
            ? StatusColours(text: Self.statusForeground, bar: Self.statusBackground)
            : StatusColours(text: Self.statusBackground, bar: Self.statusForeground)
    }

    /// Draws `appearance` alone into `frame`, reusing its storage.
    package mutating func render(_ appearance: Appearance, into frame: inout Frame) {
        render(ScreenModel(appearance: appearance), into: &frame)
    }

    /// Draws `screen` into `frame`, reusing its storage: the ball's area, then `panel` (the
    /// streams panel's page, when the screen has it open) and the player's rows below it, the
    /// status line last, and the help box over it all. With a shortfall, the frame is the
    /// terminal's size and says it is too small instead.
    ///
    /// In play the frame is the ball's area and the panel's rows. A replay's frame is the whole
    /// terminal (``PlayerRows/terminal``): the recorded area at the top left, the rest of the
    /// window in the bar's colour, and the panel, the player's rows and the status line at the
    /// bottom, where they stay when the recorded area changes size: nothing of an earlier frame
    /// is left anywhere.
    package mutating func render(_ screen: ScreenModel, panel: StreamPanel? = nil, into frame: inout Frame) {
        if let shortfall = screen.player?.shortfall {
            frame.reset(size: shortfall.available, fill: Self.statusBackground)
            drawTooSmallNotice(needed: shortfall.needed, into: &frame)
            return
        }
        let appearance = screen.appearance
        let size = appearance.position.screen
        let panelRows = panel?.rowCount ?? 0
        let extraRows = screen.player?.rows ?? []
        if let terminal = screen.player?.terminal {
            frame.reset(size: terminal, fill: Self.statusBackground)
            for row in 0..<min(size.rows - 1, terminal.rows) {
                frame.withCells(row: row, columns: 0..<min(size.columns, terminal.columns)) {
                    $0.update(repeating: .blank(appearance.background))
                }
            }
        } else {
            frame.reset(
                size: ScreenSize(columns: size.columns, rows: size.rows + panelRows + extraRows.count),
                fill: appearance.background)
        }
        guard size.columns > 0, size.rows > 0 else { return }
        if size.isLargeEnough {
            if disc?.size != size { disc = (size, Self.discRows(of: appearance.position.shape)) }
            drawBall(appearance, discRows: disc!.rows, lastRow: size.rows - 2, into: &frame)
        } else if screen.player == nil {
            drawTooSmallNotice(into: &frame)
            return
        } else {
            // A part of a recording made in a window too small for the ball: the player says so
            // where the ball would be, and goes on (its rows, its status line).
            let lines = [
                "this part was recorded at \(size)", "too small for the ball (it needs \(ScreenSize.minimum))",
            ]
            for (offset, line) in lines.enumerated() where offset < frame.size.rows {
                frame.write(
                    line, column: max(0, (frame.size.columns - line.unicodeScalars.count) / 2), row: offset,
                    foreground: Self.statusForeground, background: Self.statusBackground, bold: offset == 0,
                    reverse: monochrome)
            }
        }
        let colours = statusColours(over: appearance.background)
        let panelTop = Self.panelTop(frame: frame.size, area: size, panelRows: panelRows, extraRows: extraRows.count)
        if let panel { drawRows(panel.lines(width: frame.size.columns), from: panelTop, colours, into: &frame) }
        drawRows(extraRows, from: panelTop + panelRows, colours, into: &frame)
        let placeEnd = drawStatus(
            appearance, keys: screen.statusKeys, facts: screen.player?.facts, colours, into: &frame)
        if let notice = screen.notice { drawNotice(notice, after: placeEnd, colours, into: &frame) }
        if let help = screen.help { drawHelp(help, colours, into: &frame) }
    }

    /// The frame row the streams panel starts at, in a frame of `frame` for a ball's area of
    /// `area`, with `panelRows` and `extraRows` (the player's) between it and the status line:
    /// just above them, so that they all end at the frame's last row.
    package static func panelTop(frame: ScreenSize, area: ScreenSize, panelRows: Int, extraRows: Int) -> Int {
        frame.rows - 1 - extraRows - panelRows
    }

    /// The notice, bold, at the right end of the status line, never over the place (cut to fit).
    private func drawNotice(_ notice: String, after placeEnd: Int, _ colours: StatusColours, into frame: inout Frame) {
        let room = max(0, frame.size.columns - placeEnd)
        let text = " \(notice.fitted(toWidth: max(0, room - 2))) "
        let width = min(room, text.terminalWidth)
        frame.write(
            Array(text.unicodeScalars), column: frame.size.columns - width, row: frame.size.rows - 1,
            foreground: colours.text, background: colours.bar, bold: true, reverse: monochrome)
    }

    // MARK: - The ball

    /// What the disc covers of one cell.
    enum DiscCell: UInt8, Hashable, Sendable {
        /// Nothing (a cell inside the row's span that the disc misses).
        case none
        /// The lower half: `▄` in the ball's colour on the screen's.
        case lowerHalf
        /// The upper half: `▄` in the screen's colour on the ball's (reverse video when
        /// monochrome), so the ball's part is the cell's background.
        case upperHalf
        /// All of it: a blank in the ball's colour (reverse video when monochrome).
        case whole
    }

    /// One row of the disc.
    struct DiscRow: Hashable, Sendable {
        /// The row offset from the centre row.
        let rowOffset: Int
        /// The column offset of the first cell.
        let firstColumnOffset: Int
        /// The cells, left to right.
        let cells: [DiscCell]
    }

    /// The disc of `shape`, top row first: what it covers of each cell, from each cell's top
    /// and bottom halves, lit or dark.
    static func discRows(of shape: BallShape) -> [DiscRow] {
        (-shape.halfHeight...shape.halfHeight).map { rowOffset in
            let span = shape.span(rowOffset: rowOffset)
            let low = min(span.top?.lowerBound ?? .max, span.bottom?.lowerBound ?? .max)
            let high = max(span.top?.upperBound ?? .min, span.bottom?.upperBound ?? .min)
            let cells: [DiscCell] = (low...high).map { offset in
                let top = span.top?.contains(offset) ?? false
                let bottom = span.bottom?.contains(offset) ?? false
                return top ? (bottom ? .whole : .upperHalf) : (bottom ? .lowerHalf : .none)
            }
            return DiscRow(rowOffset: rowOffset, firstColumnOffset: low, cells: cells)
        }
    }

    private func drawBall(_ appearance: Appearance, discRows: [DiscRow], lastRow: Int, into frame: inout Frame) {
        let centre = appearance.position.centre
        let ball = appearance.ball
        let background = appearance.background
        let columns = frame.size.columns
        // The four kinds of cell in this frame's colours, by ``DiscCell`` raw value.
        withUnsafeTemporaryAllocation(of: FrameCell.self, capacity: 4) { look in
            look.initialize(repeating: FrameCell.blank(background))
            look[Int(DiscCell.lowerHalf.rawValue)] = FrameCell(
                glyph: Glyph.lowerHalf, foreground: ball, background: background)
            look[Int(DiscCell.upperHalf.rawValue)] = FrameCell(
                glyph: Glyph.lowerHalf, foreground: background, background: ball, reverse: monochrome)
            look[Int(DiscCell.whole.rawValue)] = FrameCell(
                glyph: " ", foreground: ball, background: ball, reverse: monochrome)
            for discRow in discRows {
                let row = centre.row + discRow.rowOffset
                guard row >= 0, row <= lastRow else { continue }
                let first = centre.column + discRow.firstColumnOffset
                let shown = max(0, first)..<min(columns, first + discRow.cells.count)
                guard !shown.isEmpty else { continue }
                discRow.cells.withUnsafeBufferPointer { kinds in
                    frame.withCells(row: row, columns: shown) { cells in
                        for column in shown {
                            cells[column - shown.lowerBound] = look[Int(kinds[column - first].rawValue)]
                        }
                    }
                }
            }
        }
    }

    // MARK: - The status line

    /// The status line: the position, then the longest tail that fits (ball, background and
    /// keys, down to the ball alone), on a dark line of its own. Its parts depend on one
    /// colour at most, so they are made into cells once and copied after that; nothing is
    /// allocated per frame.
    /// Returns the column after the place.
    private mutating func drawStatus(
        _ appearance: Appearance, keys statusKeys: StatusKeys, facts statusFacts: String?, _ status: StatusColours,
        into frame: inout Frame
    ) -> Int {
        let row = frame.size.rows - 1
        let width = frame.size.columns
        let colours = (ball: appearance.ball, background: appearance.background)
        /// How many cells the tail at `index` of ``StatusLine/tails`` takes.
        func tailWidth(_ index: Int) -> Int {
            var total = 0
            for part in allTails[index] { total += statusParts.cells(part, colours, status).count }
            return total
        }
        // The longest form that fits: long place and each tail in turn, then the short place.
        let allTails = StatusLine.tails(statusKeys)
        let tails = allTails.indices
        var tail: Int?
        if statusFacts == nil {
            StatusLine.place(appearance, short: false, into: &place)
            tail = tails.dropLast(2).first { place.count + tailWidth($0) <= width }
        }
        if tail == nil {
            StatusLine.place(appearance, short: true, facts: statusFacts, into: &place)
            let candidates = statusFacts == nil ? tails.suffix(2) : tails[...]
            tail = candidates.first { place.count + tailWidth($0) <= width } ?? tails.last
        }
        let column = frame.write(
            place, column: 0, row: row, foreground: status.text, background: status.bar, reverse: monochrome)
        let rest = column..<width
        let blank = FrameCell(glyph: " ", foreground: status.bar, background: status.bar, reverse: monochrome)
        frame.withCells(row: row, columns: rest) { row in
            var index = 0
            for part in allTails[tail!] {
                for cell in statusParts.cells(part, colours, status) where index < rest.count {
                    row[index] = cell
                    index += 1
                }
            }
            for index in index..<rest.count { row[index] = blank }
        }
        return column
    }

    // MARK: - The streams panel

    /// Rows of lane cells from `top` (the panel's, the player's), in the status line's colours:
    /// marbles in their colours (on a cell of the text's colour where one would not show
    /// against the bar), lines, ghosts and the ruler dim.
    private func drawRows(_ lines: [[LaneCell]], from top: Int, _ colours: StatusColours, into frame: inout Frame) {
        let width = frame.size.columns
        let dim = Self.dimColour(on: colours.bar)
        for (offset, line) in lines.enumerated() {
            if line.contains(where: { $0.glyph == FrameCell.continuationGlyph }) { frame.noteWideGlyphs() }
            frame.withCells(row: top + offset, columns: 0..<width) { cells in
                for (column, cell) in line.prefix(width).enumerated() {
                    let foreground = cell.colour ?? (cell.dim ? dim : colours.text)
                    let background = cell.colour.map { visibility.swatchBackground($0, on: colours) } ?? colours.bar
                    cells[column] = FrameCell(
                        glyph: cell.glyph, foreground: foreground, background: background, reverse: monochrome)
                }
            }
        }
    }

    /// The colour of what is drawn dim on a bar of colour `bar`.
    private static func dimColour(on bar: FlatColour) -> FlatColour {
        bar == statusBackground ? .flatGray : .flatGrayDark
    }

    // MARK: - Help

    /// The help box, centred over the ball's area: a title, a key column and a "does" column,
    /// and how to close it, in the status line's colours; rows that do not fit are left out,
    /// and long lines cut to the screen's width.
    private func drawHelp(_ help: HelpText, _ colours: StatusColours, into frame: inout Frame) {
        let keyWidth = help.rows.map { $0.keys.unicodeScalars.count }.max() ?? 0
        var lines =
            [help.title, ""]
            + help.rows.map { row in
                row.keys.padding(toLength: keyWidth) + "  " + row.does
            }
        lines += ["", help.footer]
        let area = ScreenSize(columns: frame.size.columns, rows: frame.size.rows - 1)
        let width = min(area.columns, (lines.map { $0.unicodeScalars.count }.max() ?? 0) + 4)
        if lines.count + 2 > area.rows {
            // Keep the title and the footer; leave out the rows that do not fit.
            let rows = max(0, area.rows - 6)
            lines = [help.title, ""] + lines[2..<(2 + min(rows, help.rows.count))] + ["", help.footer]
        }
        let height = min(area.rows, lines.count + 2)
        let left = (area.columns - width) / 2
        let top = (area.rows - height) / 2
        let blank = FrameCell(glyph: " ", foreground: colours.bar, background: colours.bar, reverse: monochrome)
        for row in top..<(top + height) {
            frame.withCells(row: row, columns: left..<(left + width)) { $0.update(repeating: blank) }
        }
        for (index, line) in lines.prefix(height - 2).enumerated() {
            let text = Array(line.unicodeScalars.prefix(max(0, width - 4)))
            frame.write(
                text, column: left + 2, row: top + 1 + index, foreground: colours.text, background: colours.bar,
                bold: index == 0, reverse: monochrome)
        }
    }

    // MARK: - Too small

    private func drawTooSmallNotice(needed minimum: ScreenSize = .minimum, into frame: inout Frame) {
        let size = frame.size
        frame.reset(size: size, fill: Self.statusBackground)
        if monochrome {
            // The whole notice in reverse video, as the status line is.
            let blank = FrameCell(
                glyph: " ", foreground: Self.statusBackground, background: Self.statusBackground, reverse: true)
            for row in 0..<size.rows {
                frame.withCells(row: row, columns: 0..<size.columns) { $0.update(repeating: blank) }
            }
        }
        let lines = [
            "terminal too small", "(need \(minimum.columns)×\(minimum.rows),", "have \(size.columns)×\(size.rows))",
        ]
        let top = max(0, (size.rows - lines.count) / 2)
        for (index, line) in lines.enumerated() where top + index < size.rows {
            let column = max(0, (size.columns - line.unicodeScalars.count) / 2)
            frame.write(
                line, column: column, row: top + index, foreground: Self.statusForeground,
                background: Self.statusBackground, bold: index == 0, reverse: monochrome)
        }
    }
}

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

/// A terminal too small for what it must show: the size needed, and the size it has.
package struct TerminalShortfall: Hashable, Sendable {
    /// The size needed.
    package var needed: ScreenSize
    /// The terminal's size.
    package var available: ScreenSize

    /// A shortfall from its parts.
    package init(needed: ScreenSize, available: ScreenSize) {
        self.needed = needed
        self.available = available
    }
}

/// The status line's two colours: its text and its bar.
package struct StatusColours: Hashable, Sendable {
    /// The text's colour (and a swatch's cell where the swatch would not show on the bar).
    package var text: FlatColour
    /// The bar's colour.
    package var bar: FlatColour
}

/// The keys of a mode, as the help box shows them.
package struct HelpText: Hashable, Sendable {
    /// The box's first line.
    package var title: String
    /// One row per binding: the keys, and what they do.
    package var rows: [HelpRow]
    /// The box's last line: how to close it.
    package var footer: String

    /// A help text from its parts.
    package init(title: String, rows: [HelpRow], footer: String) {
        self.title = title
        self.rows = rows
        self.footer = footer
    }
}

/// One row of the help: keys, and what they do.
package struct HelpRow: Hashable, Sendable {
    /// The keys as people name them (`q, Esc, Ctrl-C`).
    package var keys: String
    /// What they do.
    package var does: String

    /// A row from its keys and what they do.
    package init(keys: String, does: String) {
        self.keys = keys
        self.does = does
    }
}

extension String {
    /// The text followed by spaces up to `length` scalars (unchanged when longer).
    fileprivate func padding(toLength length: Int) -> String {
        self + String(repeating: " ", count: max(0, length - unicodeScalars.count))
    }
}
