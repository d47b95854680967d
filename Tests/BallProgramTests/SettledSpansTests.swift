import BallModel
import BallProgram
import BallRendering
import BallStreams
import BallTestSupport
import Testing

/// The live time view keeps its settled spans from frame to frame (``SettledSpans``): invisibly.
/// The real loop is driven through random sessions, and every frame it shows, the panel it drew
/// (its lanes' marbles from the kept spans and the projected tail) is compared, cell for cell,
/// with the same panel worked out afresh (every lane projected whole from the columns).
@Suite("The time view's kept spans")
struct SettledSpansTests {
    /// Looks at every frame `terminal` shows: the panel `binding` drew against the same panel with
    /// every lane projected afresh. The first difference is recorded as an issue, with the step
    /// that made it and the seed.
    final class EveryFrame {
        /// The step being driven, for a failure.
        var step = "the start"
        /// The frames whose panel drew lanes from ``SettledSpans`` (on a time axis).
        private(set) var checked = 0
        /// Whether a difference was recorded (the test then stops).
        private(set) var failed = false

        /// Starts looking at what `binding` draws on `terminal`; `seed` names the run in a failure.
        init(_ binding: ScreenBinding, on terminal: MemoryTerminal, seed: String) {
            terminal.presented = { [unowned self, unowned binding] frame in
                guard !failed, let panel = binding.panelDrawn, !panel.projected.isEmpty else { return }
                checked += 1
                var fresh = panel
                fresh.projected = [:]
                let width = frame.size.columns
                let (drawn, afresh) = (panel.lines(width: width), fresh.lines(width: width))
                guard drawn != afresh else { return }
                failed = true
                let rows = zip(drawn, afresh).enumerated().filter { $0.element.0 != $0.element.1 }
                let text = { (cells: [LaneCell]) in String(String.UnicodeScalarView(cells.map(\.glyph))) }
                let shown = rows.prefix(4).map {
                    "panel row \($0.offset):\n kept    \(text($0.element.0))\n afresh  \(text($0.element.1))"
                }
                Issue.record(
                    """
                    after \(step), the panel drawn from the kept spans is not the one projected afresh \
                    (\(rows.isEmpty ? "the rows' count differs" : "\(rows.count) rows differ, glyphs or looks")); \
                    \(seed)
                    \(shown.joined(separator: "\n"))
                    """)
            }
        }
    }

    /// One random step of a user of play (or of `learn`, with its lesson keys): drags and arrows,
    /// time passing (timers falling due), operators chosen and stages added or taken out, late
    /// subscribers, zoom, `T`, the pointer over the panel, a resize. Its name, for a failure.
    static func randomStep(
        _ generator: inout SeededGenerator, size: ScreenSize, pipe: SlotPipe, learn: Bool
    ) -> (name: String, bytes: [MemoryTerminal.Step], intent: Intent?) {
        let cell = Cell(column: generator.below(size.columns), row: min(3, generator.below(size.rows)))
        func key(_ keys: String) -> (name: String, bytes: [MemoryTerminal.Step], intent: Intent?) {
            let key = Array(keys.unicodeScalars)[generator.below(keys.unicodeScalars.count)]
            return ("the key \(key)", [.bytes(TerminalBytes.key(key))], nil)
        }
        switch generator.below(learn ? 16 : 14) {
        case 0, 1, 2:
            // A drag of a few reports near the top, where the panel leaves the ball's rows in view.
            let cells = (0..<(1 + generator.below(6))).map {
                Cell(column: min(size.columns - 1, cell.column + $0), row: cell.row)
            }
            let steps =
                [MemoryTerminal.Step.bytes(TerminalBytes.press(cells[0]))]
                + cells.dropFirst().map { .bytes(TerminalBytes.drag($0)) } + [
                    .bytes(TerminalBytes.release(cells.last!))
                ]
            return ("a drag through \(cells)", steps, nil)
        case 3, 4: return key("hjklHJKL")
        case 5, 6, 7:
            let wait = Duration.milliseconds([1, 16, 40, 90, 120, 300, 350, 700, 1_500, 4_000][generator.below(10)])
            return ("\(wait) passing", [.pass(wait)], nil)
        case 8:
            let change = pipe.randomChange(using: &generator)
            return ("\(change)", [], change)
        case 9: return key("bprv")
        case 10: return key("<>T")
        case 11:
            let over = Cell(
                column: generator.below(size.columns), row: size.rows - 2 - generator.below(min(size.rows - 1, 14)))
            return ("the pointer over \(over)", [.bytes(TerminalBytes.move(over))], nil)
        case 12:
            let resized = ScreenSize(columns: 60 + generator.below(80), rows: 22 + generator.below(20))
            return ("a resize to \(resized)", [.resize(resized)], nil)
        case 13: return key("i")
        case 14: return generator.below(3) == 0 ? key("nN") : key("i")
        default: return key("T")
        }
    }

    @Test(
        "play on a time axis: random sessions (drags, arrows, timers falling due, operators, late lanes, zoom, T, hover, resizes) draw every frame as the lanes projected afresh"
    )
    func play() {
        var generator = SeededGenerator()
        var checked = 0
        var reused = 0
        for session in 0..<3 {
            let size = ScreenSize(columns: 70 + generator.below(60), rows: 24 + generator.below(14))
            let pilot = Pilot<Play>(screen: size)
            let look = EveryFrame(pilot.play.binding, on: pilot.terminal, seed: "\(generator)")
            pilot.toggleStreams()
            pilot.send(.operatorChosen(.random(using: &generator)))
            pilot.type("T")
            for step in 0..<300 where !look.failed {
                let (name, bytes, intent) = Self.randomStep(
                    &generator, size: pilot.size, pipe: pilot.session.state.slot, learn: false)
                look.step = "session \(session), step \(step): \(name)"
                pilot.run(bytes)
                pilot.send(intent)
            }
            checked += look.checked
            reused += pilot.play.binding.settledSpans.reused
            if look.failed { return }
        }
        // The spans were kept, and the tail projected, in most frames (a page turn, a zoom, a new
        // late lane, projects a lane whole).
        #expect(checked > 300 && reused > 1_000, "\(checked) frames, \(reused) lanes from kept spans; \(generator)")
    }

    @Test(
        "learn on a time axis: each lesson's floor, the lesson keys and random moves draw every frame as projected afresh"
    )
    func learn() throws {
        var generator = SeededGenerator()
        // A lesson with its lanes, the slot's among them; the lesson keys go on and back from it.
        let first = try #require(Lesson.all.firstIndex { $0.id == "debounce-throttle" })
        let pilot = Pilot<Learn>(first: first)
        let look = EveryFrame(pilot.learn.binding, on: pilot.terminal, seed: "\(generator)")
        pilot.type("T")
        for step in 0..<300 where !look.failed {
            let (name, bytes, intent) = Self.randomStep(
                &generator, size: pilot.size, pipe: pilot.learn.play.session.state.slot, learn: true)
            look.step = "step \(step) from lesson \(first): \(name)"
            pilot.run(bytes)
            if let intent {
                pilot.learn.play.session.send(intent)
                pilot.run([])
            }
        }
        #expect(look.checked > 20, "\(look.checked) frames; \(generator)")
        #expect(pilot.learn.binding.settledSpans.reused > 0, "\(generator)")
    }

    @Test("the recorder drops its oldest columns in the middle of a page: the kept spans are dropped with them")
    func recorderDropsColumns() {
        var generator = SeededGenerator()
        let size = ScreenSize(columns: 80, rows: 24)
        let session = BallSession(screen: size)
        // Two columns kept at least, the oldest dropped in twos: a page of 1 s spans holds many more.
        let recorder = StreamRecorder(session: session, capacity: 2)
        let settled = SettledSpans()
        var time: Int64 = 0
        session.send(.pressed(at: size.centre), at: SessionTime(microseconds: time))
        for step in 0..<200 {
            time += Int64([16, 40, 120, 350][generator.below(4)]) * 1_000
            let cell = Cell(column: generator.below(size.columns), row: generator.below(size.rows))
            session.send(.dragged(to: cell), at: SessionTime(microseconds: time))
            var panel = StreamPanel(recorder, width: 80, fits: true, axis: PanelAxis(time: true, span: .seconds(1)))
            settled.fill(&panel, floor: nil)
            var fresh = panel
            fresh.projected = [:]
            let (drawn, afresh) = (panel.lines(width: 80), fresh.lines(width: 80))
            guard drawn == afresh else {
                Issue.record("step \(step): the kept spans outlived the columns they came from; \(generator)")
                return
            }
        }
        #expect(settled.reused > 100, "\(generator)")
    }

    @Test(
        "the player on a time axis, scrubbed and stepped back and forth, skips and late keys: each page's lanes kept while it is shown, every frame drawn as projected afresh"
    )
    func player() throws {
        var generator = SeededGenerator()
        let recording = RandomRecording.bytes(count: 300, observations: true, operators: true, using: &generator)
        let pilot = try Pilot<ReplayProgram>(recording, screen: ScreenSize(columns: 100, rows: 48))
        let binding = pilot.program.binding
        let look = EveryFrame(binding, on: pilot.terminal, seed: "\(generator)")
        pilot.type("s")
        pilot.type("T")
        let row = try #require(pilot.player.timelineRow)
        for step in 0..<120 where !look.failed {
            let cell = Cell(column: generator.below(pilot.size.columns), row: row)
            switch generator.below(8) {
            case 0:
                look.step = "step \(step): a scrub to \(cell)"
                pilot.run([.bytes(TerminalBytes.press(cell)), .bytes(TerminalBytes.release(cell))])
            case 1...4:
                let direction: Direction = generator.below(3) == 0 ? .left : .right
                look.step = "step \(step): \(direction)"
                pilot.press(direction)
            default:
                let key = Array("lhLH <>xbprv".unicodeScalars)[generator.below(12)]
                look.step = "step \(step): the key \(key)"
                pilot.type(key)
                pilot.pass(.milliseconds(generator.below(2) == 0 ? 50 : 400))
            }
        }
        // The live view's kept spans are never the player's; its own are kept in most frames.
        #expect(
            look.checked > 20 && binding.settledSpans.reused == 0 && binding.pageSpans.reused > 100,
            "\(look.checked) frames, \(binding.pageSpans.reused) lanes kept; \(generator)")
    }
}
