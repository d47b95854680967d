import BallModel
import BallProgram
import BallRendering
import BallReplay
import BallStreams
import BallTerminal
import BallTestSupport
import ColourCore
import Platform

/// A screen that counts frames and keeps none (what the pipeline costs without a terminal).
final class CountingScreen: FrameSink {
    let colourDepth = ColourDepth.direct
    var count = 0
    func present(_ frame: Frame, previous: Frame?) { count += 1 }
}

/// One row of the results table.
struct Result {
    let name: String
    let measured: String
    let target: String
    let met: Bool?
}

/// Every benchmark, in the order of docs/benchmarks.md, printed as a Markdown table.
struct BenchmarkRun {
    let quick: Bool
    let only: String?
    /// The program to measure, if not the one built beside the bench.
    var programOverride: String? = nil
    var program: String { programOverride ?? buildDirectory() + "/colourful-ball" }
    var environment: [String: String] {
        ["TERM": "xterm-256color", "LANG": "C.UTF-8", "PATH": "/usr/bin:/bin", "HOME": "/tmp"]
    }
    /// The program with the ball jumping (no glide): the rows measured before the glide came
    /// keep measuring the same.
    var jumping: [String] { [program, "--no-animation"] }

    /// The sections, in the order they run (`--only` takes a prefix of one).
    static let sectionNames = [
        "colour lookup", "pipeline", "bytes to the terminal", "input to screen", "start-up", "memory", "idle",
        "large terminal", "headless replay", "streams", "time travel", "glide", "operator slot", "three-stage pipe",
    ]

    /// Runs the sections asked for and prints the table; returns it as Markdown lines.
    @discardableResult
    func runAll() -> [String] {
        var results: [Result] = []
        let sections: [() -> [Result]] = [
            colourLookup, pipeline, bytesToTerminal, inputToScreen, startUp, memory, idle, largeTerminal,
            headlessReplay, streams, timeTravel, glide, operatorSlot, threeStagePipe,
        ]
        for (name, section) in zip(Self.sectionNames, sections) where only.map(name.hasPrefix) ?? true {
            progress("running: \(name)...")
            let rows = section()
            for row in rows { progress("  \(row.name): \(row.measured)") }
            results += rows
        }
        var table = ["| benchmark | measured | target | met |", "|---|---|---|---|"]
        for row in results {
            let met = row.met.map { $0 ? "yes" : "**no**" } ?? "—"
            table.append("| \(row.name) | \(row.measured) | \(row.target) | \(met) |")
        }
        for line in table { print(line) }
        return table
    }

    // MARK: - 1. Colour lookup

    func colourLookup() -> [Result] {
        let cells = (0..<250).flatMap { column in (0..<80).map { (column, $0) } }
        let repeats = quick ? 50 : 500
        var checksum = 0
        let cellTime = best(of: 5) {
            for _ in 0..<repeats {
                for (column, row) in cells {
                    let ball = BallColourRule.ballColour(column: column, row: row)
                    let background = BallColourRule.backgroundCandidate(forBall: ball) ?? ball
                    checksum &+= Int(ball.rawValue) &+ Int(background.rawValue)
                }
            }
        }
        let pointsTime = best(of: 5) {
            for index in 0..<(repeats * cells.count) {
                let ball = BallColourRule.ballColour(at: PointPosition(x: Double(index % 1000) * 0.37, y: 12.5))
                checksum &+= Int(ball.rawValue) &+ Int(ball.complement.rawValue)
            }
        }
        var generator = SystemRandomNumberGenerator()
        let colours = (0..<2000).map { _ in
            RGBColour(
                red: .random(in: 0...1, using: &generator), green: .random(in: 0...1, using: &generator),
                blue: .random(in: 0...1, using: &generator))
        }
        let flattenTime = best(of: 3) { for colour in colours { checksum &+= Int(flatten(colour).rawValue) } }
        blackHole(checksum)
        let perCell = cellTime / Double(repeats * cells.count) * 1e9
        let perPoint = pointsTime / Double(repeats * cells.count) * 1e9
        return [
            Result(
                name: "colour lookup, cell → ball + background", measured: "\(format(perCell, decimals: 1)) ns",
                target: "≤ 20 ns", met: perCell <= 20),
            Result(
                name: "colour lookup, any point (x, y) → ball + background",
                measured: "\(format(perPoint, decimals: 1)) ns",
                target: "≤ 20 ns", met: perPoint <= 20),
            Result(
                name: "full flatten search (48 CIEDE2000 distances)",
                measured: "\(format(flattenTime / Double(colours.count) * 1e6, decimals: 2)) µs", target: "—", met: nil),
        ]
    }

    // MARK: - 2. Pipeline

    /// Drag intents that sweep back and forth across a screen row (every one moves the ball).
    func dragIntents(on size: ScreenSize, count: Int) -> [Intent] {
        let shape = BallShape(for: size)
        let low = shape.halfWidth
        let high = size.columns - 1 - shape.halfWidth
        let row = size.centre.row
        return (0..<count).map { index in
            let span = high - low
            let phase = index % (2 * span)
            return .dragged(to: Cell(column: phase < span ? low + phase : high - (phase - span), row: row))
        }
    }

    func pipeline() -> [Result] {
        let count = quick ? 200_000 : 1_000_000
        var results: [Result] = []
        // Intent → reducer → subject → the chain (derived state), nothing drawn. The chain is
        // OpenCombine's own operators (map, removeDuplicates, scan), unspecialised on Linux: about
        // 10,000 instructions an intent with no subscriber; the hand-written relay before issue
        // 23 did 2,000,000 events/s, and its target was 1,000,000.
        let size = ScreenSize(columns: 80, rows: 24)
        let intents = dragIntents(on: size, count: count)
        let derivedTime = best(of: 3) {
            let session = BallSession(screen: size)
            session.send(.pressed(at: size.centre))
            for intent in intents { session.send(intent) }
            blackHole(session.viewModel.current)
        }
        let derivedRate = Double(count) / derivedTime
        results.append(
            Result(
                name: "intent → derived state (80×24)", measured: "\(grouped(derivedRate)) events/s",
                target: "≥ 500,000 events/s", met: derivedRate >= 500_000))
        for size in [ScreenSize(columns: 80, rows: 24), ScreenSize(columns: 250, rows: 80)] {
            let frames = quick ? 50_000 : 200_000
            let intents = dragIntents(on: size, count: frames)
            let time = best(of: 3) {
                let session = BallSession(screen: size)
                let screen = CountingScreen()
                let binding = ScreenBinding(session.viewModel, to: screen)
                session.send(.pressed(at: size.centre))
                for intent in intents {
                    session.send(intent)
                    binding.flush()
                }
                blackHole(screen.count)
            }
            let rate = Double(frames) / time
            let target = size.columns == 80 ? 200_000.0 : nil
            results.append(
                Result(
                    name: "intent → frame (\(size))", measured: "\(grouped(rate)) events/s",
                    target: target.map { "≥ \(grouped($0)) events/s" } ?? "—", met: target.map { rate >= $0 }))
        }
        return results
    }

    // MARK: - 3. Bytes to the terminal

    func bytesToTerminal() -> [Result] {
        let size = ScreenSize(columns: 80, rows: 24)
        guard let measuring = MeasuringScreen(size: size) else {
            return [Result(name: "bytes to the terminal", measured: "could not start ncurses", target: "", met: false)]
        }
        let screen = measuring.screen
        let fileSize = measuring.bytesWritten
        var renderer = Renderer()
        var frame = Frame(size: size, fill: .flatWhite)
        let session = BallSession(screen: size)
        var previousFrame: Frame?
        var presentTime = 0.0
        var presents = 0
        /// Presents the session's appearance; bytes written and cells changed.
        func present() -> (bytes: Int, cells: Int) {
            let before = fileSize()
            renderer.render(session.viewModel.current, into: &frame)
            let presentStart = ContinuousClock.now
            screen.present(frame, previous: previousFrame)
            presentTime += presentStart.duration(to: .now).seconds
            presents += 1
            let changed =
                previousFrame.map { old in
                    old.size != frame.size ? frame.cells.count : zip(old.cells, frame.cells).filter { $0 != $1 }.count
                } ?? frame.cells.count
            previousFrame = frame
            return (fileSize() - before, changed)
        }
        _ = present()

        var sameColour: [(bytes: Int, cells: Int)] = []
        var backgroundChange: [(bytes: Int, cells: Int)] = []
        var ballOnly: [(bytes: Int, cells: Int)] = []
        session.send(.pressed(at: size.centre))
        for intent in dragIntents(on: size, count: 600) {
            let before = session.viewModel.current
            session.send(intent)
            let after = session.viewModel.current
            let step = present()
            if after.background != before.background {
                backgroundChange.append(step)
            } else if after.ball != before.ball {
                ballOnly.append(step)
            } else {
                sameColour.append(step)
            }
        }
        let resizeBefore = fileSize()
        screen.resize(to: ScreenSize(columns: 100, rows: 30))
        session.send(.resized(ScreenSize(columns: 100, rows: 30)))
        let resize = present().bytes + (fileSize() - resizeBefore) * 0
        // A naive program: every cell, every frame (cursor home, then each row's cells, with a
        // colour code wherever the colours change), as the asciicast writer draws a first frame.
        var naive: [Int] = []
        for intent in dragIntents(on: ScreenSize(columns: 100, rows: 30), count: 60) {
            session.send(intent)
            renderer.render(session.viewModel.current, into: &frame)
            var writer = NaiveFrameWriter()
            naive.append(writer.bytes(for: frame).utf8.count)
        }
        let median = { (values: [Int]) in percentile(values.map(Double.init), 0.5) }
        if getenv("BENCH_DEBUG") != nil {
            progress("present into a file: \(format(presentTime / Double(presents) * 1e6, decimals: 1)) µs per frame")
            progress("steps: \(sameColour.count) same, \(ballOnly.count) ball, \(backgroundChange.count) background")
            let perCellAll = (sameColour + ballOnly + backgroundChange).map {
                Double($0.bytes) / Double(max(1, $0.cells))
            }.sorted()
            progress(
                "per cell deciles: \(stride(from: 0, to: perCellAll.count, by: perCellAll.count / 10).map { format(perCellAll[$0], decimals: 1) })"
            )
        }
        let perCell = percentile(
            (sameColour + ballOnly + backgroundChange).map { Double($0.bytes) / Double(max(1, $0.cells)) }, 0.5)
        let same = median(sameColour.map(\.bytes))
        let background = median(backgroundChange.map(\.bytes))
        return [
            Result(
                name:
                    "bytes per changed cell (median over \(sameColour.count + ballOnly.count + backgroundChange.count) drag steps)",
                measured: "\(format(perCell, decimals: 2)) B", target: "≤ 5 B", met: perCell <= 5),
            Result(
                name: "one-cell drag step, same colours, 80×24 (median)", measured: "\(Int(same)) B",
                target: "≤ 400 B", met: same <= 400),
            Result(
                name: "one-cell drag step, ball colour changes (median)",
                measured: "\(Int(median(ballOnly.map(\.bytes)))) B",
                target: "—", met: nil),
            Result(
                name: "drag step that changes the background (median)", measured: "\(Int(background)) B",
                target: "≤ 1,024 B", met: background <= 1024),
            Result(name: "resize 80×24 → 100×30", measured: "\(resize) B", target: "—", met: nil),
            Result(
                name: "naive full redraw of every cell, 100×30 (median)", measured: "\(Int(median(naive))) B",
                target: "—", met: nil),
        ]
    }

    // MARK: - 4. Input to screen

    /// The pseudo-terminal's own round trip: a byte to `cat` in raw mode and back.
    func roundTripFloor(steps: Int) -> [Double] {
        guard
            let terminal = try? PseudoTerminal(
                ["/bin/sh", "-c", "stty raw -echo; echo ready; exec cat"], size: ScreenSize(columns: 80, rows: 24),
                environment: environment),
            terminal.readUntil(Array("ready".utf8)) != nil
        else { return [] }
        return (0..<steps).compactMap { _ in terminal.timedAnswer(to: [UInt8(ascii: "x")], quiet: 0.02) }
    }

    /// Runs `rounds` rounds of `steps` drag steps against each of `commands` in turn, step for
    /// step: each round starts them all afresh (the scheduler places a process once, and its
    /// placement shows in every step of that round), then sends each step to one after the
    /// other, rotating who goes first. All see the same moments of the machine, so a slow moment
    /// of the host shows in each. The targets by command, then round; `nil` if one cannot start.
    /// `row`: the row (1-based) they press the ball on and drag along.
    func interleavedDragRounds(
        _ commands: [[String]], keys: [String] = [], rounds: Int, steps: Int, ready: String = "keys", row: Int = 12
    ) -> [[DragTarget]]? {
        var targets = [[DragTarget]](repeating: [], count: commands.count)
        for _ in 0..<rounds {
            var round: [DragTarget] = []
            for (slot, command) in commands.enumerated() {
                let typed = slot < keys.count ? keys[slot] : ""
                guard let target = DragTarget(command, keys: typed, environment: environment, ready: ready, row: row)
                else {
                    return nil
                }
                round.append(target)
            }
            for index in 0..<steps {
                let phase = index % 80
                let column = phase < 40 ? 21 + phase : 61 - (phase - 40)  // Sweep 21...61 and back (1-based).
                for turn in 0..<round.count { round[(index + turn) % round.count].drag(toColumn: column) }
            }
            for (slot, target) in round.enumerated() {
                target.finish()
                targets[slot].append(target)
            }
        }
        return targets
    }

    func inputToScreen() -> [Result] {
        let rounds = quick ? 1 : 3
        let steps = quick ? 200 : 400
        let ticksBefore = machineCPUTicks()
        guard
            let targets = interleavedDragRounds(
                [jumping, [buildDirectory() + "/colourful-ball-bench", "--respond"]], rounds: rounds, steps: steps)
        else { return [Result(name: "input to screen", measured: "could not start", target: "", met: false)] }
        let (ours, responder) = (targets[0], targets[1])
        let steal = machineCPUTicks().flatMap { after in
            ticksBefore.map { Double(after.steal - $0.steal) / Double(max(1, after.total - $0.total)) * 100 }
        }
        let cat = (0..<rounds).flatMap { _ in roundTripFloor(steps: steps / 2) }
        let latencies = ours.flatMap(\.latencies)
        let floorLatencies = responder.flatMap(\.latencies)
        let median = percentile(latencies, 0.5) * 1000
        let p99 = percentile(latencies, 0.99) * 1000
        let floorP99 = percentile(floorLatencies, 0.99) * 1000
        let roundMedians = ours.map { format(percentile($0.latencies, 0.5) * 1000, decimals: 3) }
        func slow(_ values: [Double]) -> Int { values.count { $0 > 0.001 } }
        func cpu(_ targets: [DragTarget]) -> String {
            let perStep = targets.compactMap(\.cpuPerStep)
            return perStep.isEmpty
                ? "unavailable" : "\(format(perStep.reduce(0, +) / Double(perStep.count), decimals: 0)) µs"
        }
        let peak = ours.map(\.peakKilobytes).max() ?? 0
        func milliseconds(_ value: Double) -> String { "\(format(value, decimals: 3)) ms" }
        return [
            Result(
                name: "pseudo-terminal round trip alone (`cat`, raw mode), median",
                measured: milliseconds(percentile(cat, 0.5) * 1000), target: "—", met: nil),
            Result(
                name:
                    "floor: a program that only answers each report with 300 bytes, median (step for step beside ours)",
                measured: milliseconds(percentile(floorLatencies, 0.5) * 1000), target: "—", met: nil),
            Result(
                name: "floor: the same program, p99 (what the machine adds to any program's tail)",
                measured: milliseconds(floorP99), target: "—", met: nil),
            Result(
                name:
                    "input to screen, median (\(rounds) × \(steps) drag steps, 80×24, pty; rounds: \(roundMedians.joined(separator: ", ")))",
                measured: milliseconds(median), target: "≤ 0.3 ms", met: median <= 0.3),
            Result(name: "input to screen, p99", measured: milliseconds(p99), target: "≤ 1 ms", met: p99 <= 1),
            Result(
                name:
                    "steps slower than 1 ms: ours / the floor's, of \(latencies.count) each (a slow moment of the host shows in both)",
                measured: "\(slow(latencies)) / \(slow(floorLatencies))", target: "—", met: nil),
            Result(
                name:
                    "the host's steal while they ran (/proc/stat: time our virtual CPUs were ready to run while the host ran something else)",
                measured: steal.map { "\(format($0, decimals: 1)) % of CPU time" } ?? "unavailable", target: "—",
                met: nil),
            Result(
                name: "CPU time per drag step, user + system (/proc/PID/schedstat): ours / the floor's",
                measured: "\(cpu(ours)) / \(cpu(responder))", target: "—", met: nil),
            Result(
                name: "peak RSS, interactive (after \(steps) drags)",
                measured: "\(format(Double(peak) / 1024, decimals: 1)) MB",
                target: "≤ 15 MB", met: Double(peak) / 1024 <= 15),
        ]
    }

    // MARK: - 5. Start-up

    func startUp() -> [Result] {
        let times = firstFrames(arguments: [], environment: environment, last: "quit")
        // The tour, in a fresh state folder (its first lesson, with its card).
        let state = "/tmp/colourful-ball-bench-learn-\(getpid())"
        // The tour writes nothing until a lesson is done: the folder stays empty, or absent.
        defer { _ = rmdir(state) }
        var learnEnvironment = environment
        learnEnvironment["XDG_STATE_HOME"] = state
        // Its status line at 80×24 ends in `? keys` (the card says its own keys; `?` is bold).
        let learn = firstFrames(arguments: ["learn"], environment: learnEnvironment, last: "keys")
        // With the streams panel open, the status line ends in `? keys`.
        let streams = firstFrames(arguments: ["--streams"], environment: environment, last: "keys")
        /// The median in milliseconds, or nil when no run drew its frame.
        func median(_ values: [Double]) -> Double? { values.isEmpty ? nil : percentile(values, 0.5) * 1000 }
        let play = median(times)
        let tour = median(learn)
        let panel = median(streams)
        return [
            Result(
                name: "start-up to first complete frame (median of \(times.count))",
                measured: play.map { "\(format($0, decimals: 1)) ms" } ?? "no frame", target: "≤ 20 ms",
                met: play.map { $0 <= 20 } ?? false),
            Result(
                name: "colourful-ball learn: first complete frame, the first lesson's card (median of \(learn.count))",
                measured: tour.map { "\(format($0, decimals: 1)) ms" } ?? "no frame", target: "≤ 50 ms",
                met: tour.map { $0 <= 50 } ?? false),
            Result(
                name:
                    "colourful-ball --streams: first complete frame, the panel open (median of \(streams.count); a plain start: \(play.map { format($0, decimals: 1) } ?? "no frame") ms)",
                measured: panel.map { "\(format($0, decimals: 1)) ms" } ?? "no frame", target: "≤ 20 ms",
                met: panel.map { $0 <= 20 } ?? false),
        ]
    }

    /// Seconds from starting the program with `arguments` to its first complete frame (`last`,
    /// the status line's last words, drawn), a sample per start.
    func firstFrames(arguments: [String], environment: [String: String], last: String) -> [Double] {
        var times: [Double] = []
        for _ in 0..<(quick ? 10 : 30) {
            let start = ContinuousClock.now
            guard
                let terminal = try? PseudoTerminal(
                    [program] + arguments, size: ScreenSize(columns: 80, rows: 24), environment: environment),
                let done = terminal.readUntil(Array(last.utf8))
            else { continue }
            times.append(start.duration(to: done).seconds)
            terminal.write(Array("q".utf8))
            _ = terminal.waitForExit()
        }
        return times
    }

    // MARK: - Memory as a user starts it

    /// Peak memory of a plain `colourful-ball` (no arguments: as a user starts it, the ball
    /// gliding) at 80×24 after 400 drags, beside the same started, pressed, released and quit
    /// without a drag (what the drags add: the recorder keeps a column an intent, so the panel
    /// shows the past when opened); for the program measured and, when that is another
    /// binary, for the build beside the bench (`swift build -c release`: the Swift runtime in
    /// shared libraries); and the instructions from its start to its first frame, counted by
    /// `scripts/count-instructions --first-frame` under callgrind.
    func memory() -> [Result] {
        var rows: [Result] = []
        let median = { (peaks: [Double]) in peaks.isEmpty ? nil : peaks.sorted()[peaks.count / 2] }
        let peaks = (0..<3).compactMap { _ in playedPeak(program) }
        let undragged = median((0..<3).compactMap { _ in playedPeak(program, drags: 0) })
        let peak = median(peaks)
        rows.append(
            Result(
                name:
                    "peak RSS, a plain colourful-ball at 80×24 after 400 drags (VmHWM, median of \(peaks.count); without a drag: \(undragged.map { format($0, decimals: 2) } ?? "could not start") MB)",
                measured: peak.map { "\(format($0, decimals: 2)) MB" } ?? "could not start", target: "≤ 6 MB",
                met: peak.map { $0 <= 6 } ?? false))
        let beside = buildDirectory() + "/colourful-ball"
        if programOverride != nil, access(beside, X_OK) == 0 {
            let peaks = (0..<3).compactMap { _ in playedPeak(beside) }.sorted()
            rows.append(
                Result(
                    name:
                        "the same, built by `swift build -c release` (the Swift runtime in shared libraries; the bench's own build)",
                    measured: peaks.isEmpty ? "could not start" : "\(format(peaks[peaks.count / 2], decimals: 2)) MB",
                    target: "—", met: nil))
        }
        let counted = firstFrameInstructions(program)
        rows.append(
            Result(
                name: "instructions from start to the first frame, a plain colourful-ball at 80×24 (callgrind)",
                measured: counted.map { "\(format(Double($0) / 1e6, decimals: 2)) M" }
                    ?? "not counted (needs valgrind)",
                target: "≤ 12 M", met: counted.map { $0 <= 12_000_000 }))
        return rows
    }

    /// The peak memory (MB) of `binary`, started with no arguments in an 80×24 terminal,
    /// pressed, dragged `drags` times and released; nil if it did not start.
    func playedPeak(_ binary: String, drags: Int = 400) -> Double? {
        // From a cold page cache, as scripts/check-package measures: the kernel maps the pages of
        // a file it holds cached around each page touched, so a binary just built or installed
        // counts more than it touches, by how it came into the cache.
        let file = open(binary, O_RDONLY)
        if file >= 0 {
            _ = posix_fadvise(file, 0, 0, POSIX_FADV_DONTNEED)
            _ = closeDescriptor(file)
        }
        guard
            let terminal = try? PseudoTerminal(
                [binary], size: ScreenSize(columns: 80, rows: 24), environment: environment),
            terminal.readUntil(Array("quit".utf8), limit: 10) != nil
        else { return nil }
        _ = terminal.readUntilQuiet(quiet: 0.2)
        terminal.write(Array("\u{1B}[<0;41;12M".utf8))
        for step in 0..<drags {
            let column = 26 + (step * 3) % 30
            _ = terminal.timedAnswer(to: Array("\u{1B}[<32;\(column);\(10 + step % 5)M".utf8), quiet: 0.004)
        }
        terminal.write(Array("\u{1B}[<0;41;12m".utf8))
        _ = terminal.readUntilQuiet(quiet: 0.2)
        let peak = processStatus(terminal.pid, "VmHWM")
        terminal.write(Array("q".utf8))
        _ = terminal.waitForExit()
        return peak.map { Double($0) / 1024 }
    }

    /// What `scripts/count-instructions --first-frame` counts for `binary`; nil without
    /// valgrind or when it fails.
    func firstFrameInstructions(_ binary: String) -> Int? {
        guard access("scripts/count-instructions", X_OK) == 0,
            let pipe = popen("scripts/count-instructions --first-frame '\(binary)' 2>/dev/null", "r")
        else { return nil }
        var text: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&buffer, 1, buffer.count, pipe)
            if count <= 0 { break }
            text += buffer[0..<count]
        }
        guard pclose(pipe) == 0, let line = String(decoding: text, as: UTF8.self).split(separator: "\n").last,
            let number = line.split(separator: " ").last
        else { return nil }
        return Int(number)
    }

    // MARK: - 6. Idle

    func idle() -> [Result] { idle(arguments: [], label: "") }

    /// Idle CPU and wake-ups of the program started with `arguments`, after `input` (and
    /// whatever it drew, until `settle` seconds pass with nothing drawn) when given.
    func idle(
        arguments: [String], label: String, input: [UInt8] = [], settle: Double = 0.3, ready: String = "keys"
    ) -> [Result] {
        let seconds = quick ? 3.0 : 10.0
        guard
            let terminal = try? PseudoTerminal(
                [program] + arguments, size: ScreenSize(columns: 80, rows: 24), environment: environment),
            terminal.readUntil(Array(ready.utf8)) != nil  // With the panel open there is no "q quit".
        else { return [Result(name: "idle\(label)", measured: "could not start", target: "", met: false)] }
        _ = terminal.readUntilQuiet(quiet: 0.2)
        if !input.isEmpty {
            terminal.write(input)
            _ = terminal.readUntilQuiet(quiet: settle)
        }
        let cpuBefore = cpuNanoseconds(terminal.pid) ?? 0
        let switchesBefore =
            (processStatus(terminal.pid, "voluntary_ctxt_switches") ?? 0)
            + (processStatus(terminal.pid, "nonvoluntary_ctxt_switches") ?? 0)
        usleep(UInt32(seconds * 1_000_000))
        let cpu = Double((cpuNanoseconds(terminal.pid) ?? 0) - cpuBefore) / 1e9
        let wakeUps =
            (processStatus(terminal.pid, "voluntary_ctxt_switches") ?? 0)
            + (processStatus(terminal.pid, "nonvoluntary_ctxt_switches") ?? 0) - switchesBefore
        terminal.write(Array("q".utf8))
        _ = terminal.waitForExit()
        return [
            Result(
                name: "idle \(Int(seconds)) s\(label): CPU time", measured: "\(format(cpu * 1000, decimals: 0)) ms",
                target: "0", met: cpu == 0),
            Result(
                name: "idle \(Int(seconds)) s\(label): wake-ups", measured: "\(wakeUps)", target: "0", met: wakeUps == 0
            ),
        ]
    }

    // MARK: - Memory on a large terminal

    /// Peak memory of the program in a 1000×300 terminal after drags across it: ncurses' own
    /// screens are kept at the terminfo size, so the cost is the frames and what they draw.
    func largeTerminal() -> [Result] {
        let size = ScreenSize(columns: 1000, rows: 300)
        guard
            let terminal = try? PseudoTerminal(jumping, size: size, environment: environment),
            terminal.readUntil(Array("quit".utf8), limit: 10) != nil
        else { return [Result(name: "large terminal", measured: "could not start", target: "", met: false)] }
        _ = terminal.readUntilQuiet(quiet: 0.2)
        terminal.write(Array("\u{1B}[<0;501;150M".utf8))
        for step in 0..<60 {
            let column = 501 + (step % 40) * 7
            let row = 150 + step % 9
            _ = terminal.timedAnswer(to: Array("\u{1B}[<32;\(column);\(row)M".utf8), quiet: 0.02)
        }
        let peak = Double(processStatus(terminal.pid, "VmHWM") ?? 0) / 1024
        terminal.write(Array("q".utf8))
        _ = terminal.waitForExit()
        return [
            Result(
                name: "peak RSS, interactive at 1000×300 (after 60 drags across it)",
                measured: "\(format(peak, decimals: 1)) MB", target: "≤ 25 MB", met: peak <= 25)
        ]
    }

    // MARK: - 7, 8. Headless replay: memory and throughput

    func headlessReplay() -> [Result] {
        streamedReplay(["--headless"], name: "headless replay", unit: "events", target: 400_000)
    }

    /// `replay FILE` with `arguments` on generated files of a tenth of `largest` and `largest`
    /// drag events (three tenths when quick): the throughput on the large one, and its peak
    /// memory beside the small one's (it must stay flat). `name` and `unit` name the rows;
    /// `target` is the least throughput.
    func streamedReplay(
        _ arguments: [String], name: String, unit: String, target: Double, largest: Int = 1_000_000,
        slot: SlotPipe = .none, step: Double = 0.001
    ) -> [Result] {
        var results: [Result] = []
        let sizes = quick ? [largest / 10, largest * 3 / 10] : [largest / 10, largest]
        var peaks: [Int] = []
        for events in sizes {
            let path = "/tmp/colourful-ball-bench-\(getpid())-\(events).jsonl"
            writeReplay(path: path, events: events, slot: slot, step: step)
            defer { unlink(path) }
            let run = runMeasured([program, "replay", path] + arguments)
            peaks.append(run.peakKilobytes)
            guard events == sizes[1] else { continue }
            let rate = Double(events) / run.seconds
            results.append(
                Result(
                    name: "\(name) throughput (\(grouped(Double(events))) \(unit))",
                    measured: "\(grouped(rate)) \(unit)/s", target: "≥ \(grouped(target)) \(unit)/s",
                    met: rate >= target && run.status == 0))
        }
        results.append(
            Result(
                name:
                    "peak RSS, \(name) of \(grouped(Double(sizes[1]))) \(unit) (\(grouped(Double(sizes[0]))): \(format(Double(peaks[0]) / 1024, decimals: 1)) MB)",
                measured: "\(format(Double(peaks[1]) / 1024, decimals: 1)) MB", target: "≤ 25 MB and flat",
                met: Double(peaks[1]) / 1024 <= 25 && peaks[1] <= peaks[0] + 1024))
        return results
    }

    /// A replay file of `events` drag events sweeping the screen, with a press first (and,
    /// with an operator, its choice before that). Steps are `step` apart (1 ms), but for one in a hundred,
    /// which comes 350 ms after the one before: `debounce` lets a position through there
    /// (`throttle` lets one through at once there, and the latest at the end of each window).
    /// With an operator, after one drag in fifty the mirror flips, and the button comes up and
    /// goes down again (a release and a press): what any operator of the list reads changes.
    func writeReplay(path: String, events: Int, slot: SlotPipe = .none, step: Double = 0.001) {
        guard let file = fopen(path, "w") else { return }
        defer { fclose(file) }
        let size = ScreenSize(columns: 80, rows: 24)
        fputs(ReplayFormat.headerLine(terminal: size, program: "bench", started: "2026-11-21T00:00:00Z") + "\n", file)
        if slot != .none { fputs(ReplayFormat.line(for: .operatorChosen(slot), at: 0) + "\n", file) }
        fputs(ReplayFormat.line(for: .pressed(at: size.centre), at: 0) + "\n", file)
        var generator = SystemRandomNumberGenerator()
        var time = 0.0
        for index in 0..<events {
            time += slot != .none && index % 100 == 99 ? 0.35 : step
            let cell = Cell(column: .random(in: 0..<80, using: &generator), row: .random(in: 0..<23, using: &generator))
            fputs(ReplayFormat.line(for: .dragged(to: cell), at: time) + "\n", file)
            if slot != .none, index % 50 == 49 {
                fputs(ReplayFormat.line(for: .mirrorFlipped, at: time) + "\n", file)
                fputs(ReplayFormat.line(for: .released(at: cell), at: time) + "\n", file)
                fputs(ReplayFormat.line(for: .pressed(at: cell), at: time) + "\n", file)
            }
        }
    }

    // MARK: - 9. The streams panel and the marble diagram

    /// The streams: bytes per one-cell drag step with the panel open (against the same steps
    /// with it closed), idle with it open, and `replay --marbles` (drawn, in RxJS's syntax, and
    /// as SVG) on a million intents.
    func streams() -> [Result] {
        var results = streamBytes() + [streamInputToScreen(), timeViewInputToScreen()]
        results += idle(arguments: ["--streams"], label: ", streams panel open")
        results += idle(arguments: ["--streams"], label: ", streams on a time axis (T)", input: Array("T".utf8))
        // debounce waits after the moves: the time view wakes a column a span while it runs,
        // then, once it passed the position on, for nothing.
        results += idle(
            arguments: ["--streams"], label: ", time axis, after debounce's wait ended",
            input: Array("Tf4hhhh".utf8), settle: 0.8)
        results += streamedReplay(
            ["--marbles", "--width", "80"], name: "replay --marbles", unit: "intents", target: 200_000)
        results += streamedReplay(
            ["--marbles", "--syntax", "rxjs"], name: "replay --marbles --syntax rxjs", unit: "intents",
            target: 200_000)
        // On a time axis of 1 ms frames, in RxPY's syntax (a `-` a frame): drags 10 ms apart, so
        // a million intents make lanes of ten million frames each. (Drags 1 ms apart are refused
        // in RxPY's syntax at 1 ms frames: a value right after a value takes a group, three frames.)
        results += streamedReplay(
            ["--marbles", "--syntax", "rxpy", "--frame", "1ms"], name: "replay --marbles --syntax rxpy --frame 1ms",
            unit: "intents", target: 100_000, step: 0.01)
        results += streamedReplay(
            ["--marbles", "--svg", "-"], name: "replay --marbles --svg", unit: "intents", target: 200_000,
            largest: 300_000)  // One picture holds no more than some 450,000 intents (32,767 px a side).
        return results
    }

    /// Input to screen with the streams panel open, beside the same drag steps with it closed,
    /// step for step in the same run.
    func streamInputToScreen() -> Result {
        inputToScreen(
            with: ["--streams"], shown: "streams panel open", beside: "closed", word: "closed", allowance: 0.1)
    }

    /// Input to screen with the streams on a time axis (`T`), beside the same drag steps with
    /// the panel a column per intent, step for step in the same run.
    func timeViewInputToScreen() -> Result {
        let command = jumping + ["--streams"]
        guard let (events, time) = medianInputToScreen(command, command, keys: ["", "T"]) else {
            return Result(name: "input to screen, time axis", measured: "could not start", target: "", met: false)
        }
        return Result(
            name:
                "input to screen, median, streams on a time axis (T) (a column per intent, step for step in the same run: \(format(events, decimals: 3)) ms)",
            measured: "\(format(time, decimals: 3)) ms", target: "≤ per intent + 0.05 ms", met: time <= events + 0.05)
    }

    /// The row for input to screen with `arguments` (`shown` in words), beside the same drag
    /// steps without them (`beside` in words, `word` in the target), whose median may be at most
    /// `allowance` ms more.
    func inputToScreen(with arguments: [String], shown: String, beside: String, word: String, allowance: Double)
        -> Result
    {
        guard let (without, with) = inputToScreenBeside(arguments) else {
            return Result(name: "input to screen, \(shown)", measured: "could not start", target: "", met: false)
        }
        return Result(
            name:
                "input to screen, median, \(shown) (\(beside), step for step in the same run: \(format(without, decimals: 3)) ms)",
            measured: "\(format(with, decimals: 3)) ms", target: "≤ \(word) + \(allowance) ms",
            met: with <= without + allowance)
    }

    /// The median input to screen (ms) of the program as it jumps, and of it with `arguments`
    /// too, their drag rounds interleaved step for step in the same run; nil if either could not
    /// start.
    func inputToScreenBeside(_ arguments: [String]) -> (without: Double, with: Double)? {
        medianInputToScreen(jumping, jumping + arguments).map { (without: $0.first, with: $0.second) }
    }

    /// The median input to screen (ms) of two programs, `first` and `second` (their arguments),
    /// each sent `keys` before its drag (``interleavedDragRounds(_:keys:rounds:steps:ready:row:)``,
    /// whose `ready` and `row` these are), their drag rounds interleaved step for step in the same
    /// run: the full run's three rounds of 400 steps, `--quick`'s one of 200. Nil if either could
    /// not start.
    func medianInputToScreen(
        _ first: [String], _ second: [String], keys: [String] = [], ready: String = "keys", row: Int = 12
    ) -> (first: Double, second: Double)? {
        let (rounds, steps) = quick ? (1, 200) : (3, 400)
        guard
            let targets = interleavedDragRounds(
                [first, second], keys: keys, rounds: rounds, steps: steps, ready: ready, row: row)
        else { return nil }
        let medians = targets.map { percentile($0.flatMap(\.latencies), 0.5) * 1000 }
        return (medians[0], medians[1])
    }

    /// The median bytes of a one-cell drag step that keeps the colours, 80×24, with the panel
    /// open and all four late lanes subscribed, beside the same steps with it closed; and with the panel on a time axis (100 ms a
    /// column, a step each 16 ms, as a drag reports at 60 Hz), beside it a column per intent.
    func streamBytes() -> [Result] {
        var medians: [Int] = []
        for panel in [nil, PanelAxis(), PanelAxis(time: true)] {
            guard let steps = measuredDrag(panel: panel, lateLanes: true) else {
                return [Result(name: "streams bytes", measured: "could not start ncurses", target: "", met: false)]
            }
            let kept = steps.filter {
                $0.after.ball == $0.before.ball && $0.after.background == $0.before.background
                    && $0.after.position != $0.before.position
            }
            medians.append(Int(percentile(kept.map { Double($0.bytes) }, 0.5)))
        }
        return [
            Result(
                name:
                    "one-cell drag step, same colours, 80×24, streams panel open with all four late lanes (closed: \(medians[0]) B), median",
                measured: "\(medians[1]) B", target: "≤ 2.2 × closed",
                met: Double(medians[1]) <= 2.2 * Double(medians[0])),
            Result(
                name:
                    "the same on a time axis (T, 100 ms a column, a step each 16 ms; a column per intent: \(medians[1]) B), median",
                measured: "\(medians[2]) B", target: "≤ 1.3 × per intent",
                met: Double(medians[2]) <= 1.3 * Double(medians[1])),
        ]
    }
}

extension BenchmarkRun {
    // MARK: - The glide

    /// The original's motion (on by default): what a drag step (drawn at once) and a jump (it
    /// glides and its colours fade) cost, as an xterm-256color terminal receives them (the fade
    /// in the palette's nearest entries); what the user feels (input to settled); and idle
    /// after a glide.
    func glide() -> [Result] {
        let size = ScreenSize(columns: 80, rows: 24)
        guard let measuring = MeasuringScreen(size: size) else {
            return [Result(name: "glide", measured: "could not start ncurses", target: "", met: false)]
        }
        let fileSize = measuring.bytesWritten
        let session = BallSession(screen: size)
        let binding = ScreenBinding(session.viewModel, to: measuring.screen, animated: true)
        var now = Duration.zero
        binding.flush(now: now)
        /// Sends `intent` at the clock's time, then draws every frame of the glide until
        /// `until` (or its end); the bytes written.
        func step(_ intent: Intent, until: Duration?) -> Int {
            let before = fileSize()
            let centre = session.state.position.centre
            session.send(intent)
            // As play tells it: a drag step and a one-cell arrow are drawn at once, jumps glide.
            if session.state.position.centre != centre { binding.noteMove(Play.move(for: intent)) }
            binding.flush(now: now)
            while let due = binding.nextFrameDue, until.map({ due < $0 }) ?? true {
                now = due
                binding.flush(now: now)
            }
            if let until { now = until }
            return fileSize() - before
        }
        session.send(.pressed(at: size.centre))
        // A drag at 60 reports a second, each step one cell (a glide's frames would come between).
        var dragSteps: [Int] = []
        var sameColourSteps: [Int] = []
        for intent in dragIntents(on: size, count: 600) {
            let before = session.viewModel.current
            let bytes = step(intent, until: now + Glide.frameInterval)
            dragSteps.append(bytes)
            if session.viewModel.current.ball == before.ball { sameColourSteps.append(bytes) }
        }
        _ = step(.released(at: session.viewModel.current.position.centre), until: nil)
        // One move alone: a cell (same colours, drawn at once), and a click 30 cells away, its
        // whole glide (new colours: the whole screen fades).
        let oneCell = step(.arrowPressed(.right, distance: 1), until: nil)
        var jumps: [Int] = []
        for column in [10, 40, 70, 40, 10, 70] {
            jumps.append(step(.pressed(at: Cell(column: column, row: 11)), until: nil))
            _ = step(.released(at: Cell(column: column, row: 11)), until: nil)
        }
        let median = { (values: [Int]) in Int(percentile(values.map(Double.init), 0.5)) }
        return [
            Result(
                name:
                    "with the glide: one-cell drag step, same ball colour, 80×24, at 60 steps a second (median; a step is drawn at once, in one frame, as without the glide)",
                measured: "\(median(sameColourSteps)) B", target: "—", met: nil),
            Result(
                name: "with the glide: drag step, any colours, at 60 steps a second (median)",
                measured: "\(median(dragSteps)) B", target: "—", met: nil),
            Result(
                name: "with the glide: one arrow, a cell, same colours (drawn at once)", measured: "\(oneCell) B",
                target: "—", met: nil),
            Result(
                name: "with the glide: a click 30 cells away, its whole glide and fade (median of \(jumps.count))",
                measured: "\(median(jumps)) B", target: "—", met: nil),
        ]
            + settled()
            + idle(
                arguments: [], label: ", after a glide",
                input: Array("\u{1B}[<0;71;12M\u{1B}[<0;71;12m".utf8))
    }
}

/// An ncurses screen (xterm-256color) that writes into a temporary file, to count the bytes
/// frames take; the file goes and the screen closes with it.
final class MeasuringScreen {
    let screen: NcursesTerminal
    private let fd: Int32
    private var path: [CChar]

    /// A screen of `size`; nil if ncurses cannot start.
    init?(size: ScreenSize) {
        path = Array("/tmp/colourful-ball-bench-XXXXXX".utf8CString)
        fd = mkstemp(&path)
        guard fd >= 0, let screen = try? NcursesTerminal(measuringTerm: "xterm-256color", output: fd, size: size) else {
            if fd >= 0 { unlink(path) }
            return nil
        }
        self.screen = screen
    }

    /// The bytes written so far.
    func bytesWritten() -> Int {
        var status = stat()
        fstat(fd, &status)
        return Int(status.st_size)
    }

    deinit {
        screen.close()
        unlink(path)
    }
}

extension BenchmarkRun {
    // MARK: - The operator slot

    /// With `filter` in the chain's slot (`--operator filter`): a drag step's bytes and input
    /// to screen, each beside the same steps with nothing in the slot. Then each operator of the
    /// list (``SlotOperator/allCases``): idle after what its descriptor types
    /// (``SlotOperation/benchIdle``: moves, flips of the mirror, a drag), once its timer, if it
    /// has one, has come and gone; and a million-intent recording replayed headless (time
    /// virtual: a timer runs on the recording's times), drags with the mirror flipped and the
    /// button released and pressed again each fifty.
    func operatorSlot() -> [Result] {
        var results = [slotBytes(), slotInputToScreen()]
        for slot in SlotOperator.allCases.dropFirst() {
            let (keys, after, settle) = slot.operation.benchIdle
            results += idle(
                arguments: ["--operator", slot.alone.name],
                label: ", \(slot.name) in the slot\(after.isEmpty ? "" : " (\(after))")", input: Array(keys.utf8),
                settle: settle)
        }
        for slot in SlotOperator.allCases.dropFirst() {
            results += streamedReplay(
                ["--headless"], name: "headless replay, \(slot.name) in the slot", unit: "intents", target: 150_000,
                slot: slot.alone)
        }
        return results
    }

    /// The median bytes of a drag step across the 80×24 screen (colours changing where they
    /// do), with `filter` in the slot, beside the same steps with nothing in it.
    func slotBytes() -> Result {
        var medians: [Double] = []
        for slot in [SlotPipe.none, [.filter]] {
            guard let steps = measuredDrag(slot: slot) else {
                return Result(name: "operator slot bytes", measured: "could not start ncurses", target: "", met: false)
            }
            medians.append(percentile(steps.map { Double($0.bytes) }, 0.5))
        }
        return Result(
            name:
                "drag step, 80×24, filter in the slot (nothing in it: \(Int(medians[0])) B; colours change where they do), median",
            measured: "\(Int(medians[1])) B", target: "≤ 1.3 × without", met: medians[1] <= 1.3 * medians[0])
    }

    /// Input to screen with `filter` in the slot, beside the same drag steps with nothing in
    /// it, step for step in the same run.
    func slotInputToScreen() -> Result {
        inputToScreen(
            with: ["--operator", "filter"], shown: "filter in the slot", beside: "nothing in it", word: "without",
            allowance: 0.05)
    }
}
