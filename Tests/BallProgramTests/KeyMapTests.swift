import BallModel
import BallProgram
import Foundation
import TerminalIO
import Testing

/// The one key map: what each key does in each mode, and the README's tables made from it.
@Suite("The key map")
struct KeyMapTests {
    @Test("replay keys: space pauses, the quit keys stop, Ctrl-Z suspends; arrows travel, the mouse scrubs")
    func replayKeys() {
        func action(_ event: TerminalEvent) -> KeyAction? { KeyMap.action(for: event, in: .replay) }
        #expect(action(.character(" ")) == .togglePause)
        for event: TerminalEvent in [
            .character("q"), .character("Q"), .escape, .character("\u{03}"), .character("\u{04}"),
        ] {
            #expect(action(event) == .quit, "\(event)")
        }
        #expect(action(.character("\u{1A}")) == .suspend)
        #expect(action(.character("?")) == .showHelp)
        #expect(action(.arrow(.left, shifted: false)) == .step(by: -1))
        #expect(action(.arrow(.right, shifted: true)) == .step(by: 10))
        #expect(action(.character("H")) == .step(by: -10))
        #expect(action(.arrow(.up, shifted: false)) == nil)
        #expect(action(.home) == .jumpToStart)
        #expect(action(.end) == .jumpToEnd)
        #expect(action(.character("]")) == .nextColourChange)
        #expect(action(.character("=")) == .changeSpeed(faster: true))
        #expect(action(.character("c")) == nil)
        #expect(action(.mousePressed(Cell(column: 1, row: 1))) == .scrub(Cell(column: 1, row: 1)))
        #expect(action(.mouseDragged(Cell(column: 5, row: 1))) == .scrub(Cell(column: 5, row: 1)))
        #expect(action(.mouseReleased(Cell(column: 5, row: 1))) == nil)
    }

    @Test("play keys: Ctrl-Z suspends, space does nothing, the mouse becomes intents")
    func playKeys() {
        func action(_ event: TerminalEvent) -> KeyAction? { KeyMap.action(for: event, in: .play) }
        #expect(action(.character("\u{1A}")) == .suspend)
        #expect(action(.character(" ")) == nil)
        #expect(action(.character("?")) == .showHelp)
        #expect(action(.escape) == .intent(.quitRequested))
        #expect(action(.home) == .intent(.recentred))
        #expect(action(.arrow(.up, shifted: true)) == .intent(.arrowPressed(.up, distance: 5)))
        #expect(action(.mouseDragged(Cell(column: 3, row: 4))) == .intent(.dragged(to: Cell(column: 3, row: 4))))
        #expect(action(.mouseReleased(Cell(column: 3, row: 4))) == .intent(.released(at: Cell(column: 3, row: 4))))
    }

    @Test("no key means two things in one mode", arguments: KeyMode.allCases)
    func noKeyTwice(mode: KeyMode) {
        let keys = KeyMap.bindings.filter { $0.modes.contains(mode) }.flatMap(\.actions).map(\.key)
        #expect(Set(keys).count == keys.count, "\(mode)")
    }

    @Test("the README's key tables are the key map's", arguments: KeyMode.allCases)
    func readmeTables(mode: KeyMode) throws {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        let start = "<!-- keys: \(mode.rawValue) -->\n"
        let end = "\n<!-- end of keys -->"
        let table = try #require(
            text.range(of: start).flatMap { opening in
                text.range(of: end, range: opening.upperBound..<text.endIndex).map {
                    String(text[opening.upperBound..<$0.lowerBound])
                }
            }, "README.md has no table between \(start) and the end marker")
        #expect(table == KeyMap.markdownTable(for: mode))
    }

    @Test("the help lists every key of its mode, and no key of another", arguments: KeyMode.allCases)
    func help(mode: KeyMode) {
        let help = KeyMap.help(for: mode)
        let shown = help.rows.map { "\($0.keys): \($0.does)" }
        switch mode {
        case .play:
            #expect(
                shown == [
                    "mouse: drag the ball (or click anywhere: it jumps there)", "arrows, h j k l: move 1 cell",
                    "Shift+arrows, H J K L: move 5 cells", "c, Home: back to the middle",
                    "q, Esc, Ctrl-C, Ctrl-D: quit",
                    "Ctrl-Z: back to the shell; fg returns",
                    "s: show or hide the streams (point at a column)",
                    "b: late subscriber, Behavior: gets the current value",
                    "p: late subscriber, Passthrough: only what comes next",
                    "?: show the keys (any key closes this)",
                ])
        case .replay:
            #expect(
                shown == [
                    "mouse: press or drag on the timeline: go to that place",
                    "space: play and pause (at the end: play from the start)",
                    "Right/Left, l h: one intent forward / back (pauses)",
                    "Shift+Right/Left, L H: 10 intents forward / back", "Home, End: the start (intent 0) / the end",
                    "] [: the next / previous change of the ball's colour",
                    "+ =, -: twice / half as fast (0.25x to 16x)",
                    "x: skip or unskip this intent: all after it follows",
                    "w: write the edited log as NAME.edited.jsonl",
                    "q, Esc, Ctrl-C, Ctrl-D: quit", "Ctrl-Z: back to the shell; fg returns",
                    "s: show or hide the streams (point at a column)",
                    "b: late subscriber, Behavior: gets the current value",
                    "p: late subscriber, Passthrough: only what comes next",
                    "?: show the keys (any key closes this)",
                ])
        }
        #expect(help.footer == "any key closes this")
    }
}
