import BallModel
import BallPlayer
import BallProgram
import BallRendering
import BallReplay
import TerminalIO
import TextFormats

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
    private let animated: Bool
    private let paused: Bool
    private let readProgress: (() -> Double?)?
    private let writeEdited: ((ReplayIndex) throws -> String)?

    /// A replay of `index`'s recording at `timing`; `streams` opens the streams panel at the
    /// start, `paused` starts paused at intent 0. `readProgress` says how much of the file is
    /// read (0 to 1); `writeEdited` writes the recording as edited and returns its file's name.
    package init(
        index: ReplayIndex, timing: ReplayTiming, streams: Bool = false, animated: Bool = true, paused: Bool = false,
        readProgress: (() -> Double?)? = nil, writeEdited: ((ReplayIndex) throws -> String)? = nil
    ) {
        self.index = index
        self.timing = timing
        self.streams = streams
        self.animated = animated
        self.paused = paused
        self.readProgress = readProgress
        self.writeEdited = writeEdited
    }

    /// How long reading may hold up the first frame: a small file is read whole in that time,
    /// so every size it was recorded at is known before the terminal is checked.
    static let firstReading = Duration.milliseconds(80)

    /// Plays until the user stops it (the player stays at the end, paused).
    package func run() throws {
        let clock = SystemClock()
        while clock.now < Self.firstReading, try index.read(atMost: 2_048) {}
        let recorded = index.largestTerminal
        let needed = PlayerLayout.neededTerminal(for: recorded)
        if let available = NcursesTerminal.terminalSize(),
            available.columns < needed.columns || available.rows < needed.rows
        {
            throw TerminalError(
                description:
                    "\(index.reader.file.visibleInMessage) was recorded in a terminal of \(recorded) and this one is \(available): the player needs \(needed) (its rows go over the recording where there are none to spare), so make the window at least \(needed), or use --headless or --marbles."
            )
        }
        let terminal = try NcursesTerminal()
        defer { terminal.close() }
        let player = TimeTravelPlayer(index: index, terminal: terminal.size, timing: timing, paused: paused)
        player.readProgress = readProgress
        player.writeEdited = writeEdited
        if streams { player.toggleStreams() }
        let watch = ReplayProgram(player: player, screen: terminal, clock: clock, animated: animated)
        try RunLoop(device: terminal, clock: clock, escapeWait: terminal.escapeWait).run(watch)
    }
}
