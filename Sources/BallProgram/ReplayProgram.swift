import BallModel
import BallPlayer
import BallRendering
import BallReplay

// MARK: - Replay

/// Replay mode for the run loop: reads the rest of the file between keys, plays the next
/// intent when its time comes, and does what the replay keys ask through the time-travel
/// player; before each frame it binds the screen to the player's session and puts the
/// player's rows, keys, notice and streams page into the screen model.
package final class ReplayProgram: TerminalProgram {
    package let keyMode = KeyMode.replay
    /// The player.
    package let player: TimeTravelPlayer
    package let binding: ScreenBinding
    private var stopped = false
    /// The session the binding is bound to, and the colours it shows instead of its chain's
    /// (a recorded tour's `o`), if any.
    private var bound: BallSession
    private var boundColours: ScreenColours?
    /// The player's revision the next intent was planned for.
    private var plannedRevision = -1
    /// When the status line last showed how far reading got.
    private var lastProgress: Duration?
    /// When the status line last showed the recorded time while playing: a tick later it shows it
    /// again, running (``PlaybackClock/tick``).
    private var clockShownAt: Duration?
    /// How long reading goes on between looks at the keys.
    package static let readingSlice = Duration.milliseconds(8)
    /// How often the status line shows reading's progress.
    private static let progressInterval = Duration.milliseconds(100)
    private let clock: LoopClock

    /// Watching `player` on `screen`, on the run loop's `clock`; `animated`: each move glides, as
    /// it did in the session.
    package init(player: TimeTravelPlayer, screen: FrameSink, clock: LoopClock, animated: Bool = false) {
        self.player = player
        self.clock = clock
        player.lessonLanes = TourLessonLanes.recorded(number:title:)
        bound = player.session
        binding = ScreenBinding(player.session.viewModel, to: screen, animated: animated)
        replan()
        willFlush()
    }

    package var isFinished: Bool { stopped }

    /// In a recorded tour, what `?` says in neutral words at the lesson shown: what the tour's
    /// `?` had not told by then (the answers of that lesson and the ones after).
    package var legendUntold: Set<String> {
        let lesson = player.tourLesson
        return Lesson.untoldInRecordedTour(lesson: lesson?.number, title: lesson?.title)
    }

    /// Now while the file is still being read, or a skip's tail worked out; else the next
    /// intent's time.
    package var deadline: Duration? {
        guard player.index.isComplete && player.index.isDerived else { return clock.now }
        // The chain's timer, if one comes before the next intent; the clock shown, while it runs.
        let tick = player.paused ? nil : clockShownAt.map { $0 + PlaybackClock.tick }
        return [player.playback.due, player.timerDue, tick].compactMap { $0 }.min()
    }

    /// Playback keeps its own clock (``PlaybackClock``): the session's follows the recording's.
    package func clockReached(_ now: Duration) {}

    package func deadlineReached(now: Duration) throws {
        if !player.index.isComplete {
            try readSome()
        } else if !player.index.isDerived {
            deriveSome()
        }
        if let due = player.timerDue, now >= due - .microseconds(500) {
            player.timerReached()
            binding.redrawSoon()
        }
        if let due = player.playback.due, now >= due - .microseconds(500) {
            player.playNext()
            plannedRevision = player.revision
            binding.redrawSoon()
        }
        // The recorded time shown runs between intents.
        if !player.paused, let shown = clockShownAt, now >= shown + PlaybackClock.tick - .microseconds(500) {
            binding.redrawSoon()
        }
        replan()
    }

    private func readSome() throws {
        let start = clock.now
        while clock.now - start < Self.readingSlice, try player.index.read(atMost: 1_024) {}
        if player.index.isComplete || lastProgress.map({ clock.now - $0 >= Self.progressInterval }) ?? true {
            lastProgress = clock.now
            binding.redrawSoon()
        }
    }

    /// Works out more of what a skip left to work out, for a slice of time, then lets the keys in.
    private func deriveSome() {
        let start = clock.now
        while clock.now - start < Self.readingSlice, player.index.deriveMore(atMost: 4_096) {}
        if player.index.isDerived || lastProgress.map({ clock.now - $0 >= Self.progressInterval }) ?? true {
            lastProgress = clock.now
            binding.redrawSoon()
        }
    }

    /// Plans the next intent again when the player moved, paused, resumed or changed speed, or
    /// when reading caught up with a player that was waiting for it.
    private func replan() {
        if player.revision != plannedRevision || player.playback.due == nil {
            plannedRevision = player.revision
            player.plan(from: clock.now)
        }
    }

    package func perform(_ action: KeyAction, now: Duration) {
        player.now = now
        switch action {
        case .quit: stopped = true
        case .togglePause: player.togglePause()
        case .step(let count): player.step(by: count)
        case .jumpToStart: player.jumpToStart()
        case .jumpToEnd: player.jumpToEnd()
        case .nextColourChange: player.nextColourChange()
        case .previousColourChange: player.previousColourChange()
        case .changeSpeed(let faster): player.changeSpeed(faster: faster)
        case .toggleSkip: player.toggleSkip()
        case .writeEdited: player.writeEditedLog()
        case .scrub(let cell): player.scrub(at: cell)
        case .toggleStreams: player.toggleStreams()
        case .toggleLate(let kind): player.toggleLate(kind)
        case .intent, .suspend, .showHelp, .hover, .showHint, .nextLesson, .previousLesson, .showLessons, .digit,
            .endSession, .toggleScreenThroughPublish, .toggleMapCopies, .showOperators, .confirmChoice, .chooseOperator,
            .addStage, .removeStage, .clearPipe, .changeInterval,
            .leaveTour, .toggleTimeAxis, .zoomTime:
            break
        }
        binding.redrawSoon()
        replan()
    }

    package func resized(to size: ScreenSize) {
        player.resized(to: size)
        binding.redrawSoon()
    }

    package func hungUp() { stopped = true }

    package func resumed(after duration: Duration) { player.resumed(after: duration) }

    /// Binds the screen to the player's session (a new one after any move but a step forward),
    /// its colours to what a recorded tour's Publish copy showed while `o` was on, and puts the player's view into the screen model.
    package func willFlush() {
        let colours = player.coloursThroughPublish
        if player.session !== bound || colours != boundColours {
            bound = player.session
            boundColours = colours
            if let colours { binding.bind(bound.viewModel, colours: colours) } else { binding.bind(bound.viewModel) }
        }
        guard binding.needsFlush else { return }
        player.now = clock.now
        clockShownAt = player.paused ? nil : clock.now
        player.panelAxis = binding.model.panelAxis
        let view = player.view
        binding.send(.playerChanged(view.rows, keys: view.keys))
        binding.send(.noticePosted(view.notice))
        if let panel = view.panel {
            binding.send(.panelShown(content: .page(panel), fits: panel.fits))
        } else {
            binding.send(.panelClosed)
        }
    }
}
