import BallModel
import BallRendering
import BallStreams

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
    /// Called with a lesson's index when it is done (the command keeps the progress).
    package var completed: ((Int) -> Void)?
    private var start = 0
    private var hintShown = false

    /// A tour on `screen`, a terminal of `terminal`, from lesson `first` (from 0); `animated`:
    /// moves glide.
    package init(screen: Screen, terminal: ScreenSize, first: Int = 0, animated: Bool = false) {
        play = Play(screen: screen, terminal: terminal, animated: animated)
        lesson = min(max(0, first), Lesson.all.count)
        begin()
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
            lesson += 1
            begin()
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
        LessonFacts(
            columns: play.streams.columns(from: start), lateLanes: play.streams.lateLanes, start: start,
            streamsOpen: play.isStreamsOpen)
    }

    private func begin() {
        start = play.streams.latestIndex
        isDone = false
        hintShown = false
        showCard()
    }

    private func check() {
        guard lesson < Lesson.all.count, !isDone, Lesson.all[lesson].isDone(facts) else { return }
        isDone = true
        completed?(lesson)
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
