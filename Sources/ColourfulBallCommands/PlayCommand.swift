import ArgumentParser
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
        discussion: "Keys:\n\(KeyMap.summary(for: .play))\n\n\(KeyMap.legendSummary)"
    )

    /// An empty command, as ArgumentParser requires.
    package init() {}

    @Option(
        help: ArgumentHelp(
            "Record the session to a replay file (see `colourful-ball replay`).", valueName: "file"))
    var record: String?

    @Option(
        help: ArgumentHelp(
            "Write the session's trace to a file as it goes, as RxSwift's debug() prints it (subscribed, Event next(…), Event completed, isDisposed for each publisher).",
            valueName: "file"))
    var trace: String?

    @Flag(help: "With --record or --trace, overwrite the file if it exists.")
    var force = false

    @Flag(help: "Open the streams panel at the start: the streams as marble lanes (s opens and closes it).")
    var streams = false

    @Flag(
        name: .customLong("no-animation"),
        help:
            "Jump the ball to each new place, and switch its colours at once, instead of the original's 0.1 s glide and fade."
    )
    var noAnimation = false

    package func validate() throws {
        if force, record == nil, trace == nil {
            throw ValidationError("--force goes with --record FILE or --trace FILE.")
        }
        if record == "" { throw ValidationError("--record needs a file name: an empty name is not a file.") }
        if trace == "" { throw ValidationError("--trace needs a file name: an empty name is not a file.") }
        if let record, let trace, FileName(argument: record).shown == FileName(argument: trace).shown {
            throw ValidationError("--record and --trace need two files: both name \(FileName(argument: trace).shown).")
        }
    }

    package func run() throws {
        // Before the terminal is taken, and without touching an existing file: the recording
        // takes the file's place at its first event (see OutputFile).
        let output = try record.map {
            try OutputFile(name: FileName(argument: $0), overwrite: force, commitAfterLines: 2)
        }
        defer { output?.close() }
        let traceFile = try trace.map { try OutputFile(name: FileName(argument: $0), overwrite: force) }
        defer { traceFile?.close() }
        let traceOutput = traceFile.map { BufferedOutput($0.fileOutput) }
        var traceFailure: Error?
        var debugTrace: DebugTrace?
        var recorder: ReplayRecorder?
        let start = ContinuousClock.now
        let program = InteractiveProgram(streams: streams, animated: !noAnimation) { session, lanes, showNotice in
            if let traceOutput {
                // Kept in a buffer and written in large blocks, off the drawing.
                debugTrace = DebugTrace(session: session, streams: lanes, time: { start.duration(to: .now).seconds }) {
                    line in
                    guard traceFailure == nil else { return }
                    do { try traceOutput.line(line) } catch {
                        traceFailure = error
                        showNotice("trace stopped: \(String(describing: error).withoutFinalStop)")
                    }
                }
            }
            guard let output else { return }
            let started = try ReplayRecorder(
                session: session, observations: lanes.observations, writer: output,
                clock: { start.duration(to: .now).seconds },
                program: ColourfulBall.version, started: Self.utcNow())
            // The ball plays on; the status line says the recording stopped (why: at exit).
            started.failed = { [unowned started] in
                showNotice("recording stopped after \(started.eventsWritten) events")
            }
            recorder = started
        }
        do {
            try program.run()
        } catch let error as TerminalError {
            throw CommandError(error.description, code: 2)
        }
        debugTrace?.end()
        if traceFailure == nil, let traceOutput {
            do { try traceOutput.flush() } catch { traceFailure = error }
        }
        if let traceFailure, let trace {
            throw CommandError(
                "The trace to \(FileName(argument: trace).shown) stopped early: \(String(describing: traceFailure).withoutFinalStop)."
            )
        }
        try traceFile?.commit()
        if let failure = recorder?.failure, let record {
            throw CommandError(
                "The recording to \(FileName(argument: record).shown) stopped early, after \(recorder?.eventsWritten ?? 0) events: \(String(describing: failure).withoutFinalStop)."
            )
        }
        // A session that ended before its first event still leaves its recording.
        try output?.commit()
    }

    /// Now as ISO 8601 in UTC, such as `2026-11-21T09:40:00Z`.
    static func utcNow() -> String {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        var text = [UInt8](repeating: 0, count: 32)
        let length = strftime(&text, text.count, "%Y-%m-%dT%H:%M:%SZ", &parts)
        return String(decoding: text[0..<length], as: UTF8.self)
    }
}
