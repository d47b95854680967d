import Platform

// MARK: - Restoring the terminal, whatever happens

/// Puts the user's terminal back as it was found, on every way out: normal exit, the quit
/// keys, SIGINT, SIGTERM, SIGHUP, SIGQUIT, and crashes (SIGSEGV, SIGBUS, SIGILL — a Swift
/// trap —, SIGTRAP, SIGABRT, SIGFPE).
///
/// The signal handler uses only async-signal-safe calls: `write` of a prepared byte string
/// (mouse modes off, normal screen, cursor visible, attributes reset), `tcsetattr` with the
/// modes saved before start-up, `sigaction` to put the previous handler back, and `raise`,
/// so the process ends by the same signal and its exit status stays honest. (The default
/// action, not a previous handler: Swift's interactive backtracer would wait for keys on
/// the terminal, which a user whose program just crashed does not expect.)
enum TerminalGuard {
    /// The signals that end the program and must restore the terminal first: every signal
    /// whose default action ends the process (SIGPIPE is ignored instead: a failed write is an
    /// error the program reports; SIGKILL cannot be caught).
    static let fatalSignals: [Int32] = [
        SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE, SIGUSR1, SIGUSR2,
        SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ, SIGSYS, 30 /* SIGPWR */, 16 /* SIGSTKFLT */,
    ]

    /// Mouse reporting off (all modes, any order a program might have set), keypad back to
    /// normal, bracketed paste off: safe to send to any xterm-like terminal.
    static let modesOff =
        "\u{1B}[?1002l\u{1B}[?1003l\u{1B}[?1006l\u{1B}[?1015l\u{1B}[?1000l\u{1B}[?2004l\u{1B}[?2026l\u{1B}[?1l\u{1B}>"

    /// The scroll region back to the whole screen, the cursor kept (DECSC, DECSTBM, DECRC): for
    /// the signal handler, which cannot ask terminfo.
    static let wholeScrollRegion = "\u{1B}7\u{1B}[r\u{1B}8"

    /// Crash signals: raised by the program itself, never typed. After the terminal is closed
    /// they go back to their handlers from before ncurses (the Swift runtime's backtracer).
    static let crashSignals: Set<Int32> = [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE]

    /// Saves the terminal modes of `fd`, as the user had them, and every signal's handling as
    /// the program started: call before ncurses starts (which installs handlers of its own).
    static func saveModes(fd: Int32) {
        let storage = GuardStorage.shared
        storage.fd = fd
        storage.hasModes = tcgetattr(fd, storage.modes) == 0
        for signal in fatalSignals + [SIGTSTP, SIGWINCH] { sigaction(signal, nil, storage.original + Int(signal)) }
    }

    /// Installs the handlers; `restore` is written to the terminal (before the saved modes
    /// come back) if a signal ends the program.
    static func install(restore: String) {
        let storage = GuardStorage.shared
        let bytes = Array(restore.utf8)
        storage.restoreLength = min(bytes.count, GuardStorage.capacity)
        for index in 0..<storage.restoreLength { storage.restore[index] = bytes[index] }
        // A signal the program was started with ignored (`nohup`, a shell's `trap ''`) stays
        // ignored: it cannot end the program, so there is nothing to restore for it.
        for signal in fatalSignals where !storage.original[Int(signal)].ignoresSignal {
            var action = sigaction(handler: terminalGuardHandler)
            sigaction(signal, &action, nil)
        }
        storage.installed = 1
    }

    /// Gives every signal back its handling from before the program took the terminal (the
    /// terminal is restored by the normal path): not ncurses' handlers, which it installed over
    /// the defaults and which outlive its screen, and not the Swift runtime's fatal-signal
    /// handler for a signal that can come from outside. Once the user's terminal modes are
    /// back, the keys still arriving (a paste) can send SIGINT or SIGQUIT while the program
    /// exits; that handler would then run in the middle of `exit`'s destructors and fault.
    /// So such a signal does what it would by default (or nothing, if it was ignored), crash
    /// signals get their handler back, SIGTSTP and SIGWINCH theirs.
    static func uninstall() {
        let storage = GuardStorage.shared
        guard storage.installed == 1 else { return }
        storage.installed = 0
        for signal in fatalSignals + [SIGTSTP, SIGWINCH] {
            let original = storage.original + Int(signal)
            let ignored = original.pointee.ignoresSignal
            if crashSignals.contains(signal) || signal == SIGTSTP || signal == SIGWINCH || ignored {
                sigaction(signal, original, nil)
            } else {
                var action = sigaction(handler: defaultSignalAction)
                sigaction(signal, &action, nil)
            }
        }
    }

    /// Restores the modes saved at install (for the normal path, after ncurses' own `endwin`).
    static func restoreModes() {
        let storage = GuardStorage.shared
        if storage.hasModes { tcsetattr(storage.fd, TCSAFLUSH, storage.modes) }
    }
}

/// Fixed storage the signal handler reads: allocated once, before any handler is installed,
/// so the handler touches no Swift runtime machinery.
final class GuardStorage: @unchecked Sendable {
    static let capacity = 512
    static let shared = GuardStorage()

    var fd: Int32 = 0
    var hasModes = false
    var installed: Int32 = 0
    let modes = UnsafeMutablePointer<termios>.allocate(capacity: 1)
    let restore = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    var restoreLength = 0
    /// Each signal's handling as the program started (before ncurses), saved by `saveModes`.
    let original = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)

    private init() {
        original.initialize(repeating: sigaction(), count: 65)
    }
}

/// The handler itself: restore, then let the signal do what it would have done.
private func terminalGuardHandler(_ signal: Int32) {
    let storage = GuardStorage.shared
    TemporaryFiles.removeAll()
    _ = write(STDOUT_FILENO, storage.restore, storage.restoreLength)
    if storage.hasModes { tcsetattr(storage.fd, TCSANOW, storage.modes) }
    var action = sigaction(handler: defaultSignalAction)
    sigaction(signal, &action, nil)
    raise(signal)
}
