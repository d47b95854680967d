import BallModel
import BallPlayer
import BallTestSupport
import Platform

// MARK: - 10. Time travel in a replay

extension BenchmarkRun {
    /// The replay player on generated recordings of 10,000 and 1,000,000 intents (80×24), in an
    /// 80×26 pseudo-terminal (the timeline and the change line below the recording), every
    /// time read off the screen as a terminal shows it: the first frame, reading the whole
    /// file, End, a scrub on the timeline, steps back, a skip, peak memory and idle paused.
    func timeTravel() -> [Result] {
        var results: [Result] = []
        for events in quick ? [10_000, 300_000] : [10_000, 1_000_000] {
            let path = "/tmp/colourful-ball-bench-\(getpid())-travel-\(events).jsonl"
            writeReplay(path: path, events: events)
            defer { unlink(path) }
            results += timeTravel(path: path, intents: events + 1)
        }
        return results
    }

    private func timeTravel(path: String, intents: Int) -> [Result] {
        let large = intents > 100_000
        let label = "\(grouped(Double(intents))) intents"
        let size = ScreenSize(columns: 80, rows: 26)
        let started = ContinuousClock.now
        guard
            let terminal = try? PseudoTerminal(
                [program, "replay", path, "--paused", "--no-animation"], size: size, environment: environment)
        else { return [Result(name: "time travel", measured: "could not start", target: "", met: false)] }
        var screen = TerminalScreen(terminal: terminal, size: size)
        defer {
            if terminal.ending() == nil {
                terminal.write(Array("q".utf8))
                _ = terminal.waitForExit()
            }
        }
        guard let firstFrame = screen.waitFor({ $0.status.contains("intent 0/") }) else {
            let shown = (0..<size.rows).map { screen.row($0) }.joined(separator: "\n")
            return [Result(name: "time travel \(label)", measured: "no first frame: \(shown)", target: "", met: false)]
        }
        let first = started.duration(to: firstFrame).seconds
        guard
            let read = screen.waitFor(
                { $0.status.contains("/\(intents) ") && !$0.status.contains("reading") }, limit: 60)
        else {
            return [Result(name: "time travel \(label)", measured: "never finished reading", target: "", met: false)]
        }
        let reading = started.duration(to: read).seconds
        // End.
        let end = screen.timed(Array("\u{1B}[F".utf8)) { $0.status.contains("intent \(intents)/\(intents) ") }
        // A scrub to the timeline's 20th column (the row above the status line).
        let column = 19
        let target = Timeline.place(atColumn: column, width: size.columns, count: intents)
        let scrub = screen.timed(Array("\u{1B}[<0;\(column + 1);\(size.rows - 1)M".utf8)) {
            $0.status.contains("intent \(target)/")
        }
        // Steps back from there.
        var steps: [Double] = []
        for back in 1...20 {
            if let step = screen.timed(
                Array("\u{1B}[D".utf8), until: { $0.status.contains("intent \(target - back)/") })
            {
                steps.append(step)
            }
        }
        // A skip there: shown at once, and everything after it worked out again between keys.
        let skip = screen.timed(Array("x".utf8)) { $0.row(size.rows - 3).hasPrefix(" skip #\(target - 20):") }
        let workedOut = screen.timed([]) { !$0.status.contains("working out") && $0.status.contains("intent ") }
        let peak = Double(processStatus(terminal.pid, "VmHWM") ?? 0) / 1024
        // Idle, paused.
        _ = terminal.readUntilQuiet(quiet: 0.2)
        let seconds = quick ? 2.0 : 5.0
        let cpuBefore = cpuNanoseconds(terminal.pid) ?? 0
        let switchesBefore = contextSwitches(terminal.pid)
        usleep(UInt32(seconds * 1_000_000))
        let cpu = Double((cpuNanoseconds(terminal.pid) ?? 0) - cpuBefore) / 1e9
        let wakeUps = contextSwitches(terminal.pid) - switchesBefore
        // The streams panel open at the skip's place (`s`): 20 steps forward and 20 back, each
        // page worked out afresh from the recording (its intents sent through a scratch session,
        // their letters with them), a column an intent and then on a time axis (`T`); then closed.
        let place = target - 20
        let panelShown = { (screen: TerminalScreen) in
            (0..<size.rows).contains { screen.row($0).hasPrefix(" streams ") }
        }
        var paged: [(forward: [Double], back: [Double])] = []
        if screen.timed(Array("s".utf8), until: panelShown) != nil {
            for key in ["", "T"] {
                if !key.isEmpty {
                    _ = screen.timed(Array(key.utf8)) { screen in
                        (0..<size.rows).contains { screen.row($0).hasPrefix(" streams 100 ms") }
                    }
                }
                var (forward, back): ([Double], [Double]) = ([], [])
                for step in 1...20 {
                    if let time = screen.timed(
                        Array("\u{1B}[C".utf8), until: { $0.status.contains("intent \(place + step)/") })
                    {
                        forward.append(time)
                    }
                }
                for step in 1...20 {
                    if let time = screen.timed(
                        Array("\u{1B}[D".utf8), until: { $0.status.contains("intent \(place + 20 - step)/") })
                    {
                        back.append(time)
                    }
                }
                paged.append((forward, back))
            }
            _ = screen.timed(Array("T".utf8)) { screen in
                !(0..<size.rows).contains { screen.row($0).hasPrefix(" streams 100 ms") }
            }
            _ = screen.timed(Array("s".utf8)) { !panelShown($0) }
        }
        // A second of x held down (30 presses in one read) and then q: until the program exits.
        let held = ContinuousClock.now
        terminal.write(Array((String(repeating: "x", count: 30) + "q").utf8))
        let quit = terminal.waitForEnding(seconds: 30).map { _ in held.duration(to: .now).seconds }

        func milliseconds(_ value: Double?) -> String { value.map { "\(format($0 * 1000, decimals: 1)) ms" } ?? "none" }
        let endLimit = large ? 1.0 : 0.05
        let median = { (times: [Double]) in times.isEmpty ? nil : percentile(times, 0.5) }
        let pageRows =
            paged.isEmpty
            ? [
                Result(
                    name: "replay player, \(label): streams panel open", measured: "the panel did not open",
                    target: "—", met: false)
            ]
            : zip(["", " on a time axis (T)"], paged).map { axis, steps in
                Result(
                    name:
                        "replay player, \(label): streams panel open\(axis), a step forward / back, median (slowest of 20 each)",
                    measured:
                        "\(milliseconds(median(steps.forward))) / \(milliseconds(median(steps.back))) (\(milliseconds(steps.forward.max())) / \(milliseconds(steps.back.max())))",
                    target: "—", met: steps.forward.count + steps.back.count == 40 ? nil : false)
            }
        return [
            Result(
                name: "replay player, \(label): first frame (from starting the program)", measured: milliseconds(first),
                target: "≤ 200 ms", met: first <= 0.2),
            Result(
                name: "replay player, \(label): the whole file read and indexed (played meanwhile)",
                measured: "\(format(reading, decimals: 2)) s (\(grouped(Double(intents) / reading)) intents/s)",
                target: "—",
                met: nil),
            Result(
                name: "replay player, \(label): End, until the screen shows it", measured: milliseconds(end),
                target: large ? "≤ 1 s" : "≤ 50 ms", met: end.map { $0 <= endLimit } ?? false),
            Result(
                name: "replay player, \(label): a scrub on the timeline, until the screen shows it",
                measured: milliseconds(scrub), target: large ? "≤ 1 s" : "≤ 50 ms",
                met: scrub.map { $0 <= endLimit } ?? false),
            Result(
                name: "replay player, \(label): one step back, median / slowest of 20",
                measured:
                    "\(milliseconds(steps.isEmpty ? nil : percentile(steps, 0.5))) / \(milliseconds(steps.max()))",
                target: "≤ 5 ms", met: steps.count == 20 && steps.max()! <= 0.005),
            Result(
                name: "replay player, \(label): x (skip) about a quarter in, until the screen shows it",
                measured: milliseconds(skip), target: "≤ 100 ms", met: skip.map { $0 <= 0.1 } ?? false),
            Result(
                name:
                    "replay player, \(label): after it, all the rest worked out again (a part at a time, keys answered)",
                measured: milliseconds(workedOut), target: "—", met: nil),
            Result(
                name: "replay player, \(label): x held for a second (30 presses in one read), then q: until it exits",
                measured: milliseconds(quit), target: "≤ 100 ms", met: quit.map { $0 <= 0.1 } ?? false),
            Result(
                name: "replay player, \(label): peak RSS", measured: "\(format(peak, decimals: 1)) MB",
                target: large ? "≤ 64 MB" : "—", met: large ? peak <= 64 : nil),
            Result(
                name: "replay player, \(label): idle \(Int(seconds)) s paused, CPU time / wake-ups",
                measured: "\(format(cpu * 1000, decimals: 0)) ms / \(wakeUps)", target: "0 / 0",
                met: cpu == 0 && wakeUps == 0),
        ] + pageRows
    }

    private func contextSwitches(_ pid: pid_t) -> Int {
        (processStatus(pid, "voluntary_ctxt_switches") ?? 0) + (processStatus(pid, "nonvoluntary_ctxt_switches") ?? 0)
    }
}

/// A program's screen as a terminal shows it: its output fed to the test emulator.
struct TerminalScreen {
    let terminal: PseudoTerminal
    var emulator: TerminalEmulator

    init(terminal: PseudoTerminal, size: ScreenSize) {
        self.terminal = terminal
        emulator = TerminalEmulator(columns: size.columns, rows: size.rows)
    }

    /// The bottom row's text.
    var status: String { row(emulator.rows - 1) }

    /// The text of row `index`.
    func row(_ index: Int) -> String { String(String.UnicodeScalarView(emulator.cells[index].map(\.glyph))) }

    /// Reads output until `done` holds of the screen (or `limit` seconds pass); returns when
    /// the bytes that made it hold arrived.
    mutating func waitFor(_ done: (TerminalScreen) -> Bool, limit: Double = 10) -> ContinuousClock.Instant? {
        let deadline = ContinuousClock.now + .seconds(limit)
        while ContinuousClock.now < deadline {
            let remaining = ContinuousClock.now.duration(to: deadline).seconds
            let (bytes, last) = terminal.readUntilQuiet(quiet: 0.001, limit: max(0.001, remaining))
            emulator.receive(bytes)
            if done(self) { return last }
        }
        return nil
    }

    /// Seconds from writing `bytes` to the arrival of what made `done` hold.
    mutating func timed(_ bytes: [UInt8], until done: (TerminalScreen) -> Bool) -> Double? {
        let sent = ContinuousClock.now
        terminal.write(bytes)
        return waitFor(done).map { sent.duration(to: $0).seconds }
    }
}
