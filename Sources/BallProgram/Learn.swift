import BallModel
import BallRendering
import BallStreams
import ColourCore
import OpenCombine
import TextFormats

// MARK: - Learn: the article as a tour

/// `colourful-ball learn`: play, with a lesson's card in rows of its own above the ball's area
/// (``TourLayout``). Each lesson begins from a known state (no late subscriber left from before,
/// the screen bound to the chain itself, the panel as the lesson says: ``Lesson/panel``). After
/// every key or move the lesson's check reads the streams; when it passes (for a lesson whose
/// point is on a lane, only while the lanes are drawn), the card says what was learnt and `n`
/// goes on (`N` back; `m` shows every lesson's point, and a digit there goes to one). `t` adds the
/// hint under the task; a wrong try (the wrong late subscriber, a Replay handed fewer than three,
/// `n` too soon, a subscribe before the card's question is answered) is answered on the card.
/// Lessons come in the article's order (``Lesson/all``); after the last, the closing card and
/// the recap.
package final class Learn: TerminalProgram {
    /// The play program underneath: the session, the streams, the binding.
    package let play: Play
    package let keyMode = KeyMode.learn
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
    /// lessons `done` done before; `animated`: jumps glide.
    package init(
        screen: FrameSink, terminal: ScreenSize, first: Int = 0, done: Set<Int> = [], animated: Bool = false
    ) {
        play = Play(screen: screen, terminal: terminal, animated: animated, tour: Self.layout(of:))
        // No lesson inherits a dead binding: an error that would end the colour is never let in.
        play.refusesPipe = Self.refusal(of:)
        play.catchesRetry = true
        self.done = done
        lesson = min(max(0, first), Lesson.all.count)
        begin()
        doctorPending = Self.fewColoursAnswer(binding.colourDepth)
    }

    /// In few colours, where to learn how to see them all: the card says it once, as soon as it
    /// asks no question (the choices stay in view), until the next key.
    private var doctorPending: String?

    /// What the card says as the tour begins in a terminal of few colours (`TERM=xterm`: 8),
    /// where a colour's name is not the colour drawn: where to learn how to see all 48.
    static func fewColoursAnswer(_ depth: ColourDepth) -> String? {
        guard case .palette(let palette) = depth, palette != .xterm256 else { return nil }
        return "Only \(palette.rawValue) colours here: colourful-ball doctor says how to see all 48."
    }

    /// The lesson `n` goes to: the next not done after the one shown, from the first again
    /// after the last; all done: the closing card.
    private var nextLesson: Int {
        let count = Lesson.all.count
        guard lesson < count else { return count }
        return ((lesson + 1)..<count).first { !done.contains($0) } ?? (0..<count).first { !done.contains($0) } ?? count
    }

    package var binding: ScreenBinding { play.binding }

    /// The lessons whose question each legend symbol's telling words answer (what a late
    /// subscriber is handed at once; what catch does after its fallback): until all are done,
    /// `?` says the symbol's neutral words.
    static let legendLessons: [String: Set<String>] = [
        "\(Glyph.subscribed)": ["behavior", "publish", "replay"],
        MarbleLegend.groupSymbol: ["behavior", "publish", "replay"],
        "\(Glyph.completed)": ["error"],
    ]

    /// The symbols `?`'s legend says in neutral words: those whose lessons are not all done.
    package var legendUntold: Set<String> {
        let told = Lesson.ids(of: done)
        return MarbleLegend.neutralSymbols.filter { !(Self.legendLessons[$0] ?? []).isSubset(of: told) }
    }
    /// Whether the learner quit (the session ending by `e`, in the Completion lesson, is not
    /// the tour's end).
    package var isFinished: Bool { play.isFinished && endedAt == nil || quit }

    /// The operator taken out of the slot as the lesson began, if one was (the card says so).
    private var slotCleared: SlotPipe?
    /// Whether the lesson began by turning the time view off (the card says so while it is off).
    private var timeViewTurnedOff = false
    /// The late subscriber whose lesson's question the card asks, its key pressed before that
    /// question was answered: a digit answers it, and then the key subscribes (until another key).
    private var askedFor: LateSubscriber?
    /// The late subscribers whose lesson's question the learner answered on the card, asked for
    /// their key outside that lesson: their keys subscribe from then on.
    private var guessedFor: Set<LateSubscriber> = []
    /// Whether the last key was Esc with no box open, which asked whether to leave.
    private var leaveAsked = false
    /// The column the session ended in by `e`, if it has: the ball moves no more.
    private var endedAt: Int?
    /// Whether the learner asked to quit.
    private var quit = false
    /// The learner's answer to the card's question in this lesson (nil: not asked, or not yet).
    private var predicted: Int?
    /// In a lesson whose point is a count (``Lesson/reads``), what its lane read when it passed.
    private var countRead: Int?
    /// The lesson's number typed so far in the lessons box, while more digits could follow.
    private var typed: Int?
    /// The column the screen's colours were bound through a Publish copy of the chain in, while
    /// they are (`o`).
    private var boundThroughPublishAt: Int?
    /// The copies of `map`, shared and not, while subscribed (`u`).
    private var mapRuns: MapRuns?
    /// The column the copies of `map` were subscribed in, while they are.
    private var mapRunsAt: Int?

    /// A recording has begun: what the tour shows that a recording keeps is noted again for it
    /// (the first lesson's panel, opened before the recorder listened; the lesson's marker).
    package func recordingStarted() {
        if play.isStreamsOpen { play.streams.notePanel(open: true) }
        noteLesson()
    }

    /// Notes the lesson shown as an observation (a recording keeps it as a marker): the closing
    /// card's too, one past the last lesson, so a tour begun or ended there is a tour's recording.
    private func noteLesson() {
        let title = lesson < Lesson.all.count ? Lesson.all[lesson].title : Observation.closingTitle
        play.streams.apply(.lessonBegan(number: lesson + 1, title: title))
    }

    /// Binds the screen's colours back to the chain itself (its shares hand the latest at once).
    private func bindBack() {
        guard boundThroughPublishAt != nil else { return }
        binding.bind(play.session.viewModel)
        boundThroughPublishAt = nil
        // The copy's lanes end (`!`), and it is sent no more positions.
        play.streams.apply(.screenThroughPublish(false))
    }

    package var deadline: Duration? { play.deadline }

    package func deadlineReached(now: Duration) { play.deadlineReached(now: now) }

    package func clockReached(_ now: Duration) { play.clockReached(now) }

    package func perform(_ action: KeyAction, now: Duration) {
        // An answer stays on the card until the next key or move. What the keys before this
        // one did in the same wake is checked first: `n` reads it.
        // A late key's question left by another key than a digit is said to be left (the key asks
        // again), where that key has nothing of its own to say: else it went without a word.
        let asked = askedFor
        askedFor = nil
        answer = asked.map { Self.questionLeftAnswer(key: $0.key) }
        let leaveAsked = self.leaveAsked
        self.leaveAsked = false
        check()
        let count = Lesson.all.count
        let current = lesson < count ? Lesson.all[lesson] : nil
        // The operators box (f, and | in it) says what the lesson's operators do once its
        // question is answered, and a later lesson's not yet.
        let told = current != nil && (current?.predicts == nil || predicted != nil || isDone) ? lesson : nil
        play.untoldOperators = Self.untold(done: done.union(told.map { [$0] } ?? []))
        switch action {
        case .showHint:
            // Said whatever the card shows: the hint waits for the guess, and a done card has
            // the point in its place.
            hintShown = true
            if let current, current.predicts != nil, predicted == nil, !isDone {
                answer = Self.hintAfterGuessAnswer
            } else if let current, isDone {
                answer = "Hint: \(current.hint)"
            }
        case .nextLesson:
            // After the last there is none: the closing card says how to leave or go back.
            guard lesson < count else {
                answer = endedAt == nil ? Self.noNextAnswer : Self.noNextEndedAnswer
                return
            }
            // A lesson done before (come back to by N or m) goes on as well: its task is there to redo.
            guard isDone || done.contains(lesson) else {
                answer = current?.predicts != nil && predicted == nil ? Self.notAnsweredAnswer : Self.notDoneAnswer
                return
            }
            // The closing card, in its own rows with nothing over it: `m` there shows the recap.
            go(to: endedAt == nil ? nextLesson : count)
        case .previousLesson:
            go(to: max(0, lesson - 1))
        case .showLessons:
            typed = nil
            binding.send(.helpOpened(Self.lessonsBox(done: done, shown: lesson)))
        case .digit(let digit) where binding.model.help?.choice == .lessons:
            // In the lessons box: a lesson's number, digit by digit; it goes there as soon as no
            // longer number could follow (with 10 to 19 lessons, `2` at once, `1` waits for a second
            // digit or Enter).
            let number = (typed ?? 0) * 10 + digit
            guard number > 0, number <= count else {
                typed = nil
                return binding.send(.helpClosed)
            }
            guard number * 10 > count else {
                typed = number
                return binding.send(.helpOpened(Self.lessonsBox(done: done, shown: lesson, typed: number)))
            }
            typed = nil
            binding.send(.helpClosed)
            go(to: number - 1)
        case .confirmChoice where binding.model.help?.choice == .lessons:
            binding.send(.helpClosed)
            guard let number = typed else { return }
            typed = nil
            go(to: number - 1)
        case .digit where binding.model.help?.choice == .operators,
            .chooseOperator where binding.model.help?.choice == .operators,
            .addStage where binding.model.help?.choice == .operators,
            .removeStage where binding.model.help?.choice == .operators,
            .clearPipe where binding.model.help?.choice == .operators:
            // In the operators box (f): play puts that one in the chain's slot.
            play.perform(action, now: now)
        case .changeInterval where binding.model.help?.choice == .operators:
            // The box, open still, shows the interval chosen, the lessons not done named as before
            // (play's box names them: untoldOperators).
            play.perform(action, now: now)
        case .digit(let number) where asked != nil:
            // The answer to the question a late key asked for its lesson: then it subscribes.
            guard let kind = asked, Lesson.handedChoices.indices.contains(number - 1) else {
                askedFor = asked
                answer = Self.guessRangeAnswer
                return
            }
            guessedFor.insert(kind)
            play.perform(.toggleLate(kind), now: now)
            answer = Self.guessedAnswer(number, key: kind.key)
        case .digit(let number):
            // A guess, where the card asks for one.
            guard current?.predicts != nil, predicted == nil, !isDone else {
                answer = Self.digitsAnswer
                return
            }
            guard (1...(current?.choices.count ?? Lesson.handedChoices.count)).contains(number) else {
                answer = Self.guessRangeAnswer
                return
            }
            predicted = number
        case .toggleLate(let kind) where current?.predicts != nil && predicted == nil && kind == current?.wants:
            // The question first: the lane answers it.
            answer = Self.predictFirstAnswer
        case .toggleLate(let kind) where unansweredLesson(for: kind) != nil:
            // Its lane would answer a question not yet answered: the question first. In a lesson
            // after the key's own, skipped (whose task may need the key: lessons 7 and 18), the
            // card asks it where it asks nothing else and the question is one any lesson can ask
            // (what a late subscriber is handed); else it says which lesson asks it.
            let own = unansweredLesson(for: kind) ?? lesson
            let asking = current?.predicts != nil && predicted == nil && !isDone
            if own == lesson {
                answer = Self.relayFirstAnswer
            } else if !asking, own < lesson, Lesson.all[own].wants == kind {
                askedFor = kind
            } else {
                answer = Self.elsewhereAnswer(key: kind.key)
            }
        case .intent(let intent)
        where current?.predictsMoves == true && predicted == nil && !isDone && intent.mover != nil:
            // The question first: the move answers it.
            answer = Self.moveFirstAnswer
        case .toggleScreenThroughPublish where current?.tourKey == "o" && current?.predicts != nil && predicted == nil:
            // The question first: the screen answers it.
            answer = Self.publishFirstAnswer
        case .showOperators where current?.predicts != nil && predicted == nil && current?.wants == nil:
            // The question first: the operator's lane answers it.
            answer = Self.operatorFirstAnswer
        case .toggleLate(let kind):
            play.perform(action, now: now)
            answerTry(kind)
        case .endSession where current?.ends == true && current?.predicts != nil && predicted == nil && !isDone:
            // The question first: the late lanes after the end answer it.
            answer = Self.endFirstAnswer
        case .endSession:
            guard current?.ends == true, endedAt == nil else {
                answer = endedAt == nil ? Self.elsewhereAnswer(key: "e") : nil
                return
            }
            play.perform(.intent(.completionRequested), now: now)
            endedAt = play.streams.latestIndex
        case .toggleScreenThroughPublish where current?.tourKey != "o", .toggleMapCopies where current?.tourKey != "u":
            // Taught in its own lesson: elsewhere it would change the screen without a word.
            answer = Self.elsewhereAnswer(key: action == .toggleScreenThroughPublish ? "o" : "u")
        case .toggleScreenThroughPublish:
            if boundThroughPublishAt == nil {
                let lightBefore = Self.barsLight(over: binding.model.appearance.background, depth: binding.colourDepth)
                // One copy: the screen binds through it, and its lanes subscribe to it.
                let copy = PublishCopy(following: play.session.viewModel.position)
                binding.bindColours(through: copy, play.session.viewModel)
                boundThroughPublishAt = play.streams.latestIndex
                play.streams.watch(copy)
                // The bars follow the screen's colour (dark, or light where it would not show on
                // them): where the white screen turns them, said, so the turn back at the next
                // o is not taken for something o does to them.
                let screen = binding.model.appearance.background
                let light = Self.barsLight(over: screen, depth: binding.colourDepth)
                if light != lightBefore { answer = Self.barsAnswer(screen: screen, light: light) }
            } else {
                bindBack()
                answer = Self.boundBackAnswer
            }
        case .toggleMapCopies:
            mapRuns = mapRuns == nil ? MapRuns(position: play.session.viewModel.position) : nil
            mapRunsAt = mapRuns == nil ? nil : play.streams.latestIndex
            if mapRuns == nil { answer = Self.copiesOffAnswer }
            play.streams.apply(.mapCopies(mapRuns != nil))
        case .leaveTour where leaveAsked:
            quit = true
            play.perform(.intent(.quitRequested), now: now)
        case .leaveTour:
            self.leaveAsked = true
            answer = Self.leaveAnswer
        case .intent(.quitRequested):
            quit = true
            play.perform(action, now: now)
        case .intent(.arrowPressed):
            let before = play.streams.latestIndex
            play.perform(action, now: now)
            // An arrow against the edge is an intent that moved nothing: said, since a lesson
            // counting moves counts it not.
            if let column = play.streams.columns(from: before + 1).last, column.intent != nil, column.position == nil {
                answer = Self.edgeAnswer
            }
        default:
            play.perform(action, now: now)
        }
    }

    /// Goes to lesson `index` (``Lesson/all``'s count: the closing card), from its start; once
    /// the session has ended, only to the closing card (the ball moves no more).
    private func go(to index: Int) {
        guard endedAt == nil || index == Lesson.all.count else {
            answer = Self.endedAnswer
            return
        }
        lesson = index
        begin()
    }

    /// The lesson whose question a late subscriber `kind` subscribed now would answer, not yet
    /// answered (nil: its key subscribes): the lesson its key belongs to (``Lesson/keys``), not
    /// done, its guess not given (there, or for this key on the card). A live lane of its kind
    /// still cancels.
    private func unansweredLesson(for kind: LateSubscriber) -> Int? {
        guard lesson < Lesson.all.count, play.streams.lateLane(kind)?.isLive != true, !guessedFor.contains(kind),
            let own = Lesson.all.firstIndex(where: { $0.keys.contains(kind.key) }), !done.contains(own),
            own != lesson || predicted == nil && !isDone
        else { return nil }
        // Once position has ended, a Behavior or Publish subscriber is handed the end alone (`^|`),
        // which answers nothing their lessons ask; a Replay is handed what it holds.
        if endedAt != nil, Self.handedTheEndAlone.contains(kind) { return nil }
        return own
    }

    /// The late subscribers handed only the end once position has ended (RxSwift: a completed
    /// BehaviorSubject or PublishSubject sends a new subscriber `completed` alone).
    static let handedTheEndAlone: Set<LateSubscriber> = [.behavior, .publish]

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
    }

    package func resized(to size: ScreenSize) { play.resized(to: size) }

    package func hungUp() {
        quit = true
        play.hungUp()
    }
    package func resumed(after duration: Duration) {}
    /// The one place the lesson is checked and its card worked out: once a wake, after every
    /// key, move, timer and resize it brought, before the frame is drawn.
    package func willFlush() {
        check()
        // Steps done out of the card's order: said while they stand so, until the task is done
        // (which a timer can do, with no key to take the words away).
        if lesson < Lesson.all.count, let order = Lesson.all[lesson].outOfOrder {
            let stands = !isDone && order.when(facts)
            if stands, answer == nil {
                answer = order.words
            } else if !stands, answer == order.words {
                answer = nil
            }
        }
        let asking = lesson < Lesson.all.count && Lesson.all[lesson].predicts != nil && predicted == nil && !isDone
        if let doctor = doctorPending, answer == nil, !asking, askedFor == nil {
            answer = doctor
            doctorPending = nil
        }
        // A colour change the terminal's few colours draw as no change: said, as the names show it.
        let ball = play.session.state.ballColour
        if let before = shownBall, before != ball, answer == nil {
            answer = Self.lookAlikeAnswer(before, ball, depth: binding.colourDepth)
        }
        shownBall = ball
        showCard()
        play.willFlush()
    }

    /// The ball's colour as the last frame showed it.
    private var shownBall: FlatColour?

    /// Whether the bars are drawn light over a screen of colour `screen` at `depth`: the
    /// renderer's rule, the screen's colour kept visible against them.
    package static func barsLight(over screen: FlatColour, depth: ColourDepth) -> Bool {
        !depth.canTellApart(screen, Renderer.statusBackground)
    }

    /// What the card says when the bars turned light (or dark) over a screen of colour `screen`.
    package static func barsAnswer(screen: FlatColour, light: Bool) -> String {
        light
            ? "Bars light now: ■ \(screen.name), the screen, would not show on dark ones."
            : "Bars dark now: ■ \(screen.name), the screen, shows on them (light where not)."
    }

    /// What the card says when the ball's colour changed from `before` to `after` but a terminal
    /// of `depth` draws both alike (8 colours: flatMaroon and flatRedDark are one red); nil when
    /// the change shows.
    package static func lookAlikeAnswer(_ before: FlatColour, _ after: FlatColour, depth: ColourDepth) -> String? {
        guard before != after, case .palette(let palette) = depth, palette != .xterm256,
            before.terminalIndex(in: palette) == after.terminalIndex(in: palette)
        else { return nil }
        return "\(before.name)→\(after.name): one colour in \(palette.rawValue) here; see the names"
    }

    /// The longest ``lookAlikeAnswer(_:_:depth:)`` can be (the card keeps rows for it).
    static let widestLookAlike: String = {
        let longest = FlatColour.allCases.sorted { $0.name.count > $1.name.count }
        return "\(longest[0].name)→\(longest[1].name): one colour in 16 here; see the names"
    }()

    /// The facts the lesson's check reads now.
    package var facts: LessonFacts {
        var facts = LessonFacts(
            columns: play.streams.columns(from: start), lateLanes: play.streams.lateLanes, start: start,
            streamsOpen: play.isStreamsOpen)
        facts.firstSubscription = firstSubscription
        facts.observed = observed
        facts.endedAt = endedAt
        facts.boundThroughPublishAt = boundThroughPublishAt
        facts.mapRuns = mapRuns?.counts
        facts.mapRunsAt = mapRunsAt
        return facts
    }

    /// The first late subscription made since the lesson began.
    private var firstSubscription = 0
    /// The number of the first Publish copy bound since the lesson began.
    private var firstCopy = 0
    /// What was looked at since the lesson began.
    private var observed: [Observation] = []
    private var watching: AnyCancellable?

    private func begin() {
        // A known start: no late subscriber from before (so b, p, r and v subscribe), the screen
        // bound to the chain itself, and the panel as the lesson needs it. None is an intent:
        // the ball stays as it is. The closing card is no lesson: the picture ends there, as at
        // a quit, with the late subscribers as the last lesson left them (a recording then draws
        // no `!` the learner never saw: Completion's relay reads `^c` to the end, as it did).
        if lesson < Lesson.all.count {
            for lane in play.streams.lateLanes where lane.isLive { play.streams.toggleLate(lane.kind) }
        }
        bindBack()
        if mapRuns != nil { play.streams.apply(.mapCopies(false)) }
        mapRuns = nil
        mapRunsAt = nil
        binding.send(.tourSlotLaneShown(lesson < Lesson.all.count && Lesson.all[lesson].operators))
        binding.send(.tourBackgroundLaneShown(lesson == Lesson.all.count || Lesson.all[lesson].backgroundLane))
        binding.send(.tourLateRowsKept(lesson < Lesson.all.count ? Lesson.all[lesson].lateRows : []))
        // The pointing line describes the latest column again, not one the last lesson pointed at.
        binding.send(.pointerHovered(intent: nil, lane: nil))
        // The slot empty, as every lesson's task starts from it: an operator left in the slot is
        // taken out (an intent, so the colours may change: the card says so).
        slotCleared = nil
        if lesson < Lesson.all.count, play.session.state.slot != .none {
            slotCleared = play.session.state.slot
            play.session.send(.operatorChosen(.none))
        }
        // The intent view, a column an intent, unless the lesson is on the clock: a time view
        // left on from lesson 13 would lay out an untimed lesson's lanes otherwise than its task
        // reads them.
        timeViewTurnedOff = false
        if lesson < Lesson.all.count, !Lesson.all[lesson].timed, binding.model.panelAxis.time {
            binding.send(.panelAxisChanged(binding.model.panelAxis.toggled()))
            timeViewTurnedOff = true
        }
        if lesson < Lesson.all.count {
            switch Lesson.all[lesson].panel {
            case .open where !play.isStreamsOpen, .closed where play.isStreamsOpen: play.toggleStreams()
            default: break
            }
        }
        noteLesson()
        start = play.streams.latestIndex
        firstSubscription = play.streams.subscriptionsMade
        firstCopy = play.streams.copiesMade
        // Its lanes from where it began: what the lessons before drew could answer its question.
        binding.send(.tourLessonBegan(floor))
        observed = []
        watching = play.streams.observations.sink { [unowned self] in observed.append($0) }
        isDone = false
        hintShown = false
        predicted = nil
        countRead = nil
    }

    /// Checks the lesson: only where the learner can see it (a window too small for the card,
    /// the ball and the lanes shows only the size it needs).
    private func check() {
        guard play.showsAll else { return }
        guard lesson < Lesson.all.count, !isDone, Lesson.all[lesson].isDone(facts) else { return }
        // A lesson whose point is on a lane is done where the lanes show it.
        guard Lesson.all[lesson].panel != .open || play.isStreamsOpen else {
            answer = Self.closedLanesAnswer
            return
        }
        isDone = true
        // The count its lane reads as it passed, for the card's verdict.
        if Lesson.all[lesson].reads != nil, case .count(let count) = play.session.state.slotted {
            countRead = count
        }
        done.insert(lesson)
        if let said = completed?(lesson) ?? nil { binding.send(.noticePosted(said)) }
    }

    private func showCard() {
        // Idle rows by name alone (`late Replay`: its buffer's size would answer lesson 6), as
        // the player labels them; a lane, which subscribes only once its question is answered, in full.
        binding.send(.tourPlainLabels(TourLessonLanes.plainLabels))
        binding.send(.tourUnsaidCode(unsaidCode))
        let card = Self.card(
            lesson, done: isDone, hint: hintShown, answer: answer, predicted: predicted,
            left: endedAt == nil ? [] : (0..<Lesson.all.count).filter { !done.contains($0) },
            runs: mapRuns?.counts, scan: scanNote, cleared: slotCleared, asksFor: askedFor,
            timeViewOff: timeViewTurnedOff && !binding.model.panelAxis.time, read: countRead,
            marks: untaughtMarks,
            last: endedAt != nil || nextLesson == Lesson.all.count, columns: play.terminal.columns,
            rows: binding.model.tour?.cardRows)
        binding.send(.lessonShown(card))
        // An answer the card had no row for (its question, choices and setting fill it) is said
        // on the status line, until the next key.
        let unsaid = answer.flatMap { answer in
            [card.text, card.note].contains { $0.contains(answer) } || card.title.contains(answer) ? nil : answer
        }
        if let unsaid {
            binding.send(.keyAnswered(unsaid))
        } else if let said = answerOnStatusLine, binding.model.notice == said {
            binding.send(.noticePosted(nil))
        }
        answerOnStatusLine = unsaid
    }

    /// The answer said on the status line for want of a row on the card, while it is.
    private var answerOnStatusLine: String?

    /// The operators whose lesson is not done (`done`: lesson indices), each with its lesson's
    /// number: the operators box names them without what they do, which their lesson asks.
    package static func untold(done: Set<Int>) -> [SlotOperator: Int] {
        var untold: [SlotOperator: Int] = [:]
        for (index, lesson) in Lesson.all.enumerated() where !done.contains(index) {
            let stages = lesson.slots.flatMap(\.stages)
            // Every operator that recovers says what catch's lesson asks (the colour after the
            // error: `catchAndReturn`'s "the middle, then the end"), so none is told before it.
            let recovering =
                stages.contains { $0.operation.recovers } ? SlotOperator.allCases.filter(\.operation.recovers) : []
            // sample's words say the mirror, a Behavior subject, hands it its value as it
            // subscribes: what the Behavior lesson asks of a late subscriber.
            let telling =
                lesson.wants == .behavior ? SlotOperator.allCases.filter(\.operation.wordsTellWhatBehaviorHands) : []
            for slot in stages + recovering + telling { untold[slot] = index + 1 }
        }
        return untold
    }

    /// The code the lanes' hover says otherwise until the lesson that teaches it is shown or done:
    /// the chain's `share(replay: 1)`, named with the share lesson's number.
    private var unsaidCode: [String: String] {
        guard let share = Lesson.all.firstIndex(where: { $0.id == "share" }), share != lesson, !done.contains(share)
        else { return [:] }
        return [".share(replay: 1)": " (shared: lesson \(share + 1))"]
    }

    /// Where the lesson (or the closing card) began, from which its lanes are drawn.
    package var floor: PageFloor {
        PageFloor(
            column: start, subscription: firstSubscription, copy: firstCopy, closing: lesson == Lesson.all.count)
    }

    /// The late lanes the lesson's lanes draw: those subscribed since it began.
    private var drawnLateLanes: [LateLane] { play.streams.lateLanes.filter { $0.id >= firstSubscription } }

    /// The first column the lanes' page shows now.
    private var pageStart: Int {
        StreamPanel.pageStart(latest: play.streams.latestIndex, width: play.terminal.columns, from: start)
    }

    /// The marks on the lanes now whose lesson is still to come.
    private var untaughtMarks: [UntaughtMark] {
        UntaughtMark.shownFirst.filter { mark in
            guard play.isStreamsOpen, mark.isExplained(on: lesson, done: done) else { return false }
            switch mark {
            case .lanes:
                return true
            case .arrows:
                return pageColumns.contains { if case .arrowPressed? = $0.intent { true } else { false } }
            case .flags:
                // Drawn on mirror's and grabbed's lanes, which the panel draws over the whole page
                // while the operator in the slot now reads them (the start's value too).
                let inputs = pageColumns.last?.slot.inputs ?? []
                return pageColumns.contains { column in
                    column.mirrorSent != nil && inputs.contains(.mirror)
                        || column.grabbed != nil && inputs.contains(.grabbed)
                }
            case .subscribed:
                // Each main lane begins ^ in the session's first column, a late lane where it
                // subscribed: drawn while the page shows either.
                return pageStart == 0 || drawnLateLanes.contains { $0.start >= pageStart }
            case .swallowed:
                // The lesson's first column is drawn without its events (the lesson before's).
                return pageColumns.contains { column in
                    column.position != nil && column.ballColour == nil
                        || column.ballColour != nil && column.background == nil
                }
            case .cancelled:
                return drawnLateLanes.contains { $0.end?.ending == .unsubscribed }
            case .operatorPut:
                return pageColumns.contains { if case .operatorChosen? = $0.intent { true } else { false } }
            case .pointer:
                return pageColumns.contains { column in
                    switch column.intent {
                    case .pressed?, .dragged?, .released?: true
                    default: false
                    }
                }
            }
        }
    }

    /// The columns the streams panel's page shows now.
    private var pageColumns: [StreamColumn] {
        let first = pageStart
        return play.streams.columns(from: first).filter { first == 0 || $0.index > start }
    }

    /// In the scan lesson, the accumulator and the way to the nearest dark band, from where the
    /// ball is now.
    private var scanNote: ScanNote? {
        guard lesson < Lesson.all.count, Lesson.all[lesson].id == "scan" else { return nil }
        let state = play.session.state
        return ScanNote(accumulator: state.background, position: state.position)
    }

    // MARK: - The cards

    /// The card of lesson `index` (``Lesson/all``'s count: the closing card), done or not, with
    /// its hint shown or not, the answer to the last try (which takes the note's place until the
    /// next key; the setting's, while the card asks its question), and the learner's answer to
    /// its question (`predicted`). On the closing card, `left` lists the lessons not done when
    /// the session has ended. `marks`: the marks on the lanes to explain (in the note where it
    /// has room, else on the title's row, as wide as `columns` lets it be, the rest counted
    /// there); `last`: `n` goes to the closing card; `rows`: the card's rows, where an answer
    /// given while the card asks its question may go under the setting if they hold it.
    static func card(
        _ index: Int, done: Bool, hint: Bool, answer: String?, predicted: Int? = nil, left: [Int] = [],
        runs: MapCounts? = nil, scan: ScanNote? = nil, cleared: SlotPipe? = nil, asksFor: LateSubscriber? = nil,
        timeViewOff: Bool = false, read: Int? = nil,
        marks: [UntaughtMark] = [], last: Bool = false, columns: Int = 80, rows: Int? = nil
    ) -> LessonCard {
        let count = Lesson.all.count
        guard index < count else {
            let still = Self.numbers(left)
            return LessonCard(
                title: left.isEmpty ? "All \(count) lessons done" : "The session has ended",
                text:
                    "State lives in one subject; everything else is derived and bound. m shows every lesson's point again.",
                task:
                    "Record yourself and travel back: colourful-ball --record s.jsonl, then colourful-ball replay s.jsonl.",
                note: answer
                    ?? (left.isEmpty
                        ? "q quits · colourful-ball learn --reset starts again"
                        : "Left: \(still): colourful-ball learn goes on with them."),
                done: true)
        }
        let lesson = Lesson.all[index]
        let title = "Lesson \(index + 1) of \(count) · \(lesson.title)"
        let said = predicted.map { "You said \($0) (\(lesson.choices[$0 - 1]))" }
        // A mark on the lanes whose lesson is not done is explained where the note has room,
        // the rest on the title's row, and those with no room even there are counted, and `?`
        // lists them: none is left out without a word.
        let explained = marks.map(\.words)
        let width = LessonCard.textWidth(columns: 80)
        // Each mark's words after `note`, as many as keep the lesson's tallest card (its title,
        // text, tallest task and this note) within its rows at 80 columns.
        func fits(_ note: String) -> Bool {
            let tasks = ["Task: \(lesson.task)", "Done: \(lesson.learnt)", lesson.asks ?? ""]
            let others =
                1 + [lesson.text, lesson.setup ?? ""].map { $0.wrapped(toWidth: width).count }.max()!
                + (tasks.map { $0.wrapped(toWidth: width).count }.max() ?? 0)
            return others + note.wrapped(toWidth: width).count <= Self.cardRowsAt80
        }
        func marked(_ note: String) -> (note: String, marks: Int) {
            var shown = (note: note, marks: 0)
            for words in explained {
                let longer = "\(shown.note) · \(words)"
                guard fits(longer) else { break }
                shown = (longer, shown.marks + 1)
            }
            return shown
        }
        // The card, its title's row with the marks its note has no room for.
        func card(
            text: String, task: String, note: (note: String, marks: Int), done: Bool = false,
            titleNote: [String] = []
        ) -> LessonCard {
            var titled = title
            var rest = explained.dropFirst(note.marks)
            // A word the note had no room for goes first, where it leaves room for the marks' count.
            if !titleNote.isEmpty {
                let pointer = rest.isEmpty ? "" : " · \(Self.moreMarks(rest))"
                titled =
                    titleNote.map { "\(titled) · \($0)" }.first {
                        ($0 + pointer).terminalWidth <= LessonCard.textWidth(columns: columns)
                    } ?? titled
            }
            while let words = rest.first {
                let longer = "\(titled) · \(words)"
                let pointer = rest.count > 1 ? " · \(Self.moreMarks(rest.dropFirst()))" : ""
                guard (longer + pointer).terminalWidth <= LessonCard.textWidth(columns: columns) else { break }
                titled = longer
                rest = rest.dropFirst()
            }
            if !rest.isEmpty { titled += " · \(Self.moreMarks(rest))" }
            return LessonCard(title: titled, text: text, task: task, note: note.note, done: done)
        }
        let unmarked = { (note: String) in (note: note, marks: 0) }
        if let kind = asksFor, let own = Lesson.all.firstIndex(where: { $0.keys.contains(kind.key) }) {
            // A late key pressed before its lesson's question was answered: that question first,
            // in the task's place (a digit answers it, then the key subscribes).
            let choices = Lesson.handedChoices.enumerated().map { "\($0.offset + 1) \($0.element)" }
            return card(
                text: lesson.text,
                task:
                    "\(kind.key) is lesson \(own + 1)'s: what is a late \(kind.plainName) subscriber handed as it subscribes?",
                note: unmarked(choices.joined(separator: " · ")))
        }
        guard !done else {
            var note = last ? "n: the tour's end" : "n: the next lesson"
            if let said, let right = lesson.predicts, let expected = lesson.reads, let read, read != expected {
                // The lane reads more than the moves made: the verdict is on the moves, and says why.
                let verdict =
                    predicted == right ? "right for the moves" : "no, \(lesson.choices[right - 1]) for the moves"
                note = "\(said): \(verdict); the lane reads \(read), as each resize hands position again. \(note)"
            } else if let said, let right = lesson.predicts {
                note = predicted == right ? "\(said): right. \(note)" : "\(said): the lane says no. \(note)"
            } else if let runs {
                note = "\(note) · map ran shared \(runs.shared), unshared \(runs.unshared)"
            }
            return card(
                text: lesson.text, task: "Done: \(lesson.learnt)",
                note: answer.map(unmarked) ?? (runs != nil ? unmarked(note) : marked(note)), done: true)
        }
        if let asks = lesson.asks, predicted == nil {
            // The question before anything that answers it: the setting in the text's place.
            let choices = lesson.choices.enumerated().map { "\($0.offset + 1) \($0.element)" }
            var asked = choices.joined(separator: " · ")
            // An operator taken out as the lesson began, said after the choices where they leave
            // room, else on the title's row.
            var titleNote: [String] = []
            if let said = startWords(cleared: cleared, timeViewOff: timeViewOff) {
                if fits("\(asked) · \(said.long)") {
                    asked += " · \(said.long)"
                } else {
                    titleNote = said.titled
                }
            }
            // An answer to a try goes under the setting, until the next key, where the card's
            // `rows` hold both: the setting, the question and its choices stay in view (where they
            // do not, the status line says it: ``showCard()``).
            let setting = lesson.setup ?? lesson.text
            if let answer, let rows {
                let answered = card(
                    text: "\(setting)\n\(answer)", task: asks, note: marked(asked), titleNote: titleNote)
                if answered.rowCount(columns: columns) <= rows { return answered }
            }
            return card(text: setting, task: asks, note: marked(asked), titleNote: titleNote)
        }
        let task = "Task: \(lesson.task)"
        let otherwise =
            runs.map { unmarked($0.words) } ?? said.map { marked("\($0). t: a hint") }
            ?? scan.map { unmarked($0.words) } ?? startNote(cleared: cleared, timeViewOff: timeViewOff).map(unmarked)
            ?? marked("t: a hint")
        // The copies' counts (u) in view from their subscription on, the hint after them where
        // it fits: the counts are what u shows.
        let hinted = "Hint: \(lesson.hint)"
        let hintNote =
            runs.map { runs in unmarked(fits("\(runs.words) · \(hinted)") ? "\(runs.words) · \(hinted)" : runs.words) }
            ?? unmarked(hinted)
        return card(
            text: lesson.text, task: task, note: answer.map(unmarked) ?? (hint ? hintNote : otherwise))
    }

    /// Where the card points for the marks whose `words` it has no room for: `? explains ├ ƒ, T F`,
    /// naming the marks so the learner knows which to look up (`?` lists every mark), or, where
    /// their names would take more than a short line, `? explains 4 more marks`.
    static func moreMarks(_ words: some Collection<String>) -> String {
        let marks = words.map { String($0.prefix { $0 != ":" }) }.joined(separator: ", ")
        guard marks.terminalWidth > 20 else { return "? explains \(marks)" }
        return "? explains \(words.count) more mark\(words.count == 1 ? "" : "s")"
    }

    /// The rows a card may take at 80 columns: with the lanes and the ball's area, 80×24.
    static let cardRowsAt80 = 6

    /// A mark the lanes can draw before the lesson that teaches it (or that no lesson teaches):
    /// the card explains it in a few words wherever it is drawn while that lesson is not done,
    /// whatever the path (`·: a value swallowed, lesson 2`).
    enum UntaughtMark: CaseIterable {
        /// `^`: a subscription's start (each main lane's, where the session began; a late one's).
        case subscribed
        /// `·`: a value `distinctUntilChanged` (Combine's `removeDuplicates`) swallowed.
        case swallowed
        /// `!`: a late subscriber cancelled (each lesson begins by cancelling those left).
        case cancelled
        /// `├ ƒ`: an operator put in the slot (`f`), its part of the slot's lane starting there.
        case operatorPut
        /// `▼ • ▲`: the mouse's intents, a press, a drag step, a release.
        case pointer
        /// `T` `F`: a flag's value (`mirror`'s, `grabbed`'s), which no lesson teaches.
        case flags
        /// An arrow key's intent on the intents' lane (`→`), taught by lesson 1's Done: said once
        /// one is drawn.
        case arrows
        /// The lanes' first marks, taught by lesson 1's Done: `●` and `■` the colours, the ruler's
        /// intent numbers (last: the longest words).
        case lanes

        /// The marks in the order the card says them, while it has room: those of later
        /// lessons first (met for the first time where they are drawn), the lanes' basics last.
        static let shownFirst: [UntaughtMark] = [
            .pointer, .operatorPut, .flags, .cancelled, .swallowed, .subscribed, .arrows, .lanes,
        ]

        /// The index of the lesson about it: the one that teaches it, or, for a mark no lesson
        /// teaches, the one where it is met first in the article's order.
        var lesson: Int {
            let id =
                switch self {
                case .lanes, .arrows: "one-subject"
                case .flags: "(none)"
                case .subscribed: "behavior"
                case .swallowed: "ghost"
                case .cancelled: "cancel"
                case .operatorPut: "filter"
                case .pointer: "flat-map-latest"
                }
            return Lesson.all.firstIndex { $0.id == id } ?? Lesson.all.count
        }

        /// Whether the card of lesson `index` explains it, the lessons `done` done: while the
        /// lesson about it is not done, on every card but that lesson's own (which teaches it),
        /// and on its own too for a mark no lesson teaches.
        func isExplained(on index: Int, done: Set<Int>) -> Bool {
            guard !done.contains(lesson) else { return false }
            switch self {
            case .lanes, .arrows, .flags, .operatorPut, .pointer: return true
            case .subscribed, .swallowed, .cancelled: return index != lesson
            }
        }

        /// Its words on the card.
        var words: String {
            let number = lesson + 1
            return switch self {
            case .lanes: "● ■: the ball's, the screen's colour; the ruler counts intents"
            case .arrows: "→ ← ↑ ↓: an arrow key"
            case .flags: "T F: a flag's value, true or false"
            case .subscribed: "^: subscribed here (lesson \(number))"
            case .swallowed: "·: a value swallowed (lesson \(number))"
            case .cancelled: "!: a cancel (lesson \(number))"
            case .operatorPut: "├ ƒ: put in (f), position's latest handed to it"
            case .pointer: "▼ • ▲: press, drag, release"
            }
        }
    }

    /// The scan lesson's note: `accumulator ■ flatTealDark · a dark band 22 right: Shift+→ ×4, → ×2`.
    struct ScanNote {
        /// The screen's colour, which `scan` carries as its accumulator.
        var accumulator: FlatColour
        /// Where the ball is.
        var position: BallPosition

        /// The note as wide as it gets: the longest colour name, the farthest band.
        static let widest = ScanNote(
            accumulator: .flatForestGreenDark,
            position: BallPosition(centre: Cell(column: 500, row: 1), screen: ScreenSize(columns: 1_000, rows: 8)))

        /// The columns to the nearest centre on the ball's row where the ball is its own
        /// complement (a dark band: the screen keeps its colour); negative: left; nil: none.
        var bandDistance: Int? {
            guard let allowed = position.shape.allowedCentres(on: position.screen) else { return nil }
            let row = position.centre.row
            let column = position.centre.column
            func dark(_ column: Int) -> Bool {
                BallColourRule.backgroundCandidate(forBall: BallColourRule.ballColour(column: column, row: row)) == nil
            }
            for distance in 0...allowed.columns.count {
                if allowed.columns.contains(column + distance), dark(column + distance) { return distance }
                if allowed.columns.contains(column - distance), dark(column - distance) { return -distance }
            }
            return nil
        }

        /// The note's words.
        var words: String {
            let way: String
            switch bandDistance {
            case nil: way = "no dark band on this row: move up or down"
            case 0?: way = "in a dark band now"
            case let distance?:
                let (big, small) = (abs(distance) / KeyMap.bigStep, abs(distance) % KeyMap.bigStep)
                // The arrow keys the card teaches (`→` on the intents' lane), not vi keys, whose
                // letters read as values'.
                let arrow = distance > 0 ? "→" : "←"
                let presses = [big > 0 ? "Shift+\(arrow) ×\(big)" : nil, small > 0 ? "\(arrow) ×\(small)" : nil]
                way =
                    "a dark band \(abs(distance)) \(distance > 0 ? "right" : "left"): \(presses.compactMap { $0 }.joined(separator: ", "))"
            }
            return "accumulator ■ \(accumulator.name) · \(way)"
        }
    }

    /// Lessons (from 0) as the card numbers them, runs as ranges: `1–3, 5, 7–13`.
    static func numbers(_ lessons: [Int]) -> String {
        var runs: [ClosedRange<Int>] = []
        for lesson in lessons.sorted() {
            if let last = runs.last, last.upperBound + 1 == lesson {
                runs[runs.count - 1] = last.lowerBound...lesson
            } else {
                runs.append(lesson...lesson)
            }
        }
        return runs.map { run in
            run.count == 1 ? "\(run.lowerBound + 1)" : "\(run.lowerBound + 1)–\(run.upperBound + 1)"
        }.joined(separator: ", ")
    }

    /// The answer to a key a lesson teaches (``Lesson/keys``) pressed where it waits: `o`, `u` or
    /// `e` outside that lesson, a late subscriber's key whose lane would answer that lesson's
    /// question before it is answered.
    static func elsewhereAnswer(key: Unicode.Scalar) -> String {
        guard let index = Lesson.all.firstIndex(where: { $0.keys.contains(key) }) else { return digitsAnswer }
        return "\(key) belongs to lesson \(index + 1), \(Lesson.all[index].title): m \(index + 1) goes there."
    }

    /// The answer to another key than a digit while the card asked a late key's question: the
    /// question left, nothing subscribed for it.
    static func questionLeftAnswer(key: Unicode.Scalar) -> String {
        "\(key)'s question left: nothing subscribed (\(key) asks again)."
    }

    /// The note when the lesson began by taking an operator out of the slot (`slot`), or turning
    /// the time view off, or both.
    static func startNote(cleared slot: SlotPipe?, timeViewOff: Bool) -> String? {
        switch (slot, timeViewOff) {
        case (nil, false): nil
        case (let slot?, false): "\(slot.shownName) taken out of the slot: the lesson starts with it empty."
        case (nil, true): "The time view is off (T turns it on): this lesson's columns are intents."
        case (let slot?, true):
            "\(slot.shownName) taken out of the slot, the time view off (T turns it on)."
        }
    }

    /// What the lesson's start changed, said after a question's choices (long) or on the title's
    /// row (the first of `titled` that fits: both in short, else each alone).
    static func startWords(cleared slot: SlotPipe?, timeViewOff: Bool) -> (long: String, titled: [String])? {
        let long = [slot.map { "\($0.shownName) taken out of the slot" }, timeViewOff ? "time view off (T)" : nil]
        let short = [slot.map { "\($0.shownName) taken out" }, timeViewOff ? "time view off" : nil].compactMap { $0 }
        guard !short.isEmpty else { return nil }
        let titled = [long.compactMap { $0 }.joined(separator: ", "), short.joined(separator: ", ")]
        return (long.compactMap { $0 }.joined(separator: ", "), titled + (short.count > 1 ? short.reversed() : []))
    }

    /// Why the tour takes no pipe an error can come out of the end of (nil: it takes `pipe`): the
    /// error would end the colour's binding for good, in every lesson after (`play` shows it).
    static func refusal(of pipe: SlotPipe) -> String? {
        guard pipe.errorReachesEnd else { return nil }
        let failing = pipe.failing.map { "\($0.name)'s" } ?? "the pipe's"
        return "not put in: \(failing) error would end the colour for good (X adds catch)"
    }

    /// The answer to Esc with no box open: the tour asks once.
    static let leaveAnswer = "Esc again to leave the tour (q at once); other keys stay and work."
    /// The answer to `n` on the closing card.
    static let noNextAnswer = "No next lesson: the tour is over. q leaves; N goes back, m picks a lesson."
    /// The answer to `n` on the closing card once the session has ended.
    static let noNextEndedAnswer = "No next lesson: the tour is over. q, then colourful-ball learn N for lesson N."
    /// The answer to `n` before the lesson is done.
    static let notDoneAnswer = "Not done yet: the task above is what is left."
    /// The answer to `n` while the card asks its question (the task comes after the guess).
    static let notAnsweredAnswer = "Not done yet: first your guess, a digit 1 to 3, for the question below."
    /// The answer to a lane lesson's task done with the lanes closed.
    static let closedLanesAnswer = "Done where the lanes show it: press s to open the streams."
    /// The answer to the lesson's key before its question is answered.
    static let predictFirstAnswer = "First your guess: 1 nothing, 2 the latest, 3 the last three."
    /// The answer to `f` before an operator lesson's question is answered.
    static let operatorFirstAnswer = "First your guess: a digit, 1 to 3, for the question below; then f."
    /// The answer to `t` before the card's question is answered.
    package static let hintAfterGuessAnswer =
        "The hint comes after your guess: a digit, 1 to 3, for the question below."
    /// The answer to `o` before the Why Behavior lesson's question is answered.
    static let publishFirstAnswer = "First your guess: a digit, 1 to 3, for the question below; then o."
    /// The answer to `o` that binds the screen back to the chain itself (how it hands the latest
    /// colours, `share(replay: 1)`, is the share lesson's).
    package static let boundBackAnswer =
        "o: bound back to the chain, which hands the latest colours at once (lesson \((Lesson.all.firstIndex { $0.id == "share" } ?? 0) + 1))."
    /// The answer to `u` that unsubscribes the copies of `map` (their counts leave the card).
    static let copiesOffAnswer = "u: the copies unsubscribed; u again subscribes new ones, counted from there."
    /// The answer to a move before a question a move answers is answered.
    static let moveFirstAnswer = "First your guess: a digit, 1 to 3, for the question below; then move."
    /// The answer to a digit that is none of the card's answers.
    static let guessRangeAnswer = "Digits 1 to 3 answer the card's question: one of its three answers."
    /// The answer to a digit where the card asks nothing.
    static let digitsAnswer = "Digits answer the card's question, and pick a lesson in m's box."
    /// The answer to `e` before the Completion lesson's question is answered.
    static let endFirstAnswer = "First your guess: a digit, 1 to 3, for the question below; then e."
    /// The answer to `v` before the Completion lesson's question is answered.
    static let relayFirstAnswer = "First your guess: a digit, 1 to 3, for the question below; then v."

    /// The answer to the question a late key asked for its lesson (`number`: the learner's guess).
    static func guessedAnswer(_ number: Int, key: Unicode.Scalar) -> String {
        "You said \(number) (\(Lesson.handedChoices[number - 1])): \(key) subscribed, its lane answers."
    }
    /// The answer to going to a lesson once the session has ended.
    static let endedAnswer = "The session has ended: q, then colourful-ball learn N for lesson N."

    /// The answer to a late subscriber `kind` subscribed in a lesson that `wants` another: it did
    /// subscribe (a real subscription, on its own lane), and it is not the lesson's.
    static func wrongKindAnswer(_ kind: LateSubscriber, wants: LateSubscriber) -> String {
        "\(kind.key) subscribed a late \(kind.plainName), its own lane (\(kind.key) cancels it); the lesson's is \(wants.key)."
    }

    /// The answer to an arrow that moved nothing: the ball was at the edge, so the position
    /// subject published nothing (a subject sends what changes: nothing ran after it).
    package static let edgeAnswer = "At the edge: the ball did not move, so position published nothing."

    /// The answer to a Replay(3) subscriber handed only `handed` values (the subject was made
    /// before three came).
    static func replayAnswer(handed: Int) -> String {
        let moves = LateSubscriber.replayBufferSize - handed
        return
            "Handed \(handed): all it held. Move \(moves == 1 ? "once" : "\(moves) times"), then r twice (cancel, again)."
    }

    /// The lessons as a box over the ball (`m`): each with its done mark and what it taught,
    /// the one shown marked; its number goes to one (`typed`: the digits typed so far, which
    /// the title shows, while a second could follow).
    static func lessonsBox(done: Set<Int>, shown: Int, typed: Int? = nil) -> HelpText {
        let rows = Lesson.all.enumerated().map { index, lesson in
            // A lesson's point once it is done: before, it would answer the lesson's question.
            HelpRow(
                keys: "\(done.contains(index) ? "✓" : " ") \(index + 1)\(index == shown ? " ◂" : "")",
                does: done.contains(index) ? "\(lesson.title): \(lesson.learnt)" : lesson.title)
        }
        let last = Lesson.all.count
        var box = HelpText(
            title: typed.map { "Lesson \($0)…: a second digit (\($0 * 10) to \(min(last, $0 * 10 + 9))), or Enter" }
                ?? "The lessons (✓ done): the point of each done",
            rows: rows,
            footer: last >= 10
                ? "its number goes to a lesson (1 Enter: lesson 1); other keys close"
                : "a digit goes to that lesson; other keys close")
        box.choice = .lessons
        return box
    }

    /// Each answer the learner can give to a card's question, and none.
    static let guesses: [Int?] = [nil] + (1...Lesson.handedChoices.count).map(Optional.some)

    /// The answers a card can give in place of its note, in any lesson.
    package static let answers: [String] = {
        let kinds = LateSubscriber.allCases
        return [
            leaveAnswer, notDoneAnswer, notAnsweredAnswer, closedLanesAnswer, predictFirstAnswer, operatorFirstAnswer,
            moveFirstAnswer, hintAfterGuessAnswer, publishFirstAnswer, endFirstAnswer, boundBackAnswer, copiesOffAnswer,
            guessRangeAnswer, digitsAnswer,
            relayFirstAnswer, endedAnswer, noNextAnswer, noNextEndedAnswer, edgeAnswer,
            widestLookAlike,
        ]
            + Lesson.all.flatMap(\.keys).map(elsewhereAnswer(key:)) + Lesson.all.compactMap { $0.outOfOrder?.words }
            + [TerminalPalette.ansi8, .ansi16].compactMap { fewColoursAnswer(.palette($0)) }
            + kinds.flatMap { kind in kinds.filter { $0 != kind }.map { wrongKindAnswer(kind, wants: $0) } }
            + (0..<LateSubscriber.replayBufferSize).map(replayAnswer(handed:))
            + Lesson.all.compactMap(\.wants).flatMap { kind in
                Lesson.handedChoices.indices.map { guessedAnswer($0 + 1, key: kind.key) }
            }
    }()

    /// The cards of lesson `index` (``Lesson/all``'s count: the closing card) in every state but
    /// the answers: done or not, hint or not, each guess, every mark to explain, the share counts
    /// as wide as a long tour makes them, the lessons left.
    package static func cards(of index: Int) -> [LessonCard] {
        let widest = MapCounts(positions: 99_999, shared: 99_999, unshared: 199_998)
        let marks = UntaughtMark.shownFirst
        // A guess only where the card asks for one.
        let asked = index < Lesson.all.count && Lesson.all[index].predicts != nil
        return (asked ? guesses : [nil]).flatMap { guess in
            [
                card(index, done: true, hint: false, answer: nil, predicted: guess, marks: marks),
                card(index, done: true, hint: false, answer: nil, predicted: guess, marks: marks, last: true),
                card(index, done: false, hint: false, answer: nil, predicted: guess, marks: marks),
                card(index, done: false, hint: true, answer: nil, predicted: guess),
            ]
        } + [
            // The longest list of lessons left: every other one (runs would be shorter).
            card(
                index, done: true, hint: false, answer: nil, left: Array(stride(from: 0, to: Lesson.all.count, by: 2))),
            card(index, done: false, hint: false, answer: nil, runs: widest),
            card(index, done: true, hint: false, answer: nil, runs: widest),
            card(index, done: false, hint: false, answer: nil, scan: .widest),
            card(index, done: false, hint: false, answer: nil, cleared: [.distinctUntilChanged]),
            card(index, done: false, hint: false, answer: nil, cleared: [.distinctUntilChanged], timeViewOff: true),
        ]
            // What the lesson's start changed, with each guess (said after the choices).
            + guesses.map {
                card(
                    index, done: false, hint: false, answer: nil, predicted: $0, cleared: [.distinctUntilChanged],
                    timeViewOff: true)
            }
            // A count read after many resizes, with each guess.
            + guesses.map { card(index, done: true, hint: false, answer: nil, predicted: $0, read: 99_999, last: true) }
            // A late key's lesson's question, asked for its key, with the marks on the lanes.
            + Lesson.all.compactMap(\.wants).flatMap { kind in
                [true, false].map { card(index, done: $0, hint: false, answer: nil, asksFor: kind, marks: marks) }
            }
    }

    /// Every card the tour can show, in any state, answers included (what its rows must hold).
    package static var everyCard: [LessonCard] {
        (0...Lesson.all.count).flatMap { index in
            cards(of: index)
                + guesses.flatMap { guess in
                    answers.map { card(index, done: false, hint: false, answer: $0, predicted: guess) }
                }
        }
    }

    /// Each lesson's card parts (and the closing card's): its text (and each answer, which takes
    /// the setting's place while the card asks its question), and every task and note it can show
    /// (an answer takes the note's place). The parts wrap on their own, so the rows a lesson needs
    /// are its title's, its tallest text's, its tallest task's and its tallest note's.
    static let cardParts: [(texts: [String], tasks: Set<String>, notes: Set<String>)] = (0...Lesson.all.count)
        .map { index in
            let cards = cards(of: index)
            let asks = index < Lesson.all.count && Lesson.all[index].predicts != nil
            return ([cards[0].text] + (asks ? answers : []), Set(cards.map(\.task)), Set(cards.map(\.note) + answers))
        }

    /// How many rows the tour's cards take in a terminal `columns` wide: the most any can take
    /// (each string wrapped once).
    package static func cardRows(columns: Int) -> Int {
        let width = LessonCard.textWidth(columns: columns)
        var lines: [String: Int] = [:]
        func count(_ text: String) -> Int {
            if let known = lines[text] { return known }
            let counted = text.wrapped(toWidth: width).count
            lines[text] = counted
            return counted
        }
        return cardParts.map { part in
            1 + (part.texts.map(count).max() ?? 0) + (part.tasks.map(count).max() ?? 0)
                + (part.notes.map(count).max() ?? 0)
        }.max() ?? 0
    }

    /// How the tour lays out a terminal of `terminal`: its cards' rows, the ball's area, the lanes.
    package static func layout(of terminal: ScreenSize) -> TourLayout {
        let rows = cardRows(columns: terminal.columns)
        // What a narrower terminal needs is worked out only for one.
        let narrow = terminal.columns < TourLayout.minimumColumns
        return TourLayout(
            terminal: terminal, cardRows: rows,
            cardRowsAtMinimum: narrow ? cardRows(columns: TourLayout.minimumColumns) : rows)
    }
}
