import BallModel
import BallStreams
import OpenCombine

// MARK: - Recording: a binding that writes intents down

/// Where recorded lines go (a file, in the program; an array, in tests).
package protocol LineWriter: AnyObject {
    /// Writes `line` and a newline, so that it reaches the operating system at once.
    func writeLine(_ line: String) throws
}

/// Records a session: a binding on the session's intents, and on the observations beside them
/// (late subscribers, the panel), that writes each one, with its time, as a line of a replay
/// file. The header is written at once. A quit after the session ended by `completed`
/// (`learn`'s `e`, the tour running on) is written as a `quit`, the file's last line: nothing
/// is written after it, so the reader can take it as the end.
package final class ReplayRecorder {
    /// The first write error, if any; recording stops there and the program says so at exit.
    package private(set) var failure: Error?
    /// How many events were written (the file holds them, whatever happened after).
    package private(set) var eventsWritten = 0
    /// How many of them are intents (the rest: observations).
    package private(set) var intentsWritten = 0
    /// Whether the tour's quit after `completed` was written (format version 8): the
    /// recording's last line, where the tour ended.
    package private(set) var quitAfterCompletionWritten = false
    /// Called once, when a write first fails (the recording stops there).
    package var failed: (() -> Void)?
    private var subscriptions: [AnyCancellable] = []
    private let writer: LineWriter

    /// Starts recording `session` to `writer`, and the `observations` made beside it (the
    /// streams recorder's, ``StreamRecorder/observations``), each at the session's time: the
    /// times the chain's timers ran on are the file's, so a replay runs them again exactly.
    package init(
        session: BallSession, observations: PassthroughSubject<Observation, Never>? = nil, writer: LineWriter,
        program: String, started: String
    ) throws {
        let clock = { [unowned session] in session.now.seconds }
        self.writer = writer
        try writer.writeLine(
            ReplayFormat.headerLine(terminal: session.state.position.screen, program: program, started: started))
        subscriptions.append(
            session.intents.bind { [unowned self] intent in
                if write(ReplayFormat.line(for: intent, at: clock())) { intentsWritten += 1 }
            })
        if let observations {
            subscriptions.append(
                observations.bind { [unowned self] observation in
                    write(ReplayFormat.line(for: observation, at: clock()))
                })
        }
        subscriptions.append(
            session.quitAfterCompletion.bind { [unowned self] time in
                quitAfterCompletionWritten = write(ReplayFormat.line(for: .quitRequested, at: time.seconds))
            })
    }

    /// Writes `line`; whether it was written.
    @discardableResult
    private func write(_ line: String) -> Bool {
        // (After the tour's quit, the file's end, nothing: what the program does then is no part
        // of the session.)
        guard failure == nil, !quitAfterCompletionWritten else { return false }
        do {
            try writer.writeLine(line)
            eventsWritten += 1
            return true
        } catch {
            failure = error
            failed?()
            return false
        }
    }
}
