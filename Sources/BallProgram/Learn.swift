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
        play = Play(screen: screen, terminal: terminal, animated: animated, tour: Self.layout(of:))
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
                answer = Self.notDoneAnswer
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
            answer = Self.wrongKindAnswer(kind, wants: wants)
        } else if kind == .replay, lane.handed < LateSubscriber.replayBufferSize {
            answer = Self.replayAnswer(handed: lane.handed)
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

    /// Checks the lesson: only where the learner can see it (a window too small for the card,
    /// the ball and the lanes shows only the size it needs).
    private func check() {
        guard play.showsAll else { return }
        guard lesson < Lesson.all.count, !isDone, Lesson.all[lesson].isDone(facts) else { return }
        // A lesson whose point is on a lane is done where the lanes show it.
        guard Lesson.all[lesson].panel != .open || play.isStreamsOpen else {
            answer = Self.closedLanesAnswer
            return showCard()
        }
        isDone = true
        done.insert(lesson)
        if let said = completed?(lesson) ?? nil { binding.send(.noticePosted(said)) }
        showCard()
    }

    private func showCard() {
        binding.send(.lessonShown(Self.card(lesson, done: isDone, hint: hintShown, answer: answer)))
    }

    // MARK: - The cards

    /// The card of lesson `index` (``Lesson/all``'s count: the closing card), done or not, with
    /// its hint shown or not, and the answer to the last try (which takes the hint's place until
    /// the next key).
    static func card(_ index: Int, done: Bool, hint: Bool, answer: String?) -> LessonCard {
        let count = Lesson.all.count
        guard index < count else {
            return LessonCard(
                title: "All \(count) lessons done",
                text:
                    "State lives in one subject; everything else is derived and bound. Play on, or replay a recording (colourful-ball replay FILE) and travel in it.",
                task: "q quits · colourful-ball learn --reset starts again", done: true)
        }
        let lesson = Lesson.all[index]
        let title = "Lesson \(index + 1) of \(count) · \(lesson.title)"
        guard !done else {
            return LessonCard(
                title: title, text: lesson.text, task: "Done: \(lesson.learnt)", note: "n: the next lesson", done: true)
        }
        return LessonCard(
            title: title, text: lesson.text, task: "Task: \(lesson.task)",
            note: answer ?? (hint ? "Hint: \(lesson.hint)" : "t: a hint"))
    }

    /// The answer to `n` before the lesson is done.
    static let notDoneAnswer = "Not done yet: the task above is what is left."
    /// The answer to a lane lesson's task done with the lanes closed.
    static let closedLanesAnswer = "Done where the lanes show it: press s to open the streams."

    /// The answer to a late subscriber `kind` subscribed in a lesson that `wants` another.
    static func wrongKindAnswer(_ kind: LateSubscriber, wants: LateSubscriber) -> String {
        "That is a late \(kind.name) (\(kind.key)); this lesson wants a late \(wants.name): \(wants.key)."
    }

    /// The answer to a Replay(3) subscriber handed only `handed` values (the subject was made
    /// before three came).
    static func replayAnswer(handed: Int) -> String {
        "Handed \(handed): it keeps only what came since it began. Move, then r twice."
    }

    /// Every card the tour can show, in any state (what its rows must hold).
    static let everyCard: [LessonCard] = {
        let kinds = LateSubscriber.allCases
        let answers =
            [notDoneAnswer, closedLanesAnswer]
            + kinds.flatMap { kind in kinds.filter { $0 != kind }.map { wrongKindAnswer(kind, wants: $0) } }
            + (0..<LateSubscriber.replayBufferSize).map(replayAnswer(handed:))
        return (0...Lesson.all.count).flatMap { index in
            [
                card(index, done: true, hint: false, answer: nil), card(index, done: false, hint: false, answer: nil),
                card(index, done: false, hint: true, answer: nil),
            ]
                + answers.map { card(index, done: false, hint: false, answer: $0) }
        }
    }()

    /// How many rows the tour's cards take in a terminal `columns` wide: the most any takes.
    static func cardRows(columns: Int) -> Int {
        everyCard.map { $0.rowCount(columns: columns) }.max() ?? 0
    }

    /// How the tour lays out a terminal of `terminal`: its cards' rows, the ball's area, the lanes.
    package static func layout(of terminal: ScreenSize) -> TourLayout {
        TourLayout(
            terminal: terminal, cardRows: cardRows(columns: terminal.columns),
            cardRowsAtMinimum: cardRows(columns: TourLayout.minimumColumns))
    }
}
