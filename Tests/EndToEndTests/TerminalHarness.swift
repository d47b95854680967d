import BallTestSupport
import Foundation
import Platform
import Testing

// MARK: - Running the real program in a real terminal (tmux)

/// The built `colourful-ball` binary, beside the test bundle.
let programPath: String = {
    if let path = ProcessInfo.processInfo.environment["COLOURFUL_BALL_BINARY"] { return path }
    let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent("colourful-ball").path
    if FileManager.default.isExecutableFile(atPath: beside) { return beside }
    return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent(".build/debug/colourful-ball").path
}()

/// Where a command's standard output goes.
enum StandardOutput {
    /// Into a file the test reads back.
    case captured
    /// Into this file (`/dev/full`, say); the test reads nothing back.
    case file(String)
    /// Nowhere: the command starts with descriptor 1 closed (`>&-`).
    case closed
}

/// Runs a command and returns its standard output, standard error and exit status.
///
/// `posix_spawn` and `waitpid`, with output in files: Foundation's `Process` can wait for
/// ever when the command leaves a daemon behind (the tmux server) holding its descriptors.
@discardableResult
func run(_ arguments: [String], environment: [String: String]? = nil, stdout: StandardOutput = .captured) throws
    -> (output: String, error: String, status: Int32)
{
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("colourful-ball-run-\(UUID())").path
    defer {
        try? FileManager.default.removeItem(atPath: scratch + ".out")
        try? FileManager.default.removeItem(atPath: scratch + ".err")
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    switch stdout {
    case .captured: posix_spawn_file_actions_addopen(&actions, 1, scratch + ".out", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    case .file(let path): posix_spawn_file_actions_addopen(&actions, 1, path, O_WRONLY, 0)
    case .closed: posix_spawn_file_actions_addclose(&actions, 1)
    }
    posix_spawn_file_actions_addopen(&actions, 2, scratch + ".err", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    let environmentList = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
    let argv = (["/usr/bin/env"] + arguments).map { strdup($0) } + [nil]
    let envp = environmentList.map { strdup($0) } + [nil]
    defer {
        argv.forEach { free($0) }
        envp.forEach { free($0) }
    }
    // The test runner's own signal settings (an ignored SIGTSTP, say) must not leak into the
    // terminal and the program under test; nor may it reach the terminal the tests were started
    // from (see spawnAttributesWithoutTerminal).
    var attributes = spawnAttributesWithoutTerminal()
    defer { posix_spawnattr_destroy(&attributes) }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, "/usr/bin/env", &actions, &attributes, argv, envp)
    guard spawned == 0 else { throw HarnessError("could not start \(arguments.first ?? ""): error \(spawned)") }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0, errno == EINTR {}
    let exitStatus = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    let output = (try? String(contentsOfFile: scratch + ".out", encoding: .utf8)) ?? ""
    let error = (try? String(contentsOfFile: scratch + ".err", encoding: .utf8)) ?? ""
    return (output, error, exitStatus)
}

/// A tmux server of its own, with one pane running the program under `sh`: the pane's
/// terminal modes are saved before and after, and the exit status written to a file.
final class TerminalSession {
    let socket: String
    let directory: URL
    private static let counter = Counter()

    final class Counter: @unchecked Sendable {
        private var value = 0
        private let lock = NSLock()
        func next() -> Int {
            lock.withLock {
                value += 1; return value
            }
        }
    }

    /// Starts `colourful-ball arguments` (or `program arguments`) in a `columns` × `rows`
    /// terminal with `TERM=term`.
    /// The program gets a clean environment (`PATH`, `HOME`, `TERM`, `LANG` and `environment`),
    /// so settings such as `NO_COLOR` in the test's own environment change nothing. Without
    /// `alternateScreen`, tmux ignores the alternate screen, as GNU screen does by default.
    /// `standardError`: a file the program's standard error goes to (`2>FILE`) instead of the
    /// terminal.
    init(
        columns: Int = 80, rows: Int = 24, term: String = "xterm-256color", arguments: [String] = [],
        environment: [String: String] = [:], interactiveShell: Bool = false, alternateScreen: Bool = true,
        program: String = programPath, standardError: String? = nil
    ) throws {
        socket = "colourful-ball-e2e-\(getpid())-\(Self.counter.next())"
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(socket)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let config = directory.appendingPathComponent("tmux.conf")
        try
            ("set -g status off\nset -g default-terminal xterm-256color\nset -g escape-time 0\n"
            + (alternateScreen ? "" : "set -g alternate-screen off\n")).write(
                to: config, atomically: true, encoding: .utf8)
        let quoted =
            ([program] + arguments).map { "'\($0)'" }.joined(separator: " ")
            + (standardError.map { " 2>'\($0)'" } ?? "")
        let dir = directory.path
        let script =
            "stty -g > \(dir)/before; env -i PATH=\"$PATH\" HOME=\"$HOME\" TERM=\(term) LANG=C.UTF-8 "
            + environment.map { "\($0.key)='\($0.value)' " }.joined() + "\(quoted); echo $? > \(dir)/status.tmp; "
            + "stty -g > \(dir)/after; mv \(dir)/status.tmp \(dir)/status; exec sleep 600"
        guard interactiveShell else {
            try tmux(["-f", config.path, "new-session", "-d", "-x", "\(columns)", "-y", "\(rows)", "sh", "-c", script])
            return
        }
        // A shell with job control (so Ctrl-Z can stop the program), typing the command itself.
        try tmux([
            "-f", config.path, "new-session", "-d", "-x", "\(columns)", "-y", "\(rows)", "bash", "--norc",
            "--noprofile", "-i",
        ])
        try tmux(["send-keys", "-l", "PS1='$ '; env -i PATH=\"$PATH\" TERM=\(term) LANG=C.UTF-8 \(quoted)\n"])
    }

    deinit {
        _ = try? tmux(["kill-server"])
        try? FileManager.default.removeItem(at: directory)
    }

    @discardableResult
    func tmux(_ arguments: [String]) throws -> String {
        let result = try run(["tmux", "-L", socket] + arguments)
        guard result.status == 0 else { throw HarnessError("tmux \(arguments.first ?? "") failed: \(result.error)") }
        return result.output
    }

    /// The screen's text.
    func screen() throws -> String { try tmux(["capture-pane", "-p", "-J"]) }

    /// The pane's terminal's line settings now (`stty -a`), as the program set them.
    func lineSettings() throws -> String {
        let tty = try tmux(["display-message", "-p", "#{pane_tty}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        return try run(["stty", "-F", tty, "-a"]).output
    }

    /// The screen with its colours, as SGR escape sequences.
    func screenWithColours() throws -> String { try tmux(["capture-pane", "-p", "-e"]) }

    /// The screen with its colours, every cell of every row (trailing blanks kept).
    func screenWithAllCells() throws -> String { try tmux(["capture-pane", "-p", "-e", "-N"]) }

    /// The pane's modes: mouse flags, alternate screen, cursor visibility.
    func modes() throws -> String {
        try tmux([
            "display-message", "-p",
            "mouse_any=#{mouse_any_flag} mouse_button=#{mouse_button_flag} mouse_sgr=#{mouse_sgr_flag} mouse_all=#{mouse_all_flag} alternate=#{alternate_on} cursor=#{cursor_flag}",
        ]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Types bytes into the terminal, as the terminal would send them to the program.
    func send(_ bytes: String) throws { try tmux(["send-keys", "-l", bytes]) }

    /// Presses named keys (`Right`, `S-Left`, `q`).
    func press(_ keys: String...) throws { try tmux(["send-keys"] + keys) }

    /// Sends an SGR mouse report: `pressed`, `dragged` or `released` at a 0-based cell.
    func mouse(_ action: String, column: Int, row: Int) throws {
        let code = action == "dragged" ? 32 : 0
        try send("\u{1B}[<\(code);\(column + 1);\(row + 1)\(action == "released" ? "m" : "M")")
    }

    /// Resizes the terminal.
    func resize(columns: Int, rows: Int) throws {
        try tmux(["resize-window", "-x", "\(columns)", "-y", "\(rows)"])
    }

    /// The program's process id (the pane's shell's child).
    func programPID() throws -> pid_t {
        let shell = try tmux(["display-message", "-p", "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        let children = try run(["pgrep", "-P", shell, "-f", "colourful-ball"]).output
        guard let pid = children.split(separator: "\n").first.flatMap({ pid_t($0) }) else {
            throw HarnessError("the program is not running")
        }
        return pid
    }

    /// Waits (up to `seconds`) until the screen satisfies `condition`; returns the screen.
    @discardableResult
    func waitForScreen(
        seconds: Double = 10, sourceLocation: SourceLocation = #_sourceLocation, _ condition: (String) -> Bool
    ) throws -> String {
        try waitFor("the screen", read: screen, seconds: seconds, sourceLocation: sourceLocation, condition)
    }

    /// Waits (up to `seconds`) until the pane's modes satisfy `condition`.
    func waitForModes(
        seconds: Double = 10, sourceLocation: SourceLocation = #_sourceLocation, _ condition: (String) -> Bool
    ) throws {
        try waitFor("the terminal's modes", read: modes, seconds: seconds, sourceLocation: sourceLocation, condition)
    }

    /// Reads `what` until it satisfies `condition` (no fixed sleeps: it polls, with a deadline).
    @discardableResult
    func waitFor(
        _ what: String, read: () throws -> String, seconds: Double = 10,
        sourceLocation: SourceLocation = #_sourceLocation, _ condition: (String) -> Bool
    ) throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        var last = ""
        while Date() < deadline {
            last = try read()
            if condition(last) { return last }
            usleep(20_000)
        }
        Issue.record("\(what) never got there; it shows:\n\(last)", sourceLocation: sourceLocation)
        throw HarnessError("timed out")
    }

    /// Waits for the program to end; returns its exit status and whether the terminal modes
    /// afterwards equal those before.
    func waitForExit(seconds: Double = 10) throws -> (status: Int, modesRestored: Bool) {
        let deadline = Date().addingTimeInterval(seconds)
        let statusFile = directory.appendingPathComponent("status")
        while Date() < deadline {
            if let text = try? String(contentsOf: statusFile, encoding: .utf8),
                let status = Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
            {
                let before = try String(contentsOf: directory.appendingPathComponent("before"), encoding: .utf8)
                let after = try String(contentsOf: directory.appendingPathComponent("after"), encoding: .utf8)
                return (status, before == after)
            }
            usleep(20_000)
        }
        throw HarnessError("the program did not exit; the screen shows:\n\((try? screen()) ?? "")")
    }
}

struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The pane's modes when nothing has changed them.
let restoredModes = "mouse_any=0 mouse_button=0 mouse_sgr=0 mouse_all=0 alternate=0 cursor=1"
