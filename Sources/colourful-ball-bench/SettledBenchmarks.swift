import BallModel
import BallTestSupport
import Platform

// MARK: - Input to settled: what the user feels

extension BenchmarkRun {
    /// How long the output a step causes lasts: with the glide, a step drawn in one frame is
    /// settled when that frame is; a step that glides, a tenth of a second later.
    static let settledQuiet = 0.15

    /// What the user feels of a drag step and an arrow: from the report to the last byte it
    /// causes (the output then quiet for 150 ms), with the glide (as users run it) and with
    /// `--no-animation`, step for step in two 80×24 pseudo-terminals, taking turns. And a click
    /// 30 cells away still glides: its frames and how long they take.
    func settled() -> [Result] {
        let drags = quick ? 30 : 80
        let arrows = quick ? 8 : 24
        guard let glides = SettleTarget([program], environment: environment),
            let jumps = SettleTarget(jumping, environment: environment)
        else { return [Result(name: "input to settled", measured: "could not start", target: "", met: false)] }
        let targets = [glides, jumps]
        func inTurns(_ index: Int, _ bytes: [UInt8], into kind: SettleTarget.Kind) {
            for turn in 0..<2 { targets[(index + turn) % 2].settle(bytes, as: kind) }
        }
        for target in targets { target.settle(Array("\u{1B}[<0;41;12M".utf8), as: .ignored) }
        // From the middle (column 41, 1-based) right to 61, left to 21 and back: one cell a report.
        let sweep = Array(42...61) + Array((21...60).reversed()) + Array(22...41)
        for index in 0..<drags {
            inTurns(index, Array("\u{1B}[<32;\(sweep[index % sweep.count]);12M".utf8), into: .drag)
        }
        for target in targets { target.settle(Array("\u{1B}[<0;41;12m".utf8), as: .ignored) }
        let directions: [UInt8] = Array("CBDA".utf8)  // Right, down, left, up: round a square, twice a side.
        for index in 0..<arrows {
            inTurns(index, [0x1B, UInt8(ascii: "["), directions[(index / 2) % 4]], into: .arrow)
        }
        // Clicks 30 cells away and back (the button's release in the same report: a click).
        for (index, column) in [71, 41, 11, 41, 71, 41].enumerated() {
            inTurns(index, Array("\u{1B}[<0;\(column);12M\u{1B}[<0;\(column);12m".utf8), into: .jump)
        }
        for target in targets { target.finish() }
        func milliseconds(_ values: [Double], _ fraction: Double) -> Double { percentile(values, fraction) * 1000 }
        func shown(_ value: Double) -> String { "\(format(value, decimals: 3)) ms" }
        let dragMedian = milliseconds(glides.settled[.drag, default: []], 0.5)
        let dragTail = milliseconds(glides.settled[.drag, default: []], 0.95)
        let keyMedian = milliseconds(glides.settled[.arrow, default: []], 0.5)
        let keyTail = milliseconds(glides.settled[.arrow, default: []], 0.95)
        let plain = (
            drag: milliseconds(jumps.settled[.drag, default: []], 0.5),
            dragTail: milliseconds(jumps.settled[.drag, default: []], 0.95),
            key: milliseconds(jumps.settled[.arrow, default: []], 0.5),
            keyTail: milliseconds(jumps.settled[.arrow, default: []], 0.95)
        )
        let jumpFrames = glides.frames[.jump, default: []].sorted()
        let jumpSettled = milliseconds(glides.settled[.jump, default: []], 0.5)
        let framesMedian = jumpFrames.isEmpty ? 0 : jumpFrames[jumpFrames.count / 2]
        let dragFrames = glides.frames[.drag, default: []].max() ?? 0
        let label = "\(drags) drag steps and \(arrows) arrows, 80×24, pty; --no-animation, step for step beside it"
        return [
            Result(
                name:
                    "input to settled (the last byte a step causes: then 150 ms quiet), drag step, with the glide, median (\(label): \(shown(plain.drag)))",
                measured: shown(dragMedian), target: "≤ 0.5 ms", met: dragMedian <= 0.5),
            Result(
                name:
                    "input to settled, drag step, with the glide, p95 (--no-animation: \(shown(plain.dragTail)); frames a step drew, at most: \(dragFrames))",
                measured: shown(dragTail), target: "≤ 2 ms", met: dragTail <= 2),
            Result(
                name: "input to settled, one-cell arrow, with the glide, median (--no-animation: \(shown(plain.key)))",
                measured: shown(keyMedian), target: "≤ 0.5 ms", met: keyMedian <= 0.5),
            Result(
                name: "input to settled, one-cell arrow, with the glide, p95 (--no-animation: \(shown(plain.keyTail)))",
                measured: shown(keyTail), target: "≤ 2 ms", met: keyTail <= 2),
            Result(
                name:
                    "a click 30 cells away still glides: frames drawn, median of \(jumpFrames.count) (all: \(jumpFrames.map(String.init).joined(separator: ", "))), and input to settled",
                measured: "\(framesMedian) frames, \(shown(jumpSettled))", target: "≥ 4 frames over ~0.1 s",
                met: framesMedian >= 4 && jumpSettled >= 80 && jumpSettled <= 150),
        ]
    }
}

/// A program in its own 80×24 pseudo-terminal that is sent one step at a time, each timed from
/// its write to the last byte it causes (the output then quiet for 150 ms), its frames counted.
final class SettleTarget {
    /// What a step is, for the tables.
    enum Kind: Hashable {
        case drag, arrow, jump, ignored
    }

    /// Seconds from each step's write to its last byte, by kind.
    private(set) var settled: [Kind: [Double]] = [:]
    /// The frames each step drew (its reads, apart by more than 5 ms: a glide's come every
    /// 16.7 ms; one frame may come in more than one read, but not that far apart), by kind.
    private(set) var frames: [Kind: [Int]] = [:]
    private let terminal: PseudoTerminal

    /// Starts `command` and waits for its "keys" hint and first frame; nil if it does not start.
    init?(_ command: [String], environment: [String: String]) {
        guard let terminal = PseudoTerminal.started80By24(command, environment: environment, quiet: 0.1) else {
            return nil
        }
        self.terminal = terminal
    }

    /// Sends `bytes` and reads until the output has been quiet for 150 ms; notes the time to its
    /// last byte and its frames as `kind`.
    func settle(_ bytes: [UInt8], as kind: Kind) {
        let sent = ContinuousClock.now
        terminal.write(bytes)
        let reads = terminal.readTimesUntilQuiet(quiet: BenchmarkRun.settledQuiet)
        guard let last = reads.last, kind != .ignored else { return }
        settled[kind, default: []].append(sent.duration(to: last).seconds)
        let gaps = zip(reads, reads.dropFirst()).count { $0.duration(to: $1) > .milliseconds(5) }
        frames[kind, default: []].append(1 + gaps)
    }

    /// Quits the program with `q`.
    func finish() {
        terminal.write(Array("q".utf8))
        _ = terminal.waitForExit()
    }
}
