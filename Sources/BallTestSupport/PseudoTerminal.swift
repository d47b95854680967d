import BallModel
import CPseudoTerminal
import TerminalIO

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// MARK: - A program in a pseudo-terminal (for tests and benchmarks)

/// Runs a program in a pseudo-terminal of a given size, as a terminal emulator would: bytes
/// written here reach the program as keyboard and mouse input; what it draws comes back.
public final class PseudoTerminal {
    /// The program's process id.
    public let pid: pid_t
    private let master: Int32

    /// Starts `arguments` (an absolute path first) in a new session on a new pseudo-terminal
    /// of `size`, with exactly `environment`.
    public init(_ arguments: [String], size: ScreenSize, environment: [String: String]) throws {
        var name = [CChar](repeating: 0, count: 128)
        master = cpt_open_pseudo_terminal(&name, name.count)
        guard master >= 0 else { throw PseudoTerminalError(description: "Cannot open a pseudo-terminal.") }
        let slavePath = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        _ = cpt_set_window_size(master, Int32(size.rows), Int32(size.columns))

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, cpt_posix_spawn_setsid())
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
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        close(master)
    }

    /// Sends `bytes` to the program, as typed.
    public func write(_ bytes: [UInt8]) {
        writeAll(bytes, to: master)
    }

    /// Reads what the program writes until it has been quiet for `quiet` seconds (or
    /// `limit` seconds pass); returns the bytes and when the last of them arrived.
    public func readUntilQuiet(quiet: Double, limit: Double = 5) -> (
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

    /// Reads until `marker` has appeared in the output (or `limit` seconds pass); returns when
    /// the chunk holding it arrived.
    public func readUntil(_ marker: [UInt8], limit: Double = 5) -> ContinuousClock.Instant? {
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

    /// Waits for the program to end; its exit status.
    public func waitForExit() -> Int32 {
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        return status
    }
}

/// Why a program could not be started in a pseudo-terminal.
public struct PseudoTerminalError: Error, CustomStringConvertible {
    /// What went wrong.
    public let description: String
}
