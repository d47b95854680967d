import ArgumentParser
import BallModel
import BallProgram
import BallReplay
import BallStreams
import BallTerminal
import Platform
import TerminalIO
import TextFormats

/// `colourful-ball` (or `colourful-ball play`): the interactive ball.
package struct PlayCommand: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Drag the ball with the mouse or move it with the keys (the default).",
        discussion: "Keys:\n\(KeyMap.summary(for: .play))\n\n\(KeyMap.legendSummary())"
    )

    /// An empty command, as ArgumentParser requires.
    package init() {}

    @Option(
        help: ArgumentHelp(
            "Record the session to a replay file (see `colourful-ball replay`).", valueName: "file"),
        completion: .file())
    var record: String?

    @Option(
        help: ArgumentHelp(
            "Write the session's trace to a file as it goes, as RxSwift's debug() prints it (a UTC time, then subscribed, Event next(…), Event completed or isDisposed for each publisher).",
            valueName: "file"),
        completion: .file())
    var trace: String?

    @Flag(help: "With --record or --trace, overwrite the file if it exists.")
    var force = false

    @Flag(help: "Open the streams panel at the start: the streams as marble lanes (s opens and closes it).")
    var streams = false

    @Option(
        name: .customLong("operator"),
        help: ArgumentHelp(
            "Start with this operator between the position and the ball's colour (f changes it), or a pipe of up to \(SlotPipe.most) joined by commas, each applied to the one before (filter,debounce; map,scan is the counter, map { _ in 1 } then scan(0) { $0 + $1 }); a timed one's interval after a colon, \(SlotInterval.allCases.map { "debounce:\($0.name)" }.joined(separator: ", ")) (alone it waits \(SlotInterval.usual.words)): \(SlotOperator.allCases.map { "\($0.name): \($0.words)" }.joined(separator: "; ")).",
            valueName: "names"),
        completion: .list(SlotOperator.allCases.map(\.name) + ["counter"]))
    var operatorNames: String?

    /// The pipe `--operator` names (``validate()`` refuses one that is none).
    var slot: SlotPipe {
        if let operatorNames, case .success(let pipe) = SlotPipe.parse(operatorNames) { pipe } else { .none }
    }

    @Flag(
        name: .customLong("no-animation"),
        help:
            "Jump the ball to each new place, and switch its colours at once, instead of the original's 0.1 s glide and fade."
    )
    var noAnimation = false

    package func validate() throws {
        // Said in one sentence, without the option's help (ArgumentParser's for a bad value).
        if let operatorNames, case .failure(let problem) = SlotPipe.parse(operatorNames) {
            throw ValidationError("--operator \(operatorNames): \(problem).")
        }
        if force, record == nil, trace == nil {
            throw ValidationError("--force goes with --record FILE or --trace FILE.")
        }
        if record == "" { throw ValidationError("--record needs a file name: an empty name is not a file.") }
        if trace == "" { throw ValidationError("--trace needs a file name: an empty name is not a file.") }
        if let record, let trace, FileName(argument: record).isSameFile(as: FileName(argument: trace)) {
            throw ValidationError("--record and --trace need two files: both name \(FileName(argument: trace).shown).")
        }
    }

    /// What was asked for, as the plain value that runs it.
    package var play: Play {
        Play(record: record, trace: trace, force: force, streams: streams, animated: !noAnimation, slot: slot)
    }

    package func run() throws { try play.run() }
}

/// A session of play as asked for: the one that `colourful-ball` with no arguments runs
/// without ArgumentParser's parse (``ColourfulBall/main()``), and that `play` with options runs
/// after it; CommandsTests checks that the parse of no arguments gives ``Play/init()``.
package struct Play: Equatable, Sendable {
    /// The replay file to record to, if any.
    package var record: String? = nil
    /// The file to write RxSwift's debug() trace to, if any.
    package var trace: String? = nil
    /// Whether an existing file at `record` or `trace` is overwritten.
    package var force = false
    /// Whether the streams panel is open at the start.
    package var streams = false
    /// Whether jumps glide and colours fade (the original's 0.1 s), or jump.
    package var animated = true
    /// The pipe in the chain's slot at the start (its choice is the session's first intent).
    package var slot = SlotPipe.none

    /// Plays with the defaults: no recording, no trace, the panel closed, animated.
    package init() {}

    /// Plays as asked.
    package init(
        record: String?, trace: String?, force: Bool, streams: Bool, animated: Bool, slot: SlotPipe = .none
    ) {
        (self.record, self.trace, self.force, self.streams, self.animated) = (record, trace, force, streams, animated)
        self.slot = slot
    }

    /// Runs the interactive ball until the user quits; recording and trace are committed to
    /// their files, and a failure of either is one sentence (a ``CommandError``).
    package func run() throws {
        // Before the terminal is taken, and without touching an existing file: the recording
        // takes the file's place at its first event (see OutputFile).
        let recording = try record.map { try Recording(record: $0, force: force) }
        let traceFile = try trace.map { try OutputFile(name: FileName(argument: $0), overwrite: force) }
        defer { traceFile?.close() }
        let traceOutput = traceFile.map { BufferedOutput($0.fileOutput) }
        var traceFailure: Error?
        var debugTrace: DebugTrace?
        let wallStart = Self.wallClockMilliseconds()  // The trace's times, and the recording's `started`.
        let program = InteractiveProgram(streams: streams, animated: animated, slot: slot) {
            session, lanes, showNotice in
            var writeTrace: (() -> Void)?
            if let traceOutput, let traceFile {
                // Kept in a buffer, written each time the loop has handled what woke it.
                // The first failure stops the trace, and the status line says so.
                func traceWrite(_ write: () throws -> Void) {
                    guard traceFailure == nil else { return }
                    do { try write() } catch {
                        traceFailure = error
                        showNotice("trace stopped: \(String(describing: error).withoutFinalStop)")
                    }
                }
                let trace = DebugTrace(
                    session: session, streams: lanes, origin: wallStart
                ) { line in traceWrite { try traceOutput.line(line) } }
                debugTrace = trace
                writeTrace = {
                    trace.writeKept()
                    traceWrite { try traceOutput.flush() }
                }
                // The trace takes its file's place at once, as the recording does at its first
                // event: a signal or a failed write later keeps every line written before it.
                writeTrace?()
                try? traceFile.commit()
            }
            try recording?.start(
                session: session, observations: lanes,
                started: Timestamp.iso8601Text(milliseconds: wallStart), showNotice: showNotice)
            return writeTrace
        }
        do {
            try program.run()
        } catch let error as TerminalError {
            throw CommandError(error.description, code: .noTerminal)
        }
        // Each output keeps what it wrote, whatever happened to the other; the message says
        // what happened to each.
        var sentences: [String] = []
        if let traceFile, let trace {
            debugTrace?.end()
            if traceFailure == nil, let traceOutput {
                do { try traceOutput.flush() } catch { traceFailure = error }
            }
            let shown = FileName(argument: trace).shown
            do {
                try traceFile.commit()
                if let traceFailure {
                    sentences.append(
                        "The trace to \(shown) stopped early (it keeps the lines written before): \(String(describing: traceFailure).withoutFinalStop)."
                    )
                }
            } catch {
                sentences.append(String(describing: error))
            }
        }
        if let recording { sentences += recording.finish() }
        if !sentences.isEmpty { throw CommandError(sentences.joined(separator: " ")) }
    }

    /// Milliseconds since 1970-01-01 00:00:00 UTC, by the system's clock.
    static func wallClockMilliseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1_000 + Int64(now.tv_nsec) / 1_000_000
    }
}
