import BallProgram
import Platform

// MARK: - Reading the terminal

/// Waits for terminal input and window-size changes without polling: `poll` blocks until
/// stdin has bytes or a signal (SIGWINCH, SIGTSTP) writes to a self-pipe, so an idle program
/// uses no CPU and never wakes up.
final class TerminalInput {
    private let fd: Int32
    private var buffer = [UInt8](repeating: 0, count: 4096)
    /// The bytes of the last read, kept so the next read reuses their storage.
    private var received: [UInt8] = []
    private var descriptors = [pollfd](repeating: pollfd(), count: 2)

    /// Starts listening for SIGWINCH (SIGTSTP is taken when the screen opens: see
    /// ``WakePipe/takeStopSignal()``).
    init(fd: Int32 = STDIN_FILENO) {
        self.fd = fd
        WakePipe.shared.install(for: SIGWINCH)
    }

    /// Blocks until something happens, or `timeout` milliseconds pass (-1: forever); nil on
    /// timeout. Reads every byte already waiting, so a burst comes back as one wake-up.
    func wait(timeout: Int32 = -1) -> TerminalWakeup? {
        while true {
            descriptors[0] = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            descriptors[1] = pollfd(fd: WakePipe.shared.readEnd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptors, 2, timeout)
            if ready < 0 {
                if errno == EINTR { continue }
                return .hangUp
            }
            if ready == 0 { return nil }
            if descriptors[1].revents & Int16(POLLIN) != 0 {
                // A stop request first: a resize that came with it is seen when the program
                // continues (the size is read again then).
                return WakePipe.shared.drain().contains(SIGTSTP) ? .suspendRequested : .resized
            }
            if descriptors[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                return readAvailable()
            }
        }
    }

    /// Reads what is waiting now; while a read fills the whole buffer, more may be waiting,
    /// so it reads on (without blocking). One read, and no extra system call, for a keypress.
    private func readAvailable() -> TerminalWakeup {
        received.removeAll(keepingCapacity: true)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return received.isEmpty ? .hangUp : .input(received) }
            received.append(contentsOf: buffer[0..<count])
            guard count == buffer.count, received.count < 1 << 20, hasMoreInput() else { return .input(received) }
        }
    }

    private func hasMoreInput() -> Bool {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) > 0 && descriptor.revents & Int16(POLLIN) != 0
    }
}

/// The self-pipe the program's signal handlers write to: each writes its signal's number,
/// one byte (async-signal-safe: one `write`), and the run loop reads them in its own time.
final class WakePipe: @unchecked Sendable {
    static let shared = WakePipe()
    let readEnd: Int32
    let writeEnd: Int32
    /// Whether this program may stop for job control: SIGTSTP was not ignored when it started.
    private(set) var canStop = false

    private init() {
        var ends: [Int32] = [-1, -1]
        _ = pipe(&ends)
        readEnd = ends[0]
        writeEnd = ends[1]
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
    }

    /// Makes `signal` write its number to the pipe.
    func install(for signal: Int32) {
        var action = sigaction(
            handler: { signal in
                var byte = UInt8(truncatingIfNeeded: signal)
                _ = write(WakePipe.shared.writeEnd, &byte, 1)
            }, flags: SA_RESTART)
        sigaction(signal, &action, nil)
    }

    /// Takes SIGTSTP before ncurses starts, unless the program was started with it ignored
    /// (then there is no job control, and Ctrl-Z does nothing). ncurses installs its own stop
    /// handler only over the default one, and with its handler it blocks and unblocks SIGTSTP
    /// around every update: two extra system calls per frame. With ours, the run loop
    /// suspends (``stop()``) where it is safe to.
    func takeStopSignal() {
        var current = sigaction()
        sigaction(SIGTSTP, nil, &current)
        canStop = !current.ignoresSignal
        if canStop { install(for: SIGTSTP) }
    }

    /// Stops the process as SIGTSTP's default action would; returns when it is continued.
    func stop() {
        guard canStop else { return }
        var original = sigaction(handler: defaultSignalAction)
        var ours = sigaction()
        sigaction(SIGTSTP, &original, &ours)
        kill(getpid(), SIGTSTP)
        sigaction(SIGTSTP, &ours, nil)
    }

    /// Reads what the handlers wrote: the signals that arrived since the last drain.
    func drain() -> Set<Int32> {
        var signals: Set<Int32> = []
        var scratch = [UInt8](repeating: 0, count: 64)
        while true {
            let count = read(readEnd, &scratch, scratch.count)
            guard count > 0 else { return signals }
            for byte in scratch[0..<count] { signals.insert(Int32(byte)) }
        }
    }
}
