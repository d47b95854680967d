import BallCore

// MARK: - The interactive program

/// The colourful ball in the terminal: the run loop that joins the terminal's input to the
/// session, and the session's bindings to the ncurses screen.
///
/// The loop blocks until input arrives, decodes everything that is waiting into intents,
/// sends them through the session (each one steps the state and the subject publishes), then
/// flushes the binding once: a burst of drag events becomes one frame.
public final class InteractiveProgram {
    /// Taps on the session before it starts (the recorder binds here).
    public typealias SessionHook = (BallSession) throws -> Void

    private let hook: SessionHook?

    /// A program; `hook` sees the session before the first frame.
    public init(hook: SessionHook? = nil) {
        self.hook = hook
    }

    /// Runs until the user quits; the terminal is restored on return and on every other way out.
    public func run() throws {
        let screen = try NcursesScreen()
        defer { screen.close() }
        let input = TerminalInput()
        let session = BallSession(screen: screen.size)
        try hook?(session)
        let binding = ScreenBinding(session.viewModel, to: screen)
        var decoder = InputDecoder()
        binding.flush()

        while !session.isFinished {
            let timeout: Int32 = decoder.hasPendingBytes ? 25 : -1
            guard let wakeup = input.wait(timeout: timeout) else {
                decoder.flushPendingEscape().compactMap(KeyBindings.intent(for:)).forEach(session.send)
                binding.flush()
                continue
            }
            switch wakeup {
            case .input(let bytes):
                for event in decoder.decode(bytes) {
                    if event == .character("\u{1A}") {  // Ctrl-Z: the terminal's, not the ball's.
                        screen.suspend()
                        binding.redraw()
                        continue
                    }
                    guard let intent = KeyBindings.intent(for: event) else { continue }
                    session.send(intent)
                    if session.isFinished { break }
                }
            case .suspendRequested:
                screen.suspend()
                binding.redraw()
            case .resized:
                let size = screen.size
                screen.resize(to: size)
                session.send(.resized(size))
                if !binding.needsFlush { binding.redraw() }
            case .hangUp:
                session.send(.quitRequested)
            }
            binding.flush()
        }
    }
}
