import BallModel
import OpenCombine

// MARK: - Recording: a binding that writes intents down

/// Where recorded lines go (a file, in the program; an array, in tests).
package protocol LineWriter: AnyObject {
    /// Writes `line` and a newline, so that it reaches the operating system at once.
    func writeLine(_ line: String) throws
}

/// Records a session: a binding on the session's intents that writes each one, with its time,
/// as a line of a replay file. The header is written at once.
package final class ReplayRecorder {
    /// The first write error, if any; recording stops there and the program says so at exit.
    package private(set) var failure: Error?
    /// How many events were written (the file holds them, whatever happened after).
    package private(set) var eventsWritten = 0
    /// Called once, when a write first fails (the recording stops there).
    package var failed: (() -> Void)?
    private var subscription: AnyCancellable?

    /// Starts recording `session` to `writer`; `clock` gives seconds since the start.
    package init(
        session: BallSession, writer: LineWriter, clock: @escaping () -> Double, program: String, started: String
    ) throws {
        try writer.writeLine(
            ReplayFormat.headerLine(terminal: session.state.position.screen, program: program, started: started))
        subscription = session.intents.bind { [weak self, writer] intent in
            guard let self, self.failure == nil else { return }
            do {
                try writer.writeLine(ReplayFormat.line(for: intent, at: clock()))
                self.eventsWritten += 1
            } catch {
                self.failure = error
                self.failed?()
            }
        }
    }
}
