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

    /// What the status line says in play while the streams panel (of `rows` rows) lies over the
    /// ball's area.
    static func panelCoversFacts(rows: Int) -> String { "lanes hide \(rows) rows" }

    /// Whether the status line and notices are drawn in reverse video (no colours).
    package let monochrome: Bool
    /// How the screen shows colours.
    private let depth: ColourDepth
    /// The disc's cells, kept for the screen size its shape was made for.
    private var disc: (size: ScreenSize, rows: [DiscRow])?
    /// The status line's parts as ready cells, made once per colour (see ``StatusLine/Part``).
    private var statusParts: StatusParts
    /// The status line's place, rewritten for each frame in the same storage.
    private var place: [Unicode.Scalar] = []
    /// Which colours show against the status line's bars at this depth.
    private let visibility: BarVisibility
    /// For each ball colour and screen colour (ball × 48 + screen), the colour the disc's edge is
    /// drawn in where the ball would not show on the screen at this depth; nil where it shows.
    private let edges: [FlatColour?]
    /// How the player's future is drawn on the dark bar and on the light one at this depth.
    private let futureLooks: (dark: FutureLook, light: FutureLook)

    /// A renderer for a screen that shows colours as a terminal of `depth` does; it keeps the
    /// disc's cells between frames of the same size.
    package init(depth: ColourDepth = .direct) {
        self.depth = depth
        monochrome = depth == .monochrome
        visibility = BarVisibility(depth: depth)
        edges = Self.edgeColours(depth: depth)
        let (dark, light) = (
            StatusColours(text: Self.statusForeground, bar: Self.statusBackground),
            StatusColours(text: Self.statusBackground, bar: Self.statusForeground)
        )
        futureLooks = (
            FutureLook(on: dark, depth: depth, dim: Self.dimColour(on: dark, depth: depth)),
            FutureLook(on: light, depth: depth, dim: Self.dimColour(on: light, depth: depth))
        )
        statusParts = StatusParts(visibility: visibility, reverse: monochrome)
    }

    /// For each ball colour and screen colour (ball × 48 + screen), nil where the ball shows
    /// on the screen at `depth` (``ColourDepth/canSeeArea(_:against:)``), else the status line's
    /// light colour where it shows on the screen, or its dark one: the disc's edge is drawn in
    /// it, so the ball never vanishes.
    static func edgeColours(depth: ColourDepth) -> [FlatColour?] {
        FlatColour.allCases.flatMap { ball in
            FlatColour.allCases.map { screen -> FlatColour? in
                guard !depth.canSeeArea(ball, against: screen) else { return nil }
                return depth.canSeeArea(statusForeground, against: screen) ? statusForeground : statusBackground
            }
        }
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
    /// In play the frame is the ball's area (the terminal), the panel over its bottom rows, the
    /// view following the ball (``StreamPanel/viewOffset(for:coveredFrom:)``). A replay's frame is the whole
    /// terminal (``PlayerRows/terminal``): the recorded area at the left, below the player's
    /// rows above it (``PlayerRows/header``: a recorded tour's lesson) or at the top, the rest
    /// of the window in the bar's colour, the first free rows under the area saying what it is
    /// (``PlayerRows/underArea``), and the panel, the player's rows and the status line at the
    /// bottom, where they stay when the recorded area changes size: nothing of an earlier frame
    /// is left anywhere.
    ///
    /// `motion`, while the ball glides (``Motion``), is where the disc is drawn now and the
    /// colours its disc and the screen show as they fade; the status line and the panel say the
    /// final ones, as the chain published them.
    package mutating func render(
        _ screen: ScreenModel, panel: StreamPanel? = nil, motion: Motion? = nil, into frame: inout Frame
    ) {
        if let shortfall = screen.player?.shortfall {
            frame.reset(size: shortfall.available, fill: Self.statusBackground)
            drawTooSmallNotice(needed: shortfall.needed, into: &frame)
            return
        }
        if let tour = screen.tour, !tour.fits {
            frame.reset(size: tour.terminal, fill: Self.statusBackground)
            drawTooSmallNotice(needed: tour.needed, title: "too small for the lessons", into: &frame)
            return
        }
        let appearance = screen.appearance
        let size = appearance.position.screen
        let panelRows = panel?.rowCount ?? 0
        let extraRows = screen.player?.rows ?? []
        let blends = motion?.blends
        // The frame row the area's first row is drawn at (below the lesson's card, or the
        // player's rows above it).
        let areaTop = Self.areaTop(of: screen)
        if let terminal = screen.player?.terminal ?? screen.tour?.terminal {
            frame.reset(size: terminal, fill: Self.statusBackground, blends: blends)
            let screenBlank = FrameCell.blank(appearance.background, blend: blends == nil ? .none : .screen)
            for row in areaTop..<max(areaTop, min(areaTop + size.rows - 1, terminal.rows)) {
                frame.withCells(row: row, columns: 0..<min(size.columns, terminal.columns)) {
                    $0.update(repeating: screenBlank)
                }
            }
        } else {
            frame.reset(size: size, fill: appearance.background, blends: blends)
        }
        guard size.columns > 0, size.rows > 0 else { return }
        let panelTop = Self.panelTop(frame: frame.size, area: size, panelRows: panelRows, extraRows: extraRows.count)
        if size.isLargeEnough {
            if disc?.size != size { disc = (size, Self.discRows(of: appearance.position.shape)) }
            var shown = appearance
            if let motion { shown.position.centre = motion.centre }
            shown.position.centre.row -= Self.viewOffset(of: screen, for: shown.position, coveredFrom: panelTop)
            drawBall(
                shown, discRows: disc!.rows, lastRow: min(areaTop + size.rows - 2, panelTop - 1),
                fading: blends != nil, into: &frame)
        } else if screen.player == nil {
            drawTooSmallNotice(into: &frame)
            return
        } else {
            // A part of a recording made in a window too small for the ball: the player says so
            // where the ball would be, and goes on (its rows, its status line).
            let lines = [
                "this part was recorded at \(size)", "too small for the ball (it needs \(ScreenSize.minimum))",
            ]
            for (offset, line) in lines.enumerated() where areaTop + offset < frame.size.rows {
                frame.write(
                    line, column: max(0, (frame.size.columns - line.unicodeScalars.count) / 2), row: areaTop + offset,
                    foreground: Self.statusForeground, background: Self.statusBackground, bold: offset == 0,
                    reverse: monochrome)
            }
        }
        let colours = statusColours(over: appearance.background)
        let ascii = screen.asciiMarbles
        if let panel {
            drawRows(panel.lines(width: frame.size.columns), from: panelTop, colours, ascii: ascii, into: &frame)
        } else if screen.tour != nil {
            // The lanes' rows are kept for them, in the bar's colours: closed, they say how to
            // open them.
            let width = frame.size.columns
            let blank = FrameCell(glyph: " ", foreground: colours.bar, background: colours.bar, reverse: monochrome)
            let lanesTop = frame.size.rows - 1 - StreamPanel.tourRows
            for row in max(0, lanesTop)..<max(0, frame.size.rows - 1) {
                frame.withCells(row: row, columns: 0..<width) { $0.update(repeating: blank) }
            }
            let line = " \(Self.closedLanesLine.fitted(toWidth: max(0, width - 2)))"
            frame.write(
                line, column: 0, row: lanesTop + StreamPanel.tourRows / 2, foreground: colours.text,
                background: colours.bar, reverse: monochrome)
        }
        drawRows(extraRows, from: panelTop + panelRows, colours, ascii: ascii, into: &frame)
        if let player = screen.player {
            drawRows(player.header, from: 0, colours, ascii: ascii, into: &frame)
            // What the area is, on the rows under it that nothing else takes (where the area is
            // too small for the ball, its notice says what it is), in the colours of the window
            // around the area, which is no part of the recording.
            let first = size.isLargeEnough ? areaTop + size.rows - 1 : panelTop
            let free = max(0, panelTop - first)
            let around = StatusColours(text: Self.statusForeground, bar: Self.statusBackground)
            drawRows(Array(player.underArea.prefix(free)), from: first, around, ascii: ascii, into: &frame)
        }
        // In play the panel's rows lie over the ball's area: the status line says so.
        let covers = panel?.fits == true && screen.tour == nil
        // Then the operator in the chain's slot: the ball's colour follows what it passes on.
        let shownFacts = screen.player?.facts ?? (covers ? panel.map { Self.panelCoversFacts(rows: $0.rowCount) } : nil)
        // (With the mirror's state when the operator reads it: `ƒ sample ¦ on`.)
        let mirrorFact = screen.slot.readsMirror ? " \(Glyph.mirrorFlipped) \(screen.mirror ? "on" : "off")" : ""
        let slotFact = screen.slot == .none ? nil : "\(Glyph.operatorChosen) \(screen.slot.shownName)\(mirrorFact)"
        let withSlot = slotFact.map { slot in shownFacts.map { "\($0) · \(slot)" } ?? slot } ?? shownFacts
        // (Where the facts and the short place would not fit with it, the slot's word is left out.)
        var facts = (withSlot?.count ?? 0) + 10 <= frame.size.columns ? withSlot : shownFacts
        // A notice has a place of its own at the line's end: what goes before it drops whole parts.
        let noticeText = screen.notice.map { notice in
            StatusLine.place(appearance, short: true, facts: facts, into: &place)
            if screen.noticeAnswersKey, facts != nil, notice.terminalWidth + 2 > frame.size.columns - place.count {
                // A key's answer that does not fit beside the facts takes their room until the next key.
                facts = nil
                StatusLine.place(appearance, short: true, facts: nil, into: &place)
            }
            let room = max(0, frame.size.columns - place.count)
            return " \(notice.fitted(toWidth: max(0, room - 2))) "
        }
        // Where the facts leave no room for `? keys  q quit`, the panel's rows give way first (the
        // panel shows itself), then the screen colour's name (the screen shows it).
        let shorter: [String?] = screen.player == nil && facts != nil && facts != slotFact ? [slotFact] : []
        let placeEnd = drawStatus(
            appearance, keys: screen.tour == nil ? screen.statusKeys : .learn, facts: facts, shorterFacts: shorter,
            reserve: noticeText.map { min($0.terminalWidth, frame.size.columns) } ?? 0, colours, into: &frame)
        if let noticeText { drawNotice(noticeText, after: placeEnd, colours, into: &frame) }
        // A box open hides the card whole (the box, centred over the screen, would cover part of
        // it at 80×24): none is drawn over the other.
        if let lesson = screen.lesson, screen.help == nil {
            drawLesson(
                lesson, rows: screen.tour?.cardRows ?? lesson.rowCount(columns: frame.size.columns), colours,
                into: &frame)
        }
        if let help = screen.help { drawHelp(help, colours, into: &frame) }
    }

    /// The lesson's card in its rows at the top of the frame (the tour's ``TourLayout/cardRows``),
    /// in the status line's colours, one blank cell each side: the title bold, the text, the task
    /// (bold once done) and the note under it.
    private func drawLesson(_ card: LessonCard, rows: Int, _ colours: StatusColours, into frame: inout Frame) {
        let width = LessonCard.textWidth(columns: frame.size.columns)
        let lines = card.lines(width: width)
        for row in 0..<min(rows, frame.size.rows) {
            let line = row < lines.count ? lines[row] : (text: "", bold: false)
            frame.write(
                " " + line.text + String(repeating: " ", count: max(0, width + 1 - line.text.terminalWidth)),
                column: 0, row: row, foreground: colours.text, background: colours.bar,
                bold: line.bold && depth.canRead(colours.text, on: colours.bar, bold: true), reverse: monochrome)
        }
    }

    /// What the lanes' rows say in `learn` while the streams are closed.
    static let closedLanesLine = "The streams are closed: s opens them here, a lane for each stream."

    /// How many rows the view of the ball's area is scrolled down in `screen` (an area row is
    /// the frame row plus this) for the ball at `position`, with the panel's (and the player's)
    /// rows from frame row `coveredFrom`: in `learn` the area lies below the card, whole; in
    /// play and the player the panel lies over its bottom rows and the view follows the ball
    /// down (``StreamPanel/viewOffset(for:coveredFrom:)``).
    package static func viewOffset(of screen: ScreenModel, for position: BallPosition, coveredFrom: Int) -> Int {
        if let tour = screen.tour { return -tour.cardRows }
        let top = areaTop(of: screen)
        return StreamPanel.viewOffset(for: position, coveredFrom: coveredFrom - top) - top
    }

    /// The frame row the ball's area starts at in `screen`: below the lesson's card in `learn`,
    /// below the player's rows above it in a replay (``PlayerRows/header``), else the first.
    static func areaTop(of screen: ScreenModel) -> Int {
        screen.tour?.cardRows ?? screen.player?.header.count ?? 0
    }

    /// The frame row the streams panel starts at, in a frame of `frame` for a ball's area of
    /// `area`, with `panelRows` and `extraRows` (the player's) between it and the status line:
    /// just above them, so that they all end at the frame's last row.
    package static func panelTop(frame: ScreenSize, area: ScreenSize, panelRows: Int, extraRows: Int) -> Int {
        frame.rows - 1 - extraRows - panelRows
    }

    /// The notice (`text`, fitted, with a blank each side), bold, at the right end of the status
    /// line, never over the place.
    private func drawNotice(_ text: String, after placeEnd: Int, _ colours: StatusColours, into frame: inout Frame) {
        let width = min(max(0, frame.size.columns - placeEnd), text.terminalWidth)
        frame.write(
            Array(text.unicodeScalars), column: frame.size.columns - width, row: frame.size.rows - 1,
            foreground: colours.text, background: colours.bar, bold: true, reverse: monochrome)
    }

    // MARK: - The ball

    /// What the disc covers of one cell, and whether the cell is on the disc's edge.
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
        /// The same three on the disc's edge (a half, or next to a cell the disc misses): drawn
        /// in the edge's colour where the ball's would not show on the screen's.
        case edgeLowerHalf, edgeUpperHalf, edgeWhole

        /// The same kind on the edge.
        var onEdge: DiscCell {
            switch self {
            case .lowerHalf: .edgeLowerHalf
            case .upperHalf: .edgeUpperHalf
            case .whole: .edgeWhole
            default: self
            }
        }
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
        let rows = (-shape.halfHeight...shape.halfHeight).map { rowOffset in
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
        /// What the disc covers at row `index` of `rows`, column offset `column` (none outside).
        func covered(_ index: Int, _ column: Int) -> DiscCell {
            guard rows.indices.contains(index) else { return .none }
            let slot = column - rows[index].firstColumnOffset
            return rows[index].cells.indices.contains(slot) ? rows[index].cells[slot] : .none
        }
        // The edge: every half cell, and every whole one beside a cell the disc misses.
        return rows.enumerated().map { index, row in
            let cells = row.cells.enumerated().map { slot, cell -> DiscCell in
                let column = row.firstColumnOffset + slot
                let inside = [(index, column - 1), (index, column + 1), (index - 1, column), (index + 1, column)]
                    .allSatisfy { covered($0.0, $0.1) != .none }
                return cell == .whole && inside ? cell : cell.onEdge
            }
            return DiscRow(rowOffset: row.rowOffset, firstColumnOffset: row.firstColumnOffset, cells: cells)
        }
    }

    private func drawBall(
        _ appearance: Appearance, discRows: [DiscRow], lastRow: Int, fading: Bool, into frame: inout Frame
    ) {
        let centre = appearance.position.centre
        let ball = appearance.ball
        let background = appearance.background
        let columns = frame.size.columns
        // The edge in the ball's colour, or, where the ball's colour would not show on the
        // screen's at this depth (black on black in 8 colours), in a colour that does.
        let edge = edges[Int(ball.rawValue) * FlatColour.allCases.count + Int(background.rawValue)] ?? ball
        // The seven kinds of cell in this frame's colours, by ``DiscCell`` raw value.
        // While the colours fade, the ball's parts and the screen's are shown as the frame's
        // fading colours (an edge in its own colour does not fade).
        let (ballFade, screenFade): (FrameCell.Blend, FrameCell.Blend) = fading ? (.ball, .screen) : (.none, .none)
        withUnsafeTemporaryAllocation(of: FrameCell.self, capacity: 7) { look in
            look.initialize(repeating: FrameCell.blank(background, blend: screenFade))
            for (kind, colour) in [(DiscCell.lowerHalf, ball), (.edgeLowerHalf, edge)] {
                look[Int(kind.rawValue)] = FrameCell(
                    glyph: Glyph.lowerHalf, foreground: colour, background: background,
                    foregroundBlend: colour == ball ? ballFade : .none, backgroundBlend: screenFade)
            }
            for (kind, colour) in [(DiscCell.upperHalf, ball), (.edgeUpperHalf, edge)] {
                look[Int(kind.rawValue)] = FrameCell(
                    glyph: Glyph.lowerHalf, foreground: background, background: colour, reverse: monochrome,
                    foregroundBlend: screenFade, backgroundBlend: colour == ball ? ballFade : .none)
            }
            for (kind, colour) in [(DiscCell.whole, ball), (.edgeWhole, edge)] {
                let blend = colour == ball ? ballFade : .none
                look[Int(kind.rawValue)] = FrameCell(
                    glyph: " ", foreground: colour, background: colour, reverse: monochrome, foregroundBlend: blend,
                    backgroundBlend: blend)
            }
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
        _ appearance: Appearance, keys statusKeys: StatusKeys, facts statusFacts: String?,
        shorterFacts: [String?] = [], reserve: Int = 0, _ status: StatusColours, into frame: inout Frame
    ) -> Int {
        let row = frame.size.rows - 1
        // The last `reserve` cells are the notice's.
        let width = max(0, frame.size.columns - reserve)
        let colours = (ball: appearance.ball, background: appearance.background)
        /// How many cells the tail at `index` of ``StatusLine/tails`` needs: all it takes, but the
        /// two blanks after a colour at its end, which the window's edge may take instead.
        func tailWidth(_ index: Int) -> Int {
            var total = 0
            for part in allTails[index] { total += statusParts.cells(part, colours, status).count }
            switch allTails[index].last {
            case .ball?, .ballName?, .background?, .shortBackground?: return total - 2
            default: return total
            }
        }
        // The longest form that fits: long place and each tail in turn, then the short place.
        let allTails = StatusLine.tails(statusKeys)
        var tail: Int?
        // (The tail without the screen's colour only where nothing else keeps `q quit`.)
        let screenless = StatusLine.screenlessTail(statusKeys)
        let tails = allTails.indices.filter { $0 != screenless }
        if statusFacts == nil {
            StatusLine.place(appearance, short: false, into: &place)
            // Beside a notice, the long place keeps its points with fewer colours after it.
            let candidates = reserve > 0 ? tails[...] : tails.prefix(StatusLine.longPlaceTails)
            tail = candidates.first { place.count + tailWidth($0) <= width }
        }
        if tail == nil {
            StatusLine.place(appearance, short: true, facts: statusFacts, into: &place)
            tail = tails.first { place.count + tailWidth($0) <= width }
            // The keys before the last of the player's facts: those go, a part at a time (`…`
            // in their place), where that lets the shortest tail that names `q quit` fit.
            if let facts = statusFacts, reserve == 0, tail.map({ !StatusLine.namesQuit(allTails[$0]) }) ?? true,
                let keyed = tails.last(where: { StatusLine.namesQuit(allTails[$0]) })
            {
                var parts = facts.split(separator: "  ").map(String.init)
                while parts.count > 1, place.count + tailWidth(keyed) > width {
                    parts.removeLast()
                    let cut = parts.joined(separator: "  ") + "  \(Glyph.ellipsis)"
                    guard cut.unicodeScalars.count >= StatusLine.shortestFacts else { break }
                    StatusLine.place(appearance, short: true, facts: cut, into: &place)
                }
                if place.count + tailWidth(keyed) <= width {
                    tail = keyed
                } else {
                    StatusLine.place(appearance, short: true, facts: facts, into: &place)
                }
            }
            // Play's `? keys  q quit` kept beside its facts (the pipe's name): the facts shorter,
            // else the screen colour's name left out. (Without facts, both colours go before the keys.)
            if reserve == 0, statusFacts != nil, tail.map({ !StatusLine.namesQuit(allTails[$0]) }) ?? true {
                let tries =
                    shorterFacts.map { ($0, tails) }
                    + ([statusFacts] + shorterFacts).map { ($0, [screenless].compactMap { $0 }) }
                for (facts, candidates) in tries {
                    StatusLine.place(appearance, short: true, facts: facts, into: &place)
                    if let keyed = candidates.first(where: {
                        StatusLine.namesQuit(allTails[$0]) && place.count + tailWidth($0) <= width
                    }) {
                        tail = keyed
                        break
                    }
                }
                if tail.map({ !StatusLine.namesQuit(allTails[$0]) }) ?? true {
                    StatusLine.place(appearance, short: true, facts: statusFacts, into: &place)
                }
            }
            tail = tail ?? tails.last
        }
        let column = frame.write(
            place, column: 0, row: row, foreground: status.text, background: status.bar, reverse: monochrome)
        let rest = min(column, width)..<width
        let blank = FrameCell(glyph: " ", foreground: status.bar, background: status.bar, reverse: monochrome)
        // Only the shortest form can be too wide (a long replay's facts, a narrow window): its
        // last cell then says it was cut.
        let tooWide = place.count + tailWidth(tail!) > width
        // Beside a notice, a tail that does not fit is left out whole.
        let parts = tooWide && reserve > 0 ? [] : allTails[tail!]
        let cut = tooWide && reserve == 0
        frame.withCells(row: row, columns: rest) { row in
            var index = 0
            for part in parts {
                for cell in statusParts.cells(part, colours, status) where index < rest.count {
                    row[index] = cell
                    index += 1
                }
            }
            for index in index..<rest.count { row[index] = blank }
        }
        if cut, width > 0 {
            frame.withCells(row: row, columns: (width - 1)..<width) { last in
                last[0] = FrameCell(
                    glyph: Glyph.ellipsis, foreground: status.text, background: status.bar, reverse: monochrome)
            }
        }
        return column
    }

    // MARK: - The streams panel

    /// Rows of lane cells from `top` (the panel's, the player's), in the status line's colours:
    /// in ASCII where `ascii` (``Glyph/ascii``), marbles in their colours (on a cell of the
    /// text's colour where one would not show
    /// against the bar), lines, ghosts and the ruler dim, the player's future as
    /// ``futureLook(on:)`` says.
    private func drawRows(
        _ lines: [[LaneCell]], from top: Int, _ colours: StatusColours, ascii: Bool, into frame: inout Frame
    ) {
        let width = frame.size.columns
        let dim = dimColour(on: colours)
        let future = futureLook(on: colours)
        for (offset, line) in lines.enumerated() {
            if line.contains(where: { $0.glyph == FrameCell.continuationGlyph }) { frame.noteWideGlyphs() }
            frame.withCells(row: top + offset, columns: 0..<width) { cells in
                for (column, cell) in line.prefix(width).enumerated() {
                    var (glyph, foreground) = (cell.glyph, cell.colour ?? (cell.dim ? dim : colours.text))
                    if cell.future != nil { (glyph, foreground) = future.drawn(cell, dim: dim) }
                    let background = cell.colour.map { visibility.swatchBackground($0, on: colours) } ?? colours.bar
                    if ascii { glyph = Glyph.ascii[glyph] ?? glyph }
                    // The hovered column in reverse video (on a monochrome screen, where every
                    // cell is reversed, the other way round).
                    cells[column] = FrameCell(
                        glyph: glyph, foreground: foreground, background: background,
                        reverse: monochrome != cell.highlighted)
                }
            }
        }
    }

    /// How the player's future is drawn on the bar of `colours` (``FutureLook``).
    package func futureLook(on colours: StatusColours) -> FutureLook {
        colours.bar == Self.statusBackground ? futureLooks.dark : futureLooks.light
    }

    /// The colour of what is drawn dim on the bar of `colours` (a ghost, the ruler, a key's hint;
    /// the player's future has ``futureLook(on:)``): the first of its muted colours that reads as
    /// text on the bar at this depth (``ColourDepth/canRead(_:on:bold:)``) and is not the text's
    /// own, else the first that shows on it, else the text's colour (in 8 colours the greys are
    /// no greys). On the dark bar a grey; on the light bar a slate, as no flat grey between black
    /// and mid-grey reads there (flatGrayDark on flatWhite is 3.1:1, faint).
    package func dimColour(on colours: StatusColours) -> FlatColour {
        Self.dimColour(on: colours, depth: depth)
    }

    /// ``dimColour(on:)`` at `depth`.
    private static func dimColour(on colours: StatusColours, depth: ColourDepth) -> FlatColour {
        let muted: [FlatColour] =
            colours.bar == Self.statusBackground ? [.flatGray, .flatGrayDark] : [.flatTealDark, .flatGrayDark]
        let own = muted.filter { depth.shown($0) == nil || depth.shown($0) != depth.shown(colours.text) }
        return own.first { depth.canRead($0, on: colours.bar) } ?? own.first { depth.canTellApart($0, colours.bar) }
            ?? colours.text
    }

    // MARK: - Help

    /// The help box, centred over the screen: a title, a key column and a "does" column, and
    /// how to close it, in the status line's colours. Where the rows do not all fit, the box
    /// shows a page of them and its last line says so (`space: more (1/2)`); see
    /// ``HelpText/pages(on:)``.
    private func drawHelp(_ help: HelpText, _ colours: StatusColours, into frame: inout Frame) {
        let area = ScreenSize(columns: frame.size.columns, rows: frame.size.rows - 1)
        let pages = help.pages(on: area)
        let page = min(help.page, pages.count - 1)
        let textWidth = help.textWidth(on: area)
        let more = "space: more (\(page + 1)/\(pages.count))"
        let others =
            help.choosable
            ? [more + " · a digit goes to one", more]
            : [more + " · any other key closes", more + " · other keys close", more]
        let footer = pages.count > 1 ? String.first(of: others, fittingWidth: textWidth) : help.footer
        let lines = [help.title, ""] + pages[page] + ["", footer]
        let width = textWidth + 4
        // Every page in the first's place and size: a shorter one leaves the lanes under it
        // covered, and its footer stays where the learner's eye was.
        let longest = pages.map(\.count).max() ?? 0
        let height = min(area.rows, longest + 6)
        let left = (area.columns - width) / 2
        let top = (area.rows - height) / 2
        let blank = FrameCell(glyph: " ", foreground: colours.bar, background: colours.bar, reverse: monochrome)
        for row in top..<(top + height) {
            frame.withCells(row: row, columns: left..<(left + width)) { $0.update(repeating: blank) }
        }
        // The footer stays the box's last line, under a short page's blank rows, and where the
        // box is shorter than a page.
        let fitting =
            lines.count <= height - 2
            ? lines.dropLast() + Array(repeating: "", count: height - 2 - lines.count) + [footer]
            : Array(lines.prefix(max(0, height - 3))) + [footer]
        for (index, line) in fitting.prefix(max(0, height - 2)).enumerated() {
            frame.write(
                line.fitted(toWidth: textWidth), column: left + 2, row: top + 1 + index,
                foreground: colours.text, background: colours.bar, bold: index == 0, reverse: monochrome)
        }
    }

    // MARK: - Too small

    private func drawTooSmallNotice(
        needed minimum: ScreenSize = .minimum, title: String = "terminal too small", into frame: inout Frame
    ) {
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
            title, "(need \(minimum.columns)×\(minimum.rows),", "have \(size.columns)×\(size.rows))",
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

/// The ball part of the way through a glide (the original's 0.1 s `animateWithDuration`):
/// where its disc is drawn now, and the colours its disc and the screen show now while they
/// fade (nil: the final ones). Presentation only: the chain has published the final values.
package struct Motion: Hashable, Sendable {
    /// The cell the disc's centre is drawn at.
    package var centre: Cell
    /// The colours shown while they fade; nil when they do not (they are final, or the
    /// terminal has too few colours to blend).
    package var blends: Blends?

    /// A motion from its parts.
    package init(centre: Cell, blends: Blends?) {
        self.centre = centre
        self.blends = blends
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

    /// The colours from their parts.
    package init(text: FlatColour, bar: FlatColour) {
        self.text = text
        self.bar = bar
    }
}
