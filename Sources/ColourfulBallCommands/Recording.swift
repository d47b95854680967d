import BallModel
import BallReplay
import BallStreams
import TextFormats

/// A session recorded to a replay file, as `play --record` and `learn --record` keep one: the
/// file is made before the terminal is taken (nothing existing is touched: it takes the file's
/// place at its first event), the recorder binds to the session when it starts, and at the end
/// the file is committed and what was kept is said back at the shell.
final class Recording {
    /// The name as given.
    let name: FileName
    /// The file written.
    let output: OutputFile
    /// The recorder, once the session has started.
    private(set) var recorder: ReplayRecorder?

    /// A recording to `record` (`force`: an existing file is overwritten).
    init(record: String, force: Bool) throws {
        name = FileName(argument: record)
        output = try OutputFile(name: name, overwrite: force, commitAfterLines: 2)
    }

    deinit { output.close() }

    /// Binds the recorder to `session` and its `observations`; times are the session's,
    /// `started` the wall clock's time in ISO 8601. When a write fails, the ball plays on and
    /// `showNotice` says the recording stopped (why: at the end).
    func start(
        session: BallSession, observations: StreamRecorder, started: String,
        showNotice: @escaping (String?) -> Void
    ) throws {
        let started = try ReplayRecorder(
            session: session, observations: observations.observations, writer: output,
            program: ColourfulBall.version, started: started)
        started.failed = { [unowned started] in
            showNotice("recording stopped after \(started.eventsWritten) events")
        }
        recorder = started
    }

    /// Commits the file (a session that ended before its first event still leaves its
    /// recording) and says, back at the shell, what was kept and the command that plays it.
    /// Returns the sentences that say what went wrong, if anything did.
    func finish() -> [String] {
        var sentences: [String] = []
        let shown = name.shown
        if let failure = recorder?.failure {
            sentences.append(
                "The recording to \(shown) stopped early, after \(recorder?.eventsWritten ?? 0) events: \(String(describing: failure).withoutFinalStop)."
            )
        }
        do {
            try output.commit()
            if let recorder, recorder.failure == nil, !name.isDash {
                // A name that starts with - as ./-…, so that it is not read as an option.
                let word = (shown.hasPrefix("-") ? "./" + shown : shown).quotedForShell
                DescriptorOutput.standardError.write(
                    "Recorded \(recorder.intentsWritten) intents to \(shown); colourful-ball replay \(word) plays them back.\n"
                )
            }
        } catch { sentences.append(String(describing: error)) }
        return sentences
    }
}
