import BallModel
import BallReplay
import BallStreams

// MARK: - Random recordings

/// Random recordings for property tests: presses, drags and releases, arrows, recentring,
/// resizes, operators put in the chain's slot and the mirror flipped (when asked for) and a final quit, with cells
/// always inside the terminal of the moment.
package enum RandomRecording {
    /// A recording of `count` intents made with `generator`, as a replay file's bytes; with
    /// `observations`, late subscribers subscribed and cancelled, and the panel opened and
    /// closed, between them (as the recorder writes them: a subscribe of one not subscribed, a
    /// cancel of one subscribed, several in one place at times); with `operators`, about one
    /// intent in fifteen puts an operator in the chain's slot (the same one again at times) and
    /// one in thirty flips the mirror; `spaced`: each intent and observation at least 8 ms after
    /// the one before (a marble test on frames of 1 ms tells intents apart by their frames, and
    /// RxPY's syntax needs up to seven frames for a group: a late Replay(3) subscriber's three).
    package static func bytes(
        count: Int, observations: Bool = false, operators: Bool = false, spaced: Bool = false,
        using generator: inout SeededGenerator
    ) -> [UInt8] {
        var size = ScreenSize(columns: 40 + generator.below(60), rows: 12 + generator.below(20))
        var lines = [ReplayFormat.headerLine(terminal: size, program: "test", started: "2026-11-23T00:00:00Z")]
        var time = 0.0
        var live = Set<LateSubscriber>()
        var panelOpen = false
        var pipe = SlotPipe.none
        for step in 0..<count {
            while observations, generator.below(4) == 0 {
                let gap = generator.below(50)
                time += Double(spaced ? max(8, gap) : gap) / 1000
                let observation: Observation
                if generator.below(8) == 0 {
                    panelOpen.toggle()
                    observation = panelOpen ? .panelOpened : .panelClosed
                } else {
                    let kind = LateSubscriber.allCases[generator.below(LateSubscriber.allCases.count)]
                    observation = live.contains(kind) ? .unsubscribed(kind) : .subscribed(kind)
                    if live.contains(kind) { live.remove(kind) } else { live.insert(kind) }
                }
                lines.append(ReplayFormat.line(for: observation, at: time))
            }
            // Mostly quick, as a drag's reports are; one gap in five near `debounce`'s usual 300 ms
            // (exactly it at times), and one in twenty near its longest, 1000 ms, so that a timed
            // operator in the slot, whatever its interval, both waits and lets through.
            let gap =
                switch generator.below(20) {
                case 0: 900 + generator.below(200)
                case 1...4: 250 + generator.below(150)
                default: generator.below(200)
                }
            time += Double(spaced ? max(8, gap) : gap) / 1000
            let cell = Cell(column: generator.below(size.columns), row: generator.below(size.rows))
            let intent: Intent
            if operators, generator.below(10) == 0 {
                // One in three flips the mirror, which `combineLatest` and `sample` read; the rest
                // build a pipe: a random one chosen, a stage added or the last taken out.
                intent = generator.below(3) == 0 ? .mirrorFlipped : pipe.randomChange(using: &generator)
                pipe = pipe.after(intent)
                lines.append(ReplayFormat.line(for: step == count - 1 ? .quitRequested : intent, at: time))
                continue
            }
            switch generator.below(20) {
            case 0...2: intent = .pressed(at: cell)
            case 3...10: intent = .dragged(to: cell)
            case 11...12: intent = .released(at: cell)
            case 13...16:
                intent = .arrowPressed(Direction.allCases[generator.below(4)], distance: 1 + generator.below(5))
            case 17: intent = .recentred
            default:
                size = ScreenSize(columns: 30 + generator.below(70), rows: 10 + generator.below(25))
                intent = .resized(size)
            }
            lines.append(ReplayFormat.line(for: step == count - 1 ? .quitRequested : intent, at: time))
        }
        return Array(lines.map { $0 + "\n" }.joined().utf8)
    }
}

extension RandomRecording {
    /// A recording of `count` intents made with `generator` that does not quit, and then a line
    /// the reader refuses, `bad` (say, garbage appended to a file while it was read).
    package static func bytes(count: Int, thenBadLine bad: String, using generator: inout SeededGenerator) -> [UInt8] {
        var lines = String(decoding: bytes(count: count + 1, using: &generator), as: UTF8.self)
            .split(separator: "\n").map(String.init)
        lines.removeLast()  // The quit: after it a reader reads nothing more.
        lines.append(bad)
        return Array(lines.map { $0 + "\n" }.joined().utf8)
    }
}

extension SlotInterval {
    /// One of the three, at random.
    package static func random(using generator: inout SeededGenerator) -> SlotInterval {
        allCases[generator.below(allCases.count)]
    }
}

extension SlotPipe {
    /// A random pipe of one to ``most`` stages that fit together (`none` at times), a timed one
    /// waiting a random interval; after a stage that can fail, a recovery half the time.
    package static func random(using generator: inout SeededGenerator) -> SlotPipe {
        if generator.below(12) == 0 { return .none }
        var pipe = SlotPipe.none
        for _ in 0...generator.below(most) {
            var fitting = SlotOperator.allCases.filter { pipe.accepts(.stageAdded($0)) }
            if fitting.contains(where: \.operation.recovers), generator.below(2) == 0 {
                fitting = fitting.filter(\.operation.recovers)
            }
            guard !fitting.isEmpty else { break }
            pipe = pipe.after(.stageAdded(fitting[generator.below(fitting.count)].waiting(.random(using: &generator))))
        }
        return pipe
    }

    /// A random change to this pipe that the session lets in: a random pipe chosen (the same one
    /// again at times, its timed stage waiting a random interval), a stage added that fits, or the
    /// last taken out.
    package func randomChange(using generator: inout SeededGenerator) -> Intent {
        switch generator.below(4) {
        case 0:
            let fitting = SlotOperator.allCases.filter { accepts(.stageAdded($0)) }
            if !fitting.isEmpty {
                return .stageAdded(fitting[generator.below(fitting.count)].waiting(.random(using: &generator)))
            }
        case 1 where !stages.isEmpty: return .stageRemoved
        case 2: return .operatorChosen(waiting(.random(using: &generator)))
        default: break
        }
        return .operatorChosen(.random(using: &generator))
    }
}
