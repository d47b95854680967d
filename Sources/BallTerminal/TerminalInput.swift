import BallCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// MARK: - Reading the terminal

/// What the run loop wakes up for.
enum Wakeup {
    /// Bytes arrived (all that were waiting).
    case input([UInt8])
    /// The window changed size.
    case resized
    /// The terminal went away (end of input or a read error).
    case hangUp
}

/// Waits for terminal input and window-size changes without polling: `poll` blocks until
/// stdin has bytes or SIGWINCH writes to a self-pipe, so an idle program uses no CPU and
/// never wakes up.
final class TerminalInput {
    private let fd: Int32
    private var buffer = [UInt8](repeating: 0, count: 4096)

    /// Starts listening for SIGWINCH.
    init(fd: Int32 = STDIN_FILENO) {
        self.fd = fd
        WakePipe.shared.installResizeHandler()
    }

    /// Blocks until something happens, or `timeout` milliseconds pass (-1: forever); nil on
    /// timeout. Reads every byte already waiting, so a burst comes back as one wake-up.
    func wait(timeout: Int32 = -1) -> Wakeup? {
        while true {
            var fds = [
                pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
                pollfd(fd: WakePipe.shared.readEnd, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&fds, 2, timeout)
            if ready < 0 {
                if errno == EINTR { continue }
                return .hangUp
            }
            if ready == 0 { return nil }
            if fds[1].revents & Int16(POLLIN) != 0 {
                WakePipe.shared.drain()
                return .resized
            }
            if fds[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                return readAvailable()
            }
        }
    }

    /// Reads what is waiting now; while a read fills the whole buffer, more may be waiting,
    /// so it reads on (without blocking). One read, and no extra system call, for a keypress.
    private func readAvailable() -> Wakeup {
        var bytes: [UInt8] = []
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return bytes.isEmpty ? .hangUp : .input(bytes) }
            bytes.append(contentsOf: buffer[0..<count])
            guard count == buffer.count, bytes.count < 1 << 20, hasMoreInput() else { return .input(bytes) }
        }
    }

    private func hasMoreInput() -> Bool {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) > 0 && descriptor.revents & Int16(POLLIN) != 0
    }
}

/// The self-pipe SIGWINCH writes to (async-signal-safe: one `write`).
final class WakePipe: @unchecked Sendable {
    static let shared = WakePipe()
    let readEnd: Int32
    let writeEnd: Int32

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

    func installResizeHandler() {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in
            var byte: UInt8 = 1
            _ = write(WakePipe.shared.writeEnd, &byte, 1)
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        sigaction(SIGWINCH, &action, nil)
    }

    func drain() {
        var scratch = [UInt8](repeating: 0, count: 64)
        while read(readEnd, &scratch, scratch.count) > 0 {}
    }
}
