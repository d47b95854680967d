import BallModel
import BallReplay
import BallTestSupport
import Platform
import TerminalIO

// MARK: - Measuring

/// Keeps a value alive so the optimiser cannot drop the work that made it.
@inline(never)
func blackHole<T>(_ value: T) { withExtendedLifetime(value) {} }

/// Seconds taken by `body`.
func seconds(_ body: () throws -> Void) rethrows -> Double {
    try ContinuousClock().measure(body).seconds
}

/// The best of `rounds` timings of `body`, in seconds (less noise on a busy machine).
func best(of rounds: Int, _ body: () -> Void) -> Double {
    (0..<rounds).map { _ in seconds(body) }.min()!
}

func percentile(_ values: [Double], _ fraction: Double) -> Double {
    let sorted = values.sorted()
    let index = min(sorted.count - 1, max(0, Int((Double(sorted.count - 1) * fraction).rounded())))
    return sorted[index]
}

func format(_ value: Double, decimals: Int) -> String {
    var scaled = (value * pow(10, Double(decimals))).rounded()
    let negative = scaled < 0
    scaled = abs(scaled)
    let whole = Int(scaled / pow(10, Double(decimals)))
    var text = "\(whole)"
    if decimals > 0 {
        let fraction = Int(scaled) % Int(pow(10, Double(decimals)))
        let digits = String(fraction)
        text += "." + String(repeating: "0", count: decimals - digits.count) + digits
    }
    return negative ? "-" + text : text
}

/// Groups digits in threes: 1,234,567.
func grouped(_ value: Double) -> String {
    let digits = String(Int(value.rounded()))
    var result = ""
    for (index, character) in digits.reversed().enumerated() {
        if index > 0, index % 3 == 0 { result.append(",") }
        result.append(character)
    }
    return String(result.reversed())
}

// MARK: - Processes

/// A field from /proc/PID/status, in its own unit (kB for memory, a count for switches).
func processStatus(_ pid: pid_t, _ field: String) -> Int? {
    guard let text = readFile("/proc/\(pid)/status") else { return nil }
    for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
        let value = line.dropFirst(field.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first
        return value.flatMap { Int($0) }
    }
    return nil
}

/// Nanoseconds a process has spent on a CPU (the first field of /proc/PID/schedstat).
func cpuNanoseconds(_ pid: pid_t) -> Int? {
    readFile("/proc/\(pid)/schedstat")?.split(separator: " ").first.flatMap { Int($0) }
}

/// This machine's CPU time so far, in clock ticks summed over all CPUs (the first line of
/// /proc/stat): all of it, and the host's steal, time a virtual CPU was ready to run but the
/// host ran something else. `nil` where /proc/stat has no steal field.
func machineCPUTicks() -> (total: Int, steal: Int)? {
    guard let line = readFile("/proc/stat")?.split(separator: "\n").first, line.hasPrefix("cpu ") else { return nil }
    let fields = line.split(separator: " ").dropFirst().compactMap { Int($0) }
    guard fields.count >= 8 else { return nil }
    // user nice system idle iowait irq softirq steal [guest guest_nice, already in user and nice]
    return (fields[0..<8].reduce(0, +), fields[7])
}

func readFile(_ path: String) -> String? {
    guard let file = fopen(path, "r") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = fread(&buffer, 1, buffer.count, file)
        if count <= 0 { break }
        bytes.append(contentsOf: buffer[0..<count])
    }
    return String(decoding: bytes, as: UTF8.self)
}

/// Runs a command with stdout to /dev/null; its wall time, peak RSS (kB) and exit status.
///
/// The peak is the child's own VmHWM, read from /proc every few milliseconds while it runs
/// (not `wait4`'s ru_maxrss: after `posix_spawn` that counts the parent's memory too, since the
/// child shares it until `exec`).
func runMeasured(_ arguments: [String]) -> (seconds: Double, peakKilobytes: Int, status: Int32) {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    let argv = arguments.map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    let start = ContinuousClock.now
    guard posix_spawn(&pid, arguments[0], &actions, nil, argv, environ) == 0 else { return (0, 0, -1) }
    var status: Int32 = 0
    var peak = 0
    while waitpid(pid, &status, WNOHANG) == 0 {
        peak = max(peak, processStatus(pid, "VmHWM") ?? 0)
        usleep(2000)
    }
    return (start.duration(to: .now).seconds, peak, status)
}

/// The directory this benchmark runs from (the release build folder).
func buildDirectory() -> String {
    var path = [CChar](repeating: 0, count: 4096)
    let length = readlink("/proc/self/exe", &path, path.count - 1)
    let exe = String(decoding: path[0..<max(0, length)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return String(exe[..<(exe.lastIndex(of: "/") ?? exe.endIndex)])
}

/// A progress line on stderr (the results table goes to stdout).
func progress(_ text: String) {
    writeAll(Array((text + "\n").utf8), to: STDERR_FILENO)
}

// MARK: - The responder

/// A stand-in for the program that does no work: raw mode, a "q quit" line, then for each
/// read of input 300 bytes back (a one-cell drag step's worth), until `q`. What the
/// input-to-screen benchmark measures against it is the machine's floor: two wake-ups
/// through the pseudo-terminal and one write.
func respondToEachRead() -> Never {
    var modes = termios()
    tcgetattr(STDIN_FILENO, &modes)
    cfmakeraw(&modes)
    tcsetattr(STDIN_FILENO, TCSANOW, &modes)
    writeAll(Array("? keys  q quit\r\n".utf8), to: STDOUT_FILENO)
    let frame = [UInt8](repeating: UInt8(ascii: "x"), count: 300)
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = read(STDIN_FILENO, &buffer, buffer.count)
        if count <= 0 || buffer[0..<count].contains(UInt8(ascii: "q")) { exit(0) }
        writeAll(frame, to: STDOUT_FILENO)
    }
}

// MARK: - Drag steps in a pseudo-terminal

extension PseudoTerminal {
    /// Starts `command` in an 80×24 pseudo-terminal and waits for its "keys" hint, then for the
    /// rest of its first frame (the output quiet for `quiet` seconds); nil if it does not start.
    static func started80By24(
        _ command: [String], environment: [String: String], quiet: Double, ready: String = "keys"
    ) -> PseudoTerminal? {
        guard
            let terminal = try? PseudoTerminal(
                command, size: ScreenSize(columns: 80, rows: 24), environment: environment),
            terminal.readUntil(Array(ready.utf8)) != nil
        else { return nil }
        _ = terminal.readUntilQuiet(quiet: quiet)
        return terminal
    }

    /// Writes `bytes` and reads the output they cause until it has been quiet for `quiet`
    /// seconds: the seconds from the write to its last byte (`nil` if nothing came).
    func timedAnswer(to bytes: [UInt8], quiet: Double) -> Double? {
        let sent = ContinuousClock.now
        write(bytes)
        let (output, last) = readUntilQuiet(quiet: quiet)
        return output.isEmpty ? nil : sent.duration(to: last).seconds
    }
}

/// A program in its own 80×24 pseudo-terminal that the input-to-screen benchmark drags the
/// ball of, one SGR mouse report at a time, timing each from the write to the last byte drawn.
final class DragTarget {
    /// Seconds from writing each drag report to the last byte of the output it caused.
    private(set) var latencies: [Double] = []
    /// CPU time per drag step in µs (user and system), once `finish()` has run.
    private(set) var cpuPerStep: Double?
    /// The program's peak RSS in kB, once `finish()` has run.
    private(set) var peakKilobytes = 0
    private let terminal: PseudoTerminal
    private let cpuBefore: Int?
    /// The row (1-based) it presses on and drags along.
    private let row: Int

    /// Starts `command`, waits for its "keys" hint (the status line's last word with the panel
    /// open, whose "lanes hide 10 rows" leaves no room for "q quit") and first frame, types
    /// `keys` (`T`: the streams' time view), and presses the mouse button on the ball (the centre
    /// of 80×24, on `row`, 1-based: where the ball is drawn, above a panel that covers the middle);
    /// `nil` if it does not start. `ready`: the words it waits for instead of "keys" (a long
    /// pipe's name leaves the status line no room for them).
    init?(
        _ command: [String], keys: String = "", environment: [String: String], ready: String = "keys", row: Int = 12
    ) {
        guard
            let terminal = PseudoTerminal.started80By24(command, environment: environment, quiet: 0.05, ready: ready)
        else {
            return nil
        }
        if !keys.isEmpty {
            terminal.write(Array(keys.utf8))
            _ = terminal.readUntilQuiet(quiet: 0.05)
        }
        terminal.write(Array("\u{1B}[<0;41;\(row)M".utf8))
        _ = terminal.readUntilQuiet(quiet: 0.05)
        self.terminal = terminal
        self.row = row
        cpuBefore = cpuNanoseconds(terminal.pid)
    }

    /// Drags to `column` (1-based) on its row and waits until the output has been quiet for
    /// 10 ms: with two targets taking turns, each sleeps about 20 ms between its steps.
    func drag(toColumn column: Int) {
        if let latency = terminal.timedAnswer(to: Array("\u{1B}[<32;\(column);\(row)M".utf8), quiet: 0.01) {
            latencies.append(latency)
        }
    }

    /// Reads the CPU time and peak memory, then quits the program with `q`.
    func finish() {
        cpuPerStep = cpuNanoseconds(terminal.pid).flatMap { after in
            cpuBefore.map { Double(after - $0) / Double(max(1, latencies.count)) / 1000 }
        }
        peakKilobytes = processStatus(terminal.pid, "VmHWM") ?? 0
        terminal.write(Array("q".utf8))
        _ = terminal.waitForExit()
    }
}
