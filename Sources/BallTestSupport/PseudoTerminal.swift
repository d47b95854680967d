import BallModel
import CPseudoTerminal
import Foundation
import Platform
import TerminalIO

// MARK: - A program in a pseudo-terminal (for tests and benchmarks)

/// Runs a program in a pseudo-terminal of a given size, as a terminal emulator would: bytes
/// written here reach the program as keyboard and mouse input; what it draws comes back.
package final class PseudoTerminal {
    /// The program's process id.
    package let pid: pid_t
    private let master: Int32

    /// Starts `arguments` (an absolute path first) in a new session on a new pseudo-terminal
    /// of `size`, with exactly `environment`.
    package init(_ arguments: [String], size: ScreenSize, environment: [String: String]) throws {
        var name = [CChar](repeating: 0, count: 128)
        master = cpt_open_pseudo_terminal(&name, name.count)
        guard master >= 0 else { throw PseudoTerminalError(description: "Cannot open a pseudo-terminal.") }
        let slavePath = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        _ = cpt_set_window_size(master, Int32(size.rows), Int32(size.columns))

        var attributes = spawnAttributesWithDefaultSignals(extraFlags: cpt_posix_spawn_setsid())
        defer { posix_spawnattr_destroy(&attributes) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // The first terminal a session leader opens becomes its controlling terminal.
        posix_spawn_file_actions_addopen(&actions, 0, slavePath, O_RDWR, 0)
        posix_spawn_file_actions_adddup2(&actions, 0, 1)
        posix_spawn_file_actions_adddup2(&actions, 0, 2)
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var child: pid_t = 0
        let status = posix_spawn(&child, arguments[0], &actions, &attributes, argv, envp)
        guard status == 0 else {
            throw PseudoTerminalError(description: "Cannot start \(arguments[0]): error \(status).")
        }
        pid = child
    }

    deinit {
        if endedWith == nil {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        close(master)
    }

    /// The terminal's line settings now, as the program left them: whether it echoes what is
    /// typed, and whether it reads whole lines (ICANON); nil when they cannot be read.
    package func lineModes() -> (echo: Bool, canonical: Bool)? {
        var settings = termios()
        guard tcgetattr(master, &settings) == 0 else { return nil }
        return (settings.c_lflag & tcflag_t(ECHO) != 0, settings.c_lflag & tcflag_t(ICANON) != 0)
    }

    /// Sends `bytes` to the program, as typed.
    package func write(_ bytes: [UInt8]) {
        writeAll(bytes, to: master)
    }

    /// Reads what the program writes until it has been quiet for `quiet` seconds (or
    /// `limit` seconds pass); returns the bytes and when the last of them arrived.
    package func readUntilQuiet(quiet: Double, limit: Double = 5) -> (
        bytes: [UInt8], lastByteAt: ContinuousClock.Instant
    ) {
        var bytes: [UInt8] = []
        var last = ContinuousClock.now
        let deadline = last + .seconds(limit)
        var buffer = [UInt8](repeating: 0, count: 65536)
        while ContinuousClock.now < deadline {
            var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            let wait = Int32(((bytes.isEmpty ? limit : quiet) * 1000).rounded(.up))
            guard poll(&descriptor, 1, wait) > 0 else {
                if bytes.isEmpty { continue }
                break
            }
            let count = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            last = ContinuousClock.now
            bytes.append(contentsOf: buffer[0..<count])
        }
        return (bytes, last)
    }

    /// Reads what the program writes until it has been quiet for `quiet` seconds (or `limit`
    /// seconds pass); returns when each read arrived (a glide's frames come apart).
    package func readTimesUntilQuiet(quiet: Double, limit: Double = 5) -> [ContinuousClock.Instant] {
        var times: [ContinuousClock.Instant] = []
        let deadline = ContinuousClock.now + .seconds(limit)
        var buffer = [UInt8](repeating: 0, count: 65536)
        while ContinuousClock.now < deadline {
            var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            let wait = Int32(((times.isEmpty ? limit : quiet) * 1000).rounded(.up))
            guard poll(&descriptor, 1, wait) > 0 else {
                if times.isEmpty { continue }
                break
            }
            let count = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            times.append(ContinuousClock.now)
        }
        return times
    }

    /// Reads until `marker` has appeared in the output (or `limit` seconds pass); returns when
    /// the chunk holding it arrived.
    package func readUntil(_ marker: [UInt8], limit: Double = 5) -> ContinuousClock.Instant? {
        var seen: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        let deadline = ContinuousClock.now + .seconds(limit)
        while ContinuousClock.now < deadline {
            var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 100) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
            guard count > 0 else { return nil }
            let now = ContinuousClock.now
            seen.append(contentsOf: buffer[0..<count])
            if seen.count >= marker.count,
                seen.indices.dropLast(marker.count - 1).contains(where: {
                    seen[$0..<($0 + marker.count)].elementsEqual(marker)
                })
            {
                return now
            }
            if seen.count > 1 << 20 { seen.removeFirst(seen.count - marker.count) }
        }
        return nil
    }

    /// The program's wait status once it has ended (`waitpid`'s form).
    private var endedWith: Int32?

    /// The program's wait status if it has ended; nil while it runs.
    package func ending() -> Int32? {
        if let endedWith { return endedWith }
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
        endedWith = status
        return status
    }

    /// Writes `bytes` as fast as the program takes them, reading (and dropping) what it draws
    /// meanwhile, until all are written, the program has ended, or it has taken nothing for
    /// `patience` seconds; whether all were written. Never blocks on a program that has
    /// stopped reading.
    package func feed(_ bytes: [UInt8], patience: Double = 10) -> Bool {
        _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
        defer { _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) & ~O_NONBLOCK) }
        var offset = 0
        var scratch = [UInt8](repeating: 0, count: 65536)
        var lastProgress = ContinuousClock.now
        while offset < bytes.count {
            guard ending() == nil, lastProgress.duration(to: .now) < .seconds(patience) else { return false }
            var descriptor = pollfd(fd: master, events: Int16(POLLIN | POLLOUT), revents: 0)
            _ = poll(&descriptor, 1, 50)
            if descriptor.revents & Int16(POLLIN) != 0 {
                _ = scratch.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
            }
            if descriptor.revents & Int16(POLLOUT) != 0 {
                let written = bytes.withUnsafeBytes {
                    writeDescriptor(master, $0.baseAddress! + offset, $0.count - offset)
                }
                if written > 0 {
                    offset += written
                    lastProgress = .now
                }
            }
        }
        return true
    }

    /// Waits up to `seconds` for the program to end, reading (and dropping) what it draws; its
    /// wait status, or nil if it still runs.
    package func waitForEnding(seconds: Double) -> Int32? {
        let deadline = ContinuousClock.now + .seconds(seconds)
        var scratch = [UInt8](repeating: 0, count: 65536)
        while ContinuousClock.now < deadline {
            if let ending = ending() { return ending }
            var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            if poll(&descriptor, 1, 20) > 0 {
                _ = scratch.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
            }
        }
        return ending()
    }

    /// Waits for the program to end; its exit status.
    package func waitForExit() -> Int32 {
        if let endedWith { return endedWith }
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        endedWith = status
        return status
    }
}

/// Why a program could not be started in a pseudo-terminal.
package struct PseudoTerminalError: Error, CustomStringConvertible {
    /// What went wrong.
    package let description: String
}

/// Spawn attributes for a helper program that must not touch the user's terminal: every signal
/// at its default and none blocked, in a session of its own, so it has no controlling terminal.
/// A test run from an interactive shell runs in a background process group; a child that
/// opened `/dev/tty` there (asciinema does) would be stopped by SIGTTOU or SIGTTIN, and the test
/// run with it. Destroy them after use.
package func spawnAttributesWithoutTerminal() -> posix_spawnattr_t {
    spawnAttributesWithDefaultSignals(extraFlags: cpt_posix_spawn_setsid())
}

/// Spawn attributes that start a program with every signal at its default and none blocked:
/// what the test runner ignores or blocks (SIGINT, SIGTSTP) must not leak into the program
/// under test. `extraFlags` are added (a new session, say). Destroy them after use.
package func spawnAttributesWithDefaultSignals(extraFlags: Int16 = 0) -> posix_spawnattr_t {
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    var allSignals = sigset_t()
    sigfillset(&allSignals)
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    posix_spawnattr_setsigdefault(&attributes, &allSignals)
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    posix_spawnattr_setflags(&attributes, extraFlags | Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
    return attributes
}

/// Whether this machine has the terminfo entry `name` (Debian keeps the common ones in
/// ncurses-base and the rest, such as `xterm-direct` and `putty`, in ncurses-term): a test
/// that needs one is skipped, visibly, where it is missing.
package func hasTerminfo(_ name: String) -> Bool {
    guard let first = name.first else { return false }
    return ["/etc/terminfo", "/lib/terminfo", "/usr/share/terminfo"].contains { folder in
        FileManager.default.fileExists(atPath: "\(folder)/\(first)/\(name)")
    }
}

/// The reason a test that needs ncurses-term's entries gives when it is skipped.
package let ncursesTermMissing = "ncurses-term's terminfo entries are missing (scripts/setup --tests installs them)"
