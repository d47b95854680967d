import BallModel
import BallProgram
import Foundation
import TerminalIO
import Testing

/// The one key map: what each key does in each mode, and the docs' tables made from it.
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
        #expect(action(.home) == nil, "Home is the recording's start, in the player only")
        #expect(action(.character("c")) == .intent(.recentred))
        #expect(action(.arrow(.up, shifted: true)) == .intent(.arrowPressed(.up, distance: 5)))
        #expect(action(.mouseDragged(Cell(column: 3, row: 4))) == .intent(.dragged(to: Cell(column: 3, row: 4))))
        #expect(action(.mouseReleased(Cell(column: 3, row: 4))) == .intent(.released(at: Cell(column: 3, row: 4))))
    }

    @Test("a key means one thing in every mode where it does something (h j k l are the arrows everywhere)")
    func oneMeaningPerKey() {
        /// What an action means to the user: a move of the ball and a step through a recording are
        /// both "that way"; quitting is quitting whichever way the mode does it.
        func meaning(_ action: KeyAction) -> String {
            switch action {
            case .intent(.arrowPressed(let direction, _)): "toward \(direction)"
            case .step(let count): count < 0 ? "toward \(Direction.left)" : "toward \(Direction.right)"
            case .intent(.quitRequested), .quit, .leaveTour: "quit"
            default: "\(action)"
            }
        }
        var keys: [Key: Set<String>] = [:]
        for binding in KeyMap.bindings {
            for (key, action) in binding.actions { keys[key, default: []].insert(meaning(action)) }
        }
        for (key, meanings) in keys { #expect(meanings.count == 1, "\(key): \(meanings.sorted())") }
        // In learn, the letters move the ball as in play.
        #expect(KeyMap.action(for: .character("h"), in: .learn) == .intent(.arrowPressed(.left, distance: 1)))
        #expect(KeyMap.action(for: .character("t"), in: .learn) == .showHint)
    }

    @Test("no key means two things in one mode", arguments: KeyMode.allCases)
    func noKeyTwice(mode: KeyMode) {
        let keys = KeyMap.bindings.filter { $0.modes.contains(mode) }.flatMap(\.actions).map(\.key)
        #expect(Set(keys).count == keys.count, "\(mode)")
    }

    @Test("the key tables in the README and docs/ are the key map's", arguments: KeyMode.allCases)
    func documentedTables(mode: KeyMode) throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let start = "<!-- keys: \(mode.rawValue) -->\n"
        let end = "\n<!-- end of keys -->"
        var found = 0
        for file in ["README.md", "docs/learn.md", "docs/playing.md", "docs/replay.md"] {
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            var rest = text.startIndex..<text.endIndex
            while let opening = text.range(of: start, range: rest) {
                let closing = try #require(
                    text.range(of: end, range: opening.upperBound..<text.endIndex),
                    "\(file) has no end marker after \(start)")
                #expect(
                    String(text[opening.upperBound..<closing.lowerBound]) == KeyMap.markdownTable(for: mode), "\(file)")
                found += 1
                rest = closing.upperBound..<text.endIndex
            }
        }
        #expect(found > 0, "no file has a table between \(start) and the end marker")
    }

    @Test(
        "the help names every key that does something in its mode, and no key that does not",
        arguments: KeyMode.allCases)
    func help(mode: KeyMode) {
        let help = KeyMap.help(for: mode)
        let named = Set(
            help.rows.flatMap { $0.keys.split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init) })
        /// The name a key goes by in the help, as people write it.
        func name(_ key: Key) -> String {
            switch key {
            case .character(" "): "space"
            case .character("\u{03}"): "Ctrl-C"
            case .character("\u{04}"): "Ctrl-D"
            case .character("\u{1A}"): "Ctrl-Z"
            case .character("\r"), .character("\n"): "Enter"
            case .character("\u{7F}"), .character("\u{08}"): "Backspace"
            case .character(let digit) where ("0"..."9").contains(digit): "digits"
            case .character(let character): String(character)
            case .arrow(_, let shifted):
                mode != .replay ? (shifted ? "Shift+arrows" : "arrows") : (shifted ? "Shift+Right/Left" : "Right/Left")
            case .home: "Home"
            case .end: "End"
            case .escape: "Esc"
            }
        }
        // Every key with an action here is named (upper-case letters as their own, Q and C as q
        // and c: the help names the key, not the case).
        for binding in KeyMap.bindings where binding.modes.contains(mode) {
            for (key, _) in binding.actions {
                let shown = name(key)
                #expect(named.contains(shown) || named.contains(shown.lowercased()), "\(mode): \(shown) is not named")
            }
        }
        // Every single key named does something here.
        for token in named where token.count == 1 {
            let scalar = token.unicodeScalars.first!
            #expect(
                KeyMap.action(for: .character(scalar), in: mode) != nil,
                "\(mode): the help names \(token), which does nothing")
        }
        #expect(help.rows.contains { $0.keys == "mouse" })
        #expect(help.footer == "q quits; any other key closes this")
    }
}
