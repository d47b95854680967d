import BallModel
import BallProgram
import BallRendering
import BallTestSupport
import ColourCore
import TerminalIO
import Testing
import TextFormats

/// The player's future (the lanes after its place) never looks played: checked on what a
/// terminal receives in every colour depth, and on the frame at a place mid-recording.
@Suite("The player's future looks unplayed")
struct FutureLookTests {
    static let depths: [ColourDepth] = [
        .direct, .palette(.xterm256), .palette(.ansi16), .palette(.ansi8), .monochrome,
    ]

    /// Moves down and right across the colour bands: the screen takes light and dark colours,
    /// so the panel's bar is dark under some, light under others, and the ball's colour lane has
    /// marbles and ghosts.
    static let events: [(Intent, Double)] = (0..<24).map { step in
        (.arrowPressed(step.isMultiple(of: 2) ? .right : .down, distance: 3), 0.1 * Double(step + 1))
    }

    /// The terminal's sequences at `depth` (xterm's; none for colours where there are none).
    static func sequences(for depth: ColourDepth) -> TerminalSequences {
        switch depth {
        case .palette(let palette): .xterm(palette: palette)
        case .direct: .xtermDirectColour()
        case .monochrome: .xterm(palette: nil)
        }
    }

    @Test(
        "on what the terminal shows, in every colour depth and on both bars, no cell of the player's future (glyph, colours, attributes) is one a played cell of its page shows",
        arguments: depths)
    func futureUnlikePlayed(depth: ColourDepth) throws {
        let pilot = try Pilot<ReplayProgram>(TimeTravelTests.recording(Self.events), depth: depth)
        pilot.type("s")
        pilot.press(.home)
        var rasteriser = Rasteriser(sequences: Self.sequences(for: depth))
        var bars: Set<ColourCore.FlatColour> = []
        var futureCells = 0
        let lanes = [" intents ", " position ", " ballColour ", " background "]
        for place in 0..<Self.events.count {
            let terminal = TerminalEmulator.showing(pilot.frame, through: &rasteriser)
            let rows = pilot.lines.indices.filter { row in lanes.contains { pilot.lines[row].hasPrefix($0) } }
            #expect(rows.count == lanes.count, "place \(place): \(pilot.lines)")
            bars.insert(pilot.frame[1, rows[0]].background)
            // The place's column is the last played; the next column's first cell begins the future.
            let first = StreamPanel.labelWidth + 2 * place + 2
            let end = StreamPanel.labelWidth + 2 * (Self.events.count + 1)
            let played = rows.flatMap { row in
                terminal.cells[row][StreamPanel.labelWidth..<first].filter { $0.glyph != " " }
            }
            for row in rows {
                for column in first..<end where terminal.cells[row][column].glyph != " " {
                    let cell = terminal.cells[row][column]
                    futureCells += 1
                    let looksPlayed = played.contains(cell)
                    #expect(
                        !looksPlayed,
                        "\(depth), place \(place), row \(row), column \(column): \(cell) is played too: \(pilot.lines[row])"
                    )
                }
            }
            pilot.press(.arrow(.right, shifted: false))
        }
        #expect(futureCells > 0)
        let both: Set<ColourCore.FlatColour> = [Renderer.statusBackground, Renderer.statusForeground]
        // Without colours the bar is always the dark one (in reverse video).
        #expect(bars == (depth == .monochrome ? [Renderer.statusBackground] : both), "\(depth): \(bars)")
    }

    @Test(
        "the encoder's look of a future mark: in each colour depth, on each bar, a grey apart from the text and the bar and unlike the dim colour and every marble that shows there, or else the light shade; in direct and 256 colours a grey for every mark"
    )
    func lookOnEitherBar() throws {
        let marbles: [Unicode.Scalar] = [Glyph.ball, Glyph.background, Glyph.ghost]
        for depth in Self.depths {
            let renderer = Renderer(depth: depth)
            for colours in [
                StatusColours(text: Renderer.statusForeground, bar: Renderer.statusBackground),
                StatusColours(text: Renderer.statusBackground, bar: Renderer.statusForeground),
            ] {
                let look = renderer.futureLook(on: colours)
                let dim = renderer.dimColour(on: colours)
                let context = "\(depth) on \(colours.bar)"
                let glyphs: [Unicode.Scalar] = [Glyph.line, "k", Glyph.subscribed] + marbles
                for glyph in glyphs {
                    var cell = LaneCell(glyph: glyph, dim: true)
                    cell.future = .mark
                    let (drawn, colour) = look.drawn(cell, dim: dim)
                    if drawn == Glyph.later { continue }
                    #expect(drawn == glyph, "\(context)")
                    // A glyph kept is in a colour no played cell of it shows in, apart from the
                    // text and the bar.
                    let shown = try #require(depth.shown(colour), "\(context)")
                    for other in [colours.text, colours.bar] {
                        let ratio = shown.contrastRatio(with: try #require(depth.shown(other)))
                        #expect(ratio >= FutureLook.faintContrast, "\(context): \(glyph) in \(colour) by \(other)")
                    }
                    if marbles.contains(glyph) {
                        let played = BallColourRule.demoColours + [dim]
                        #expect(!played.contains { depth.shown($0) == shown }, "\(context): \(glyph) in \(colour)")
                    }
                }
                if depth == .direct || depth == .palette(.xterm256) {
                    #expect(look.colour != nil && !look.shadesMarbles, "\(context)")
                }
            }
        }
    }

    @Test(
        "stepped back before a late Behavior subscribes, the player's frame draws every lane cell after the place, the late lane's whole, in the future's look, says `later` in it, and draws nothing before the place so"
    )
    func futureMarkedMidRecording() throws {
        let recorded = try RecordedPlay()
        let live = recorded.pilot
        live.toggleStreams()
        for _ in 0..<3 { live.press(.right) }
        live.toggleLate(.behavior)
        for _ in 0..<3 { live.press(.right) }
        let player = try recorded.player(screen: ScreenSize(columns: 80, rows: 24))
        player.press(.end)
        if !player.lines.contains(where: { $0.hasPrefix(" late Behavior ") }) { player.type("s") }
        player.press(.home)
        if !player.lines.contains(where: { $0.hasPrefix(" late Behavior ") }) { player.type("s") }
        for _ in 0..<2 { player.press(.arrow(.right, shifted: false)) }
        let place = player.player.place
        #expect(place == 2, "\(player.lines)")
        let lines = player.lines
        let behavior = try #require(lines.firstIndex { $0.hasPrefix(" late Behavior ") }, "\(lines)")
        let intents = try #require(lines.firstIndex { $0.hasPrefix(" intents ") }, "\(lines)")
        let values = try #require(lines.firstIndex { $0.hasPrefix(" values ") }, "\(lines)")
        let ruler = intents - 1
        #expect(lines[ruler].hasPrefix(" streams \(StreamPanel.laterWords) "), "\(lines[ruler])")
        let bar = player.frame[1, intents].background
        let text = player.frame[1, intents].foreground
        let colours = StatusColours(text: text, bar: bar)
        let look = Renderer(depth: .direct).futureLook(on: colours)
        let future = try #require(look.colour, "direct colour has a colour for the future")
        #expect(future != text && future != Renderer(depth: .direct).dimColour(on: colours))
        #expect(player.frame[1, ruler].foreground != future, "the ruler's own label is not the future")
        for column in (" streams ".count)..<(" streams ".count + StreamPanel.laterWords.count) {
            #expect(player.frame[column, ruler].foreground == future, "column \(column): \(lines[ruler])")
        }
        let first = StreamPanel.labelWidth + 2 * place + 2
        var late = 0
        // (A late lane not subscribed says its key there, dim: no lane.)
        for row in intents..<values where !lines[row].contains(": subscribe") {
            for column in StreamPanel.labelWidth..<80 where player.frame[column, row].glyph != " " {
                let cell = player.frame[column, row]
                let isFuture = column >= first
                if row == behavior { late += 1 }
                #expect(
                    (cell.foreground == future) == isFuture,
                    "row \(row), column \(column) (\(isFuture ? "future" : "played")): \(cell.foreground): \(lines[row])"
                )
            }
        }
        // The late Behavior subscribed after the place: its lane is all future.
        #expect(late > 0 && lines[behavior].contains("^"), "\(lines[behavior])")
        #expect(
            lines[behavior].dropFirst(StreamPanel.labelWidth).prefix(first - StreamPanel.labelWidth).allSatisfy {
                $0 == " "
            })
    }

    @Test(
        "in the time view, paused at an intent a second before the next, every span after the place's own is drawn in the future's look, the quiet before the next intent too, and none before"
    )
    func timeViewQuietIsFuture() throws {
        // Five moves right, a second apart: at 100 ms a span, nine quiet spans between two.
        let events: [(Intent, Double)] = (1...5).map { (.arrowPressed(.right, distance: 3), Double($0)) }
        let player = try Pilot<ReplayProgram>(TimeTravelTests.recording(events))
        player.type("s")
        player.type("T")
        for _ in 0..<2 { player.press(.arrow(.right, shifted: false)) }
        #expect(player.player.place == 2, "\(player.lines)")
        let lines = player.lines
        let intents = try #require(lines.firstIndex { $0.hasPrefix(" intents ") }, "\(lines)")
        let background = try #require(lines.firstIndex { $0.hasPrefix(" background ") }, "\(lines)")
        let row = Array(lines[intents].unicodeScalars)
        // The place's intent is the second arrow drawn; the next, the third.
        let arrows = row.indices.filter { row[$0] == Glyph.right }
        #expect(arrows.count >= 3 && arrows[1] + 10 == arrows[2], "\(lines[intents])")
        let place = try #require(arrows.dropFirst().first, "\(lines[intents])")
        let colours = StatusColours(
            text: player.frame[1, intents].foreground, bar: player.frame[1, intents].background)
        let future = try #require(Renderer(depth: .direct).futureLook(on: colours).colour)
        for lane in intents...background {
            for column in StreamPanel.labelWidth..<80 where player.frame[column, lane].glyph != " " {
                let isFuture = column > place
                #expect(
                    (player.frame[column, lane].foreground == future) == isFuture,
                    "row \(lane), column \(column) (\(isFuture ? "future" : "played")): \(lines[lane])")
            }
        }
    }
}
