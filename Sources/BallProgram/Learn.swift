import BallModel
import BallRendering
import BallStreams
import OpenCombine

// MARK: - Learn: the article as a tour

/// `colourful-ball learn`: play, with a lesson's card over the top of the ball's area. After
/// every key or move the lesson's check reads the streams; when it passes, the card says what
/// was learnt and `n` goes on. `h` shows the hint. Lessons come in the article's order
/// (``Lesson/all``); when the last is done, the card says so.
package final class Learn: TerminalProgram {
    /// The play program underneath: the session, the streams, the binding.
    package let play: Play
    package let keyMode = KeyMode.learn
    package let deadline: Duration? = nil
    /// The lesson shown (an index into ``Lesson/all``; ``Lesson/all``'s count: all done).
    package private(set) var lesson: Int
    /// Whether the lesson shown is done.
    package private(set) var isDone = false
    /// Called with a lesson's index when it is done (the command keeps the progress); what it
    /// returns, when anything (the progress could not be kept, and why), is said on the status
    /// line at once.
    package var completed: ((Int) -> String?)?
    private var start = 0
    private var hintShown = false
    /// The lessons done (from 0): those done before the tour began, and since.
    package private(set) var done: Set<Int>

    /// A tour on `screen`, a terminal of `terminal`, from lesson `first` (from 0), with the
    /// lessons `done` done before; `animated`: moves glide.
    package init(
        screen: Screen, terminal: ScreenSize, first: Int = 0, done: Set<Int> = [], animated: Bool = false
    ) {
        play = Play(screen: screen, terminal: terminal, animated: animated)
        self.done = done
        lesson = min(max(0, first), Lesson.all.count)
        begin()
    }

    /// The lesson `n` goes to: the next not done after the one shown, from the first again
    /// after the last; all done: the closing card.
    private var nextLesson: Int {
        let count = Lesson.all.count
        return ((lesson + 1)..<count).first { !done.contains($0) } ?? (0..<count).first { !done.contains($0) } ?? count
    }

    package var binding: ScreenBinding { play.binding }
    package var isFinished: Bool { play.isFinished }

    package func deadlineReached(now: Duration) {}

    package func perform(_ action: KeyAction, now: Duration) {
        switch action {
        case .showHint:
            hintShown = true
            showCard()
        case .nextLesson:
            guard isDone, lesson < Lesson.all.count else { return }
            lesson = nextLesson
            begin()
        case .toggleLate(.replay) where lesson < Lesson.all.count && Lesson.all[lesson].title == "Replay":
            play.perform(action, now: now)
            check()
            // A Replay subject made before three values came hands fewer: say so, and how.
            if !isDone, let lane = facts.lane(.replay), lane.isLive, lane.handed < LateSubscriber.replayBufferSize {
                binding.send(
                    .noticePosted(
                        "handed \(lane.handed): the subject keeps only what came since the start; r twice after moves"))
            }
        default:
            play.perform(action, now: now)
            check()
        }
    }

    package func resized(to size: ScreenSize) {
        play.resized(to: size)
        check()
    }

    package func hungUp() { play.hungUp() }
    package func resumed(after duration: Duration) {}
    package func willFlush() {}

    /// The facts the lesson's check reads now.
    package var facts: LessonFacts {
        var facts = LessonFacts(
            columns: play.streams.columns(from: start), lateLanes: play.streams.lateLanes, start: start,
            streamsOpen: play.isStreamsOpen)
        facts.firstSubscription = firstSubscription
        facts.observed = observed
        return facts
    }

    /// The first late subscription made since the lesson began.
    private var firstSubscription = 0
    /// What was looked at since the lesson began.
    private var observed: [Observation] = []
    private var watching: AnyCancellable?

    private func begin() {
        start = play.streams.latestIndex
        firstSubscription = play.streams.subscriptionsMade
        observed = []
        watching = play.streams.observations.sink { [unowned self] in observed.append($0) }
        isDone = false
        hintShown = false
        showCard()
    }

    /// Checks the lesson: only where the learner can see it (a window too small for the ball
    /// shows only that it is too small).
    private func check() {
        guard play.session.state.position.screen.isLargeEnough else { return }
        guard lesson < Lesson.all.count, !isDone, Lesson.all[lesson].isDone(facts) else { return }
        isDone = true
        done.insert(lesson)
        if let said = completed?(lesson) ?? nil { binding.send(.noticePosted(said)) }
        showCard()
    }

    private func showCard() {
        let count = Lesson.all.count
        guard lesson < count else {
            binding.send(
                .lessonShown(
                    LessonCard(
                        title: "All \(count) lessons done",
                        text:
                            "State lives in one subject; everything else is derived and bound. Play on, or replay a recording (colourful-ball replay FILE) and travel in it.",
                        footer: "q quits · colourful-ball learn --reset starts again", done: true)))
            return
        }
        let current = Lesson.all[lesson]
        let footer =
            isDone
            ? "Done: \(current.learnt)  n: next"
            : hintShown ? "Hint: \(current.hint)" : "Task: \(current.task)  (h: hint)"
        binding.send(
            .lessonShown(
                LessonCard(
                    title: "Lesson \(lesson + 1) of \(count) · \(current.title)", text: current.text, footer: footer,
                    done: isDone)))
    }
}
