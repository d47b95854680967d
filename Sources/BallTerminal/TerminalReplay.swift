import BallModel
import BallPlayer
import BallRendering
import BallReplay
import TerminalIO

// MARK: - Replaying in the terminal

/// Plays a recording in the terminal with its original timing, through the time-travel player:
/// the keys are the key map's replay keys (space pauses, arrows step, Home and End, `]` and
/// `[`, `+` and `-`, `x` skips, `w` writes, the mouse scrubs the timeline; `q`, Esc or Ctrl-C
/// stop; Ctrl-Z suspends, and the time stopped does not count). The file is read while the
/// player runs: the part read can be played at once.
package final class TerminalReplay {
    private let index: ReplayIndex
    private let timing: ReplayTiming
    private let streams: Bool
    private let paused: Bool
    private let readProgress: (() -> Double?)?
    private let writeEdited: ((AnySequence<String>) throws -> String)?

    /// A replay of `index`'s recording at `timing`; `streams` opens the streams panel at the
    /// start, `paused` starts paused at intent 0. `readProgress` says how much of the file is
    /// read (0 to 1); `writeEdited` writes an edited log and returns its file's name.
    package init(
        index: ReplayIndex, timing: ReplayTiming, streams: Bool = false, paused: Bool = false,
        readProgress: (() -> Double?)? = nil, writeEdited: ((AnySequence<String>) throws -> String)? = nil
    ) {
        self.index = index
        self.timing = timing
        self.streams = streams
        self.paused = paused
        self.readProgress = readProgress
        self.writeEdited = writeEdited
    }

    /// How long reading may hold up the first frame: a small file is read whole in that time,
    /// so every size it was recorded at is known before the terminal is checked.
    static let firstReading = Duration.milliseconds(80)

    /// Plays until the user stops it (the player stays at the end, paused).
    package func run() throws {
        let clock = ContinuousClock()
        let started = clock.now
        while started.duration(to: clock.now) < Self.firstReading, try index.read(atMost: 2_048) {}
        let recorded = index.largestTerminal
        let needed = TimeTravelPlayer.neededTerminal(for: recorded)
        if let available = NcursesScreen.terminalSize(),
            available.columns < needed.columns || available.rows < needed.rows
        {
            throw TerminalError(
                description:
                    "\(index.reader.file.visibleInMessage) was recorded in a terminal of \(recorded) and this one is \(available): the player needs \(needed) (the recording and a row for its timeline), so make the window at least \(needed), or use --headless or --marbles."
            )
        }
        let screen = try NcursesScreen()
        defer { screen.close() }
        let player = TimeTravelPlayer(
            index: index, screen: screen, terminal: screen.size, timing: timing, paused: paused)
        player.readProgress = readProgress
        player.writeEdited = writeEdited
        if streams { player.perform(.toggleStreams) }
        let watch = Watch(player: player)
        try TerminalRunLoop(screen: screen, binding: player.binding).run(watch)
    }
}

/// Replay mode for the run loop: reads the rest of the file between keys, and plays the next
/// intent when its time comes.
private final class Watch: TerminalProgram {
    let keyMode = KeyMode.replay
    private let player: TimeTravelPlayer
    private let clock = ContinuousClock()
    /// When the next intent is due (nil: paused, at the end, or waiting for reading).
    private var due: ContinuousClock.Instant?
    /// The player's timing revision the due time was worked out for.
    private var dueRevision = -1
    private var stopped = false
    /// When the status line last showed how far reading got.
    private var lastProgress: ContinuousClock.Instant?
    /// How long reading goes on between looks at the keys.
    private static let readingSlice = Duration.milliseconds(8)
    /// How often the status line shows reading's progress.
    private static let progressInterval = Duration.milliseconds(100)

    init(player: TimeTravelPlayer) {
        self.player = player
        refreshDue()
    }

    var isFinished: Bool { stopped }

    /// Now while the file is still being read; else the next intent's time.
    var deadline: ContinuousClock.Instant? { player.index.isComplete ? due : clock.now }

    func deadlineReached() throws {
        if !player.index.isComplete { try readSome() }
        if let due, clock.now >= due - .microseconds(500) {
            player.playNext()
            dueRevision = player.timingRevision
            // From the time it was due, not from now: the timing does not drift.
            self.due = player.nextPause.map { due + .seconds($0) }
        }
        refreshDue()
    }

    private func readSome() throws {
        let start = clock.now
        while start.duration(to: clock.now) < Self.readingSlice, try player.index.read(atMost: 1_024) {}
        if player.index.isComplete || lastProgress.map({ $0.duration(to: clock.now) >= Self.progressInterval }) ?? true
        {
            lastProgress = clock.now
            player.indexGrew()
        }
    }

    /// Starts the wait for the next intent again when the player moved, paused, resumed or
    /// changed speed, or when reading caught up with a player that was waiting for it.
    private func refreshDue() {
        if player.timingRevision != dueRevision || due == nil {
            dueRevision = player.timingRevision
            due = player.nextPause.map { clock.now + .seconds($0) }
        }
    }

    func perform(_ action: KeyAction) {
        if action == .quit {
            stopped = true
            return
        }
        player.perform(action)
        refreshDue()
    }

    func resized(to size: ScreenSize) { player.resized(to: size) }

    func hungUp() { stopped = true }

    func resumed(after duration: Duration) { due = due.map { $0 + duration } }
}
