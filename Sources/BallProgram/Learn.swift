import BallModel
import BallRendering
import BallStreams
import OpenCombine

// MARK: - Learn: the article as a tour

/// `colourful-ball learn`: play, with a lesson's card over the top of the ball's area. Each
/// lesson begins from a known state (no late subscriber left from before, the panel as the
/// lesson says: ``Lesson/panel``). After every key or move the lesson's check reads the streams;
/// when it passes (for a lesson whose point is on a lane, only while the lanes are drawn), the
/// card says what was learnt and `n` goes on. `h` adds the hint under the task; a wrong try (the
/// wrong late subscriber, a Replay handed fewer than three, `n` too soon) is answered on the
/// card. Lessons come in the article's order (``Lesson/all``); when the last is done, the card
/// says so.
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
    /// The card's answer to the last try that did not do the task (nil: none).
    private var answer: String?
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
        // An answer stays on the card until the next key or move.
        let answered = answer != nil
        answer = nil
        defer { if answered, answer == nil { showCard() } }
        switch action {
        case .showHint:
            hintShown = true
            showCard()
        case .nextLesson:
            guard lesson < Lesson.all.count else { return }
            guard isDone else {
                answer = "Not done yet: the task above is what is left."
                return showCard()
            }
            lesson = nextLesson
            begin()
        case .toggleLate(let kind):
            play.perform(action, now: now)
            check()
            answerTry(kind)
        default:
            play.perform(action, now: now)
            check()
        }
    }

    /// Answers a late subscriber `kind` subscribed in a lesson that wants another, or a
    /// Replay(3) handed fewer than three values, on the card.
    private func answerTry(_ kind: LateSubscriber) {
        guard !isDone, lesson < Lesson.all.count, let wants = Lesson.all[lesson].wants,
            let lane = facts.lane(kind), lane.isLive
        else { return }
        if kind != wants {
            answer =
                "That is a late \(kind.name) (\(kind.key): \(kind.handedWords)); this lesson wants \(wants.name): \(wants.key)."
        } else if kind == .replay, lane.handed < LateSubscriber.replayBufferSize {
            // A Replay subject made before three values came hands fewer.
            answer =
                "Handed \(lane.handed): the subject keeps only what came since the start. Move the ball, then r twice."
        }
        if answer != nil { showCard() }
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
        // A known start: no late subscriber from before (so b, p, r and v subscribe), and the
        // panel as the lesson needs it. Neither is an intent: the ball stays as it is.
        for lane in play.streams.lateLanes where lane.isLive { play.streams.toggleLate(lane.kind) }
        if lesson < Lesson.all.count {
            switch Lesson.all[lesson].panel {
            case .open where !play.isStreamsOpen, .closed where play.isStreamsOpen: play.toggleStreams()
            default: break
            }
        }
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
        // A lesson whose point is on a lane is done where the lanes show it.
        guard Lesson.all[lesson].panel != .open || play.isStreamsOpen else {
            answer = "Done where the lanes show it: press s to open the streams."
            return showCard()
        }
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
        var footer = isDone ? "Done: \(current.learnt)  n: next" : "Task: \(current.task)"
        if !isDone {
            footer += hintShown ? "  Hint: \(current.hint)" : "  (h: hint)"
            if let answer { footer += "  \(answer)" }
        }
        binding.send(
            .lessonShown(
                LessonCard(
                    title: "Lesson \(lesson + 1) of \(count) · \(current.title)", text: current.text, footer: footer,
                    done: isDone)))
    }
}
