import BallModel
import BallRendering
import BallStreams
import TerminalIO
import TextFormats

// MARK: - What keys do

/// The modes the program's keys work in.
package enum KeyMode: String, Sendable, CaseIterable {
    /// Playing with the ball (`colourful-ball`).
    case play
    /// Watching a recording (`colourful-ball replay FILE`).
    case replay
    /// The tour of the article's lessons (`colourful-ball learn`): play's keys, with `t` for a
    /// hint and `n` for the next lesson.
    case learn
}

/// What a key (or the mouse) does, named for what the user wants.
package enum KeyAction: Hashable, Sendable {
    /// Becomes this intent, which the session steps (and a recording keeps).
    case intent(Intent)
    /// Gives the terminal back to the shell until `fg` (Ctrl-Z).
    case suspend
    /// Pauses or resumes the recording's playback.
    case togglePause
    /// Stops watching.
    case quit
    /// Esc in the tour with no box open: the first asks, the second leaves (a lone Esc is easy
    /// to press meaning "close", and leaving loses the session's lanes).
    case leaveTour
    /// Shows every key of the mode in a box, until the next key.
    case showHelp
    /// Shows the lesson's hint (`learn`).
    case showHint
    /// Goes on to the next lesson, once this one is done (`learn`).
    case nextLesson
    /// Goes back to the lesson before (`learn`).
    case previousLesson
    /// Shows the lessons: which are done, what each taught; a digit goes to one (`learn`).
    case showLessons
    /// A digit: answers the card's question, or picks an operator, or types a lesson's number
    /// (`learn`: `1` then `2` goes to lesson 12).
    case digit(Int)
    /// `a` in the operators box: puts this operator, which has no digit, in the chain's slot.
    case chooseOperator(SlotOperator)
    /// `|` in the operators box (a pipe, as a shell writes one): the next operator's key adds it
    /// at the end of the slot's pipe.
    case addStage
    /// Backspace in the operators box: takes the last stage out of the slot's pipe.
    case removeStage
    /// `/` in the operators box: empties the slot's pipe.
    case clearPipe
    /// `(` or `)` in the operators box: a timed operator (`debounce`, `throttle`) waits the next
    /// shorter or longer interval (``SlotInterval``), the slot's timed stage too.
    case changeInterval(longer: Bool)
    /// Enter: goes to the lesson whose number was typed (`learn`'s lessons box).
    case confirmChoice
    /// Ends the session: the position subject completes (`learn`'s Completion lesson).
    case endSession
    /// Binds the screen's colours through a Publish copy of the chain, or back (`learn`).
    case toggleScreenThroughPublish
    /// Subscribes two subscribers each to a shared and an unshared copy of `map`, or cancels
    /// them (`learn`).
    case toggleMapCopies
    /// Opens the box of operators for the chain's slot, between the position and the colour
    /// (`play`); a digit there puts one in (``choose(_:)``).
    case showOperators
    /// Opens or closes the streams panel.
    case toggleStreams
    /// Subscribes a late subscriber of this kind (its lane is on the panel), or unsubscribes it.
    case toggleLate(LateSubscriber)
    /// The streams panel's time view: a column per span of time, or back to a column per intent.
    case toggleTimeAxis
    /// The time view's zoom: a shorter span a column (`finer`), or a longer one.
    case zoomTime(finer: Bool)
    /// Goes this many intents forward (back, when negative) in the recording, and pauses.
    case step(by: Int)
    /// Goes to the recording's start (`0/N`).
    case jumpToStart
    /// Goes to the recording's end (`N/N`).
    case jumpToEnd
    /// Goes to the next change of the ball's colour.
    case nextColourChange
    /// Goes to the previous change of the ball's colour.
    case previousColourChange
    /// Plays twice as fast (`true`) or half as fast.
    case changeSpeed(faster: Bool)
    /// Skips the current intent, or takes the skip back: everything after it is worked out again.
    case toggleSkip
    /// Writes the recording as edited (without the skipped intents) to a new file beside it.
    case writeEdited
    /// The mouse went down, or moved down, at this cell: on the timeline, goes to that place.
    case scrub(Cell)
    /// The pointer rests over this cell with no button down: over the streams panel, its
    /// description follows the column under it.
    case hover(Cell)
}

extension KeyAction {
    /// Whether it picks a row of a box of choices (the run loop hands it to the program while
    /// one is open; any other key closes the box).
    package var picksInABox: Bool {
        switch self {
        case .digit, .chooseOperator, .confirmChoice, .addStage, .removeStage, .clearPipe, .changeInterval: true
        default: false
        }
    }

    /// Whether it quits: from anywhere, a box open or not (Esc, which closes a box, is not one
    /// while a box is open).
    package var quits: Bool {
        switch self {
        case .quit, .intent(.quitRequested): true
        default: false
        }
    }
}

/// A key as the terminal sends it.
package enum Key: Hashable, Sendable {
    /// A printable or control character (`"\u{03}"` for Ctrl-C).
    case character(Unicode.Scalar)
    /// An arrow, with or without Shift.
    case arrow(Direction, shifted: Bool)
    /// The Home key.
    case home
    /// The End key.
    case end
    /// Esc on its own.
    case escape
}

/// One row of the key map: keys that do one thing, in the modes where they do it.
package struct KeyBinding: Sendable {
    /// The keys as people name them, such as `["arrows", "h j k l"]` (single characters
    /// separated by spaces are keys to type).
    package let keys: [String]
    /// What they do, in a few words.
    package let does: String
    /// What they do in `learn`, where ``does`` would answer a lesson's question before the
    /// learner predicts: the same keys, named without the answer (nil: ``does`` tells nothing).
    package let neutral: String?
    /// The modes where they work.
    package let modes: [KeyMode]
    /// Each key and what it does.
    package let actions: [(key: Key, action: KeyAction)]
    /// Whether the mouse does this (its press, drag and release become intents).
    package let isMouse: Bool

    init(
        _ keys: [String], _ does: String, neutral: String? = nil, modes: [KeyMode],
        actions: [(key: Key, action: KeyAction)], isMouse: Bool = false
    ) {
        self.keys = keys
        self.does = does
        self.neutral = neutral
        self.modes = modes
        self.actions = actions
        self.isMouse = isMouse
    }

    /// What they do as `mode`'s help says it: in `learn` (a quiz), the neutral form, and in any
    /// mode where one of the keys is `untold` (the player of a tour, before the lesson that
    /// asks what they do).
    package func words(in mode: KeyMode, untold: Set<String> = []) -> String {
        mode == .learn || keys.contains(where: untold.contains) ? neutral ?? does : does
    }
}

/// Every key of every mode, in one table: the run loop looks keys up here, and the README's
/// key tables and the tests are made from it.
package enum KeyMap {
    /// How far Shift+arrow and `H`/`J`/`K`/`L` move.
    package static let bigStep = 5
    /// How many intents Shift+Right/Left and `L`/`H` go in a replay.
    package static let bigReplayStep = 10

    /// The table, in the order the help lists it.
    package static let bindings: [KeyBinding] =
        [
            KeyBinding(
                ["mouse"], "drag the ball (or click anywhere: it glides there)", modes: [.play, .learn], actions: [],
                isMouse: true),
            KeyBinding(
                ["arrows", "h j k l"], "move 1 cell", modes: [.play, .learn],
                actions: moves(distance: 1, keys: "hjkl")),
            KeyBinding(
                ["Shift+arrows", "H J K L"], "move \(bigStep) cells", modes: [.play, .learn],
                actions: moves(distance: bigStep, keys: "HJKL")),
            KeyBinding(["t"], "a hint for this lesson", modes: [.learn], actions: [(.character("t"), .showHint)]),
            KeyBinding(
                ["n"], "the next lesson, once this one is done", modes: [.learn],
                actions: [(.character("n"), .nextLesson)]),
            KeyBinding(["N"], "the lesson before", modes: [.learn], actions: [(.character("N"), .previousLesson)]),
            KeyBinding(
                ["m"], "the lessons: what each taught, which are done", modes: [.learn],
                actions: [(.character("m"), .showLessons)]),
            KeyBinding(
                ["digits"], "answer the card's question; in a box, a lesson's number or an operator",
                modes: [.learn],
                actions: (0...9).map { digit in (.character(Unicode.Scalar(UInt8(48 + digit))), .digit(digit)) }),
            KeyBinding(
                ["Enter"], "in the lessons box: go to the number typed (1 Enter: lesson 1)", modes: [.learn],
                actions: [(.character("\r"), .confirmChoice), (.character("\n"), .confirmChoice)]),
            KeyBinding(
                ["e"], "end the session: position completes (the Completion lesson)", modes: [.learn],
                actions: [(.character("e"), .endSession)]),
            KeyBinding(
                ["o"], "bind the screen through a Publish subject (again: back)", modes: [.learn],
                actions: [(.character("o"), .toggleScreenThroughPublish)]),
            KeyBinding(
                ["u"], "copies of map, shared and not, counting their runs (again: cancel)", modes: [.learn],
                actions: [(.character("u"), .toggleMapCopies)]),
            KeyBinding(
                ["c"], "back to the middle", modes: [.play, .learn],
                actions: [(.character("c"), .intent(.recentred)), (.character("C"), .intent(.recentred))]),
            KeyBinding(
                ["i"], "flip the mirror (combineLatest and sample read it)",
                modes: [.play, .learn], actions: [(.character("i"), .intent(.mirrorFlipped))]),
            // The pipe's keys in the box's row, so the help stays one page at 80×24.
            KeyBinding(
                ["f", "|", "Backspace", "/", "( )"],
                "operators box; in it a stage more, less, none; wait",
                modes: [.play, .learn],
                actions: [
                    (.character("f"), .showOperators), (.character("|"), .addStage),
                    (.character("\u{7F}"), .removeStage), (.character("\u{08}"), .removeStage),
                    (.character("/"), .clearPipe), (.character("("), .changeInterval(longer: false)),
                    (.character(")"), .changeInterval(longer: true)),
                ]),
            KeyBinding(
                ["digits"], "in the operators box: put that one in the chain", modes: [.play],
                actions: SlotOperator.allCases.compactMap { slot in
                    slot.digit.map { (.character(slot.key), .digit($0)) }
                }),
        ]
        // The operators whose key is a letter, in one row (as the digits are): the box shows
        // which is which, and the help stays one page at 80×24.
        + [
            KeyBinding(
                [
                    SlotOperator.allCases.filter { $0.digit == nil }.map { "\(Character($0.key))" }.joined(
                        separator: " ")
                ],
                "in the operators box: put that one in the chain", modes: [.play, .learn],
                actions: SlotOperator.allCases.filter { $0.digit == nil }.map {
                    (.character($0.key), .chooseOperator($0))
                })
        ]
        + [
            KeyBinding(
                ["mouse"], "press or drag on the timeline: go to that place", modes: [.replay], actions: [],
                isMouse: true),
            KeyBinding(
                ["space"], "play and pause (at the end: play from the start)", modes: [.replay],
                actions: [(.character(" "), .togglePause)]),
            KeyBinding(
                ["Right/Left", "l h"], "one intent forward / back (pauses)", modes: [.replay],
                actions: [
                    (.arrow(.right, shifted: false), .step(by: 1)), (.arrow(.left, shifted: false), .step(by: -1)),
                    (.character("l"), .step(by: 1)), (.character("h"), .step(by: -1)),
                ]),
            KeyBinding(
                ["Shift+Right/Left", "L H"], "\(bigReplayStep) intents forward / back", modes: [.replay],
                actions: [
                    (.arrow(.right, shifted: true), .step(by: bigReplayStep)),
                    (.arrow(.left, shifted: true), .step(by: -bigReplayStep)),
                    (.character("L"), .step(by: bigReplayStep)), (.character("H"), .step(by: -bigReplayStep)),
                ]),
            KeyBinding(
                ["Home", "End"], "the start (intent 0) / the end (pauses)", modes: [.replay],
                actions: [(.home, .jumpToStart), (.end, .jumpToEnd)]),
            KeyBinding(
                ["] ["], "the next / previous colour change (pauses)", modes: [.replay],
                actions: [(.character("]"), .nextColourChange), (.character("["), .previousColourChange)]),
            KeyBinding(
                ["+ =", "-"], "twice / half as fast (0.25x to 16x)", modes: [.replay],
                actions: [
                    (.character("+"), .changeSpeed(faster: true)), (.character("="), .changeSpeed(faster: true)),
                    (.character("-"), .changeSpeed(faster: false)),
                ]),
            KeyBinding(
                ["x"], "skip or unskip this intent (pauses)", modes: [.replay],
                actions: [(.character("x"), .toggleSkip)]),
            KeyBinding(
                ["w"], "write the edited log as NAME.edited.jsonl", modes: [.replay],
                actions: [(.character("w"), .writeEdited)]),
            KeyBinding(
                ["q", "Esc", "Ctrl-C", "Ctrl-D"], "quit (Esc closes a box first)", modes: [.play],
                actions: quitKeys.map { ($0, .intent(.quitRequested)) }),
            KeyBinding(
                ["q", "Ctrl-C", "Ctrl-D"], "leave the tour, a box open or not", modes: [.learn],
                actions: quitKeys.filter { $0 != .escape }.map { ($0, .intent(.quitRequested)) }),
            KeyBinding(
                ["Esc"], "close a box; with none open, asks once: Esc again leaves", modes: [.learn],
                actions: [(.escape, .leaveTour)]),
            KeyBinding(
                ["q", "Esc", "Ctrl-C", "Ctrl-D"], "quit (Esc closes a box first)", modes: [.replay],
                actions: quitKeys.map { ($0, .quit) }),
            KeyBinding(
                ["Ctrl-Z"], "back to the shell; `fg` returns", modes: [.play, .replay, .learn],
                actions: [(.character("\u{1A}"), .suspend)]),
            KeyBinding(
                ["s"], "show or hide the streams (point at a column)", modes: [.play, .replay, .learn],
                actions: [(.character("s"), .toggleStreams)]),
        ]
        + [
            // One row for the axis and its zoom, as for `] [`: the help stays one page at 80×24.
            KeyBinding(
                ["T", "< >"],
                "a time axis, or not; < > \(PanelAxis.words(PanelAxis.spans.first!)) to \(PanelAxis.words(PanelAxis.spans.last!)) a column",
                modes: [.play, .replay, .learn],
                actions: [
                    (.character("T"), .toggleTimeAxis), (.character("<"), .zoomTime(finer: true)),
                    (.character(">"), .zoomTime(finer: false)),
                ])
        ]
        + LateSubscriber.allCases.map { kind in
            KeyBinding(
                ["\(kind.key)"], "late \(kind.name): \(kind.handedWords) (again: cancel)",
                neutral: "a late \(kind.plainName) subscriber (again: cancel)", modes: [.play, .replay, .learn],
                actions: [(.character(kind.key), .toggleLate(kind))])
        } + [
            KeyBinding(
                ["?"], "show the keys (space: next page; other keys close)", modes: [.play, .replay, .learn],
                actions: [(.character("?"), .showHelp)])
        ]

    private static let quitKeys: [Key] = [
        .character("q"), .character("Q"), .escape, .character("\u{03}"), .character("\u{04}"),
    ]

    /// The arrows and four letter keys (left, down, up, right) moving `distance` cells.
    private static func moves(distance: Int, keys letters: String) -> [(key: Key, action: KeyAction)] {
        let directions: [Direction] = [.left, .down, .up, .right]
        let arrows = Direction.allCases.map { direction in
            (
                Key.arrow(direction, shifted: distance != 1),
                KeyAction.intent(.arrowPressed(direction, distance: distance))
            )
        }
        let letterKeys = zip(letters.unicodeScalars, directions).map { letter, direction in
            (Key.character(letter), KeyAction.intent(.arrowPressed(direction, distance: distance)))
        }
        return arrows + letterKeys
    }

    /// Each mode's keys and their actions, looked up once.
    private static let lookup: [KeyMode: [Key: KeyAction]] = Dictionary(
        uniqueKeysWithValues: KeyMode.allCases.map { mode in
            let pairs = bindings.filter { $0.modes.contains(mode) }.flatMap(\.actions)
            return (mode, Dictionary(pairs.map { ($0.key, $0.action) }, uniquingKeysWith: { first, _ in first }))
        })

    /// Whether the mouse does anything in play, and in replay (looked up once: a drag step
    /// asks for every report).
    private static let mouseInPlay = bindings.contains { $0.isMouse && $0.modes.contains(.play) }
    private static let mouseInReplay = bindings.contains { $0.isMouse && $0.modes.contains(.replay) }

    /// What `event` does in `mode`; nil when it does nothing there.
    package static func action(for event: TerminalEvent, in mode: KeyMode) -> KeyAction? {
        let key: Key
        let mouse = mode == .replay ? mouseInReplay : mouseInPlay
        switch (event, mode) {
        case (.mousePressed(let cell), .play), (.mousePressed(let cell), .learn):
            return mouse ? .intent(.pressed(at: cell)) : nil
        case (.mouseDragged(let cell), .play), (.mouseDragged(let cell), .learn):
            return mouse ? .intent(.dragged(to: cell)) : nil
        case (.mouseReleased(let cell), .play), (.mouseReleased(let cell), .learn):
            return mouse ? .intent(.released(at: cell)) : nil
        case (.mousePressed(let cell), .replay), (.mouseDragged(let cell), .replay): return mouse ? .scrub(cell) : nil
        case (.mouseReleased, .replay): return nil
        case (.mouseMoved(let cell), _): return .hover(cell)
        case (.modeReported, _), (.cursorReported, _): return nil
        case (.character(let scalar), _): key = .character(scalar)
        case (.arrow(let direction, let shifted), _): key = .arrow(direction, shifted: shifted)
        case (.home, _): key = .home
        case (.end, _): key = .end
        case (.escape, _): key = .escape
        }
        return lookup[mode]?[key]
    }

    /// The intent `event` becomes in play; nil when it becomes none.
    package static func intent(for event: TerminalEvent) -> Intent? {
        guard case .intent(let intent)? = action(for: event, in: .play) else { return nil }
        return intent
    }

    // MARK: - Documentation

    /// The keys of `mode` for `--help` and the man page: a sentence per binding, each on its
    /// own line, `arrows, h j k l: move 1 cell.` (ASCII only: the man page generator drops the
    /// rest).
    package static func summary(for mode: KeyMode) -> String {
        help(for: mode).rows.map { "\($0.keys): \($0.does)." }.joined(separator: "\n")
    }

    /// The streams panel's symbols, as the help box lists them below the keys when the panel is
    /// open (``MarbleLegend``); with `ascii`, as a panel in ASCII draws them (``Glyph/ascii``);
    /// the symbols in `untold` in neutral words (`learn`, until the lessons they answer are done).
    package static func legendRows(ascii: Bool = false, untold: Set<String> = []) -> [HelpRow] {
        [HelpRow(keys: "", does: ""), HelpRow(keys: "in the lanes", does: "(the streams panel, s)")]
            + MarbleLegend.entries.map { entry in
                let symbol =
                    ascii
                    ? String(String.UnicodeScalarView(entry.symbol.unicodeScalars.map { Glyph.ascii[$0] ?? $0 }))
                    : entry.symbol
                return HelpRow(keys: symbol, does: MarbleLegend.meaning(of: entry, untold: untold))
            }
    }

    /// What the player draws in its future's look (``FutureLook``), as its help box and
    /// `replay --help` say it: the ruler's `later` (``StreamPanel/laterWords``) shows the look.
    package static let futureWords =
        "a mark after the player's place, not played yet: in the colour of the ruler's \"\(StreamPanel.laterWords)\"; \(Glyph.later) where colour cannot tell it apart"

    /// The legend's symbols that have neutral words: `learn --help` says every one of them so.
    package static let neutralLegend = MarbleLegend.neutralSymbols

    /// The legend as `--help` and the man page print it: a line per symbol; the symbols in
    /// `untold` in neutral words (`learn --help`: all of them).
    package static func legendSummary(untold: Set<String> = []) -> String {
        "The streams panel's lanes (s):\n" + MarbleLegend.lines(untold: untold).joined(separator: "\n")
    }

    /// The keys of `mode` as the help box shows them; with `legend`, the lanes' symbols after
    /// them (the streams panel is open), in ASCII where the panel is (`ascii`), the symbols and
    /// keys in `untold` in neutral words.
    package static func help(for mode: KeyMode, legend: Bool = false, ascii: Bool = false, untold: Set<String> = [])
        -> HelpText
    {
        let title =
            switch mode {
            case .play: "colourful-ball: keys"
            case .replay: "colourful-ball replay: keys"
            case .learn: "colourful-ball learn: keys"
            }
        let rows = bindings.filter { $0.modes.contains(mode) }.map { binding in
            HelpRow(
                keys: binding.keys.joined(separator: ", "),
                does: binding.words(in: mode, untold: untold).replacingBackticks
            )
        }
        return HelpText(
            title: title,
            rows: rows + (legend ? legendRows(ascii: ascii, untold: untold) : [])
                + (legend && mode == .replay ? [HelpRow(keys: StreamPanel.laterWords, does: Self.futureWords)] : []),
            footer: Self.helpFooter)
    }

    /// What closes the help box, under it: a quit key quits from there too.
    package static let helpFooter = "q quits; any other key closes this"

    /// The keys of `mode` as a Markdown table (`| key | does |`), as the README and docs/ show them.
    package static func markdownTable(for mode: KeyMode) -> String {
        let rows = bindings.filter { $0.modes.contains(mode) }.map { binding in
            "| \(binding.keys.map(markdown).joined(separator: ", ")) | \(binding.words(in: mode)) |"
        }
        return (["| key | does |", "|---|---|"] + rows).joined(separator: "\n")
    }

    /// A key name in Markdown: single characters to type in code spans (`h` `j` `k` `l`).
    private static func markdown(_ name: String) -> String {
        let parts = name.split(separator: " ")
        guard parts.allSatisfy({ $0.count == 1 }) else { return name }
        // (A table's cell escapes its bar, in code too.)
        return parts.map { "`\($0 == "|" ? "\\|" : $0)`" }.joined(separator: " ")
    }
}

extension String {
    /// The text without Markdown's code marks (`` `fg` `` → `fg`), for the terminal.
    fileprivate var replacingBackticks: String { String(unicodeScalars.filter { $0 != "`" }) }
}
