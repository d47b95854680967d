import BallModel
import BallProgram
import BallRendering
import BallStreams
import BallTestSupport
import Testing

/// What the tour's card answers to a key that does not do the task, and the ways it names:
/// each lesson driven by its id through the real loop.
@Suite("The tour's answers on the card")
struct TourAnswerTests {
    /// The choices as the card lists them: `1 nothing · 2 the latest position · …`.
    static func choices(_ lesson: Lesson) -> String {
        lesson.choices.enumerated().map { "\($0.offset + 1) \($0.element)" }.joined(separator: " · ")
    }

    @Test("while a card asks its question, an answer to a try leaves the question and its choices in view")
    func answerKeepsTheChoices() throws {
        for (index, lesson) in Lesson.all.enumerated() where lesson.predicts != nil {
            let asks = try #require(lesson.asks)
            // n too soon, the hint, a digit that is no choice: each answered on the card.
            for (key, answer) in [("n", "Not done yet: first your guess"), ("t", "The hint comes after your guess")]
                + [("9", "Digits 1 to 3 answer the card's question")]
            {
                let pilot = Pilot<Learn>(first: index)
                pilot.type(key.unicodeScalars.first!)
                let card = LearnTests.card(pilot)
                // On the card under the setting where its rows hold both, else on the status line.
                let status = pilot.lines.last ?? ""
                #expect(
                    card.contains(answer) || status.contains(answer),
                    "lesson \(index + 1), \(key): \(card) / \(status)")
                let setting = (lesson.setup ?? lesson.text).split(separator: " ").joined(separator: " ")
                #expect(card.contains(setting), "lesson \(index + 1), \(key): the setting is gone: \(card)")
                #expect(card.contains(asks), "lesson \(index + 1), \(key): the question is gone: \(card)")
                #expect(
                    card.contains(Self.choices(lesson)), "lesson \(index + 1), \(key): the choices are gone: \(card)")
                #expect(!pilot.learn.isDone && pilot.learn.lesson == index)
            }
        }
        // Lesson 2, where a move answers the question: the move refused, the choices stay; the
        // next key brings the setting back.
        let ghost = Pilot<Learn>(first: LearnTests.index("ghost"))
        ghost.press(.right)
        let card = LearnTests.card(ghost)
        #expect(card.contains("First your guess: a digit, 1 to 3, for the question below; then move."), "\(card)")
        #expect(card.contains(Self.choices(Lesson.all[LearnTests.index("ghost")])), "\(card)")
        ghost.type("2")
        #expect(LearnTests.card(ghost).contains("You said 2 (nothing)"), "\(LearnTests.card(ghost))")
    }

    @Test(
        "Completion's t before the guess: the setting, the question and its choices stay; the answer on the status line until the next key"
    )
    func hintBeforeTheGuessInCompletion() throws {
        let index = LearnTests.index("completion")
        let lesson = Lesson.all[index]
        let pilot = Pilot<Learn>(first: index)
        let before = LearnTests.card(pilot)
        pilot.type("t")
        let card = LearnTests.card(pilot)
        #expect(card == before, "the card as it was: \(card)")
        #expect(card.contains(try #require(lesson.setup)) && card.contains(Self.choices(lesson)), "\(card)")
        #expect(pilot.lines.last?.contains("The hint comes after your guess") == true, "\(pilot.lines.last ?? "")")
        pilot.press(.right)
        #expect(pilot.lines.last?.contains("The hint comes after") == false, "\(pilot.lines.last ?? "")")
        // Where the card's rows hold the setting and the answer (lesson 2's setting is short),
        // the answer goes under the setting.
        let ghost = Pilot<Learn>(first: LearnTests.index("ghost"))
        ghost.type("t")
        let ghostCard = LearnTests.card(ghost)
        let ghostLesson = Lesson.all[LearnTests.index("ghost")]
        #expect(
            ghostCard.contains("\(ghostLesson.setup ?? ghostLesson.text) \(Learn.hintAfterGuessAnswer)"), "\(ghostCard)"
        )
    }

    @Test("no card names a move by a vi key (H J K L), which reads as a value's letter: the arrows the card teaches")
    func noViKeys() throws {
        let vi = try Regex(#"(^|[^\w+])[HJKLhjkl] ×"#)
        for card in Learn.everyCard {
            for part in [card.title, card.text, card.task, card.note] {
                #expect(part.firstMatch(of: vi) == nil, "\(part)")
            }
        }
    }

    @Test("lesson 8's note says the way to a dark band in arrow keys, and those presses reach it")
    func scanNoteInArrows() throws {
        let pilot = Pilot<Learn>(first: LearnTests.index("scan"))
        let card = LearnTests.card(pilot)
        let way = try #require(
            card.firstMatch(of: #/a dark band \d+ (right|left): (Shift\+(→|←) ×(\d+))?(, )?((→|←) ×(\d+))?/#),
            "\(card)")
        let direction: Direction = way.output.1 == "right" ? .right : .left
        for _ in 0..<(way.output.4.flatMap { Int($0) } ?? 0) { pilot.press(direction, shifted: true) }
        for _ in 0..<(way.output.8.flatMap { Int($0) } ?? 0) { pilot.press(direction) }
        #expect(pilot.learn.isDone, "\(LearnTests.card(pilot))")
    }
}

/// The tour's keys whose lane or screen answers a lesson's question (`b p r v`, `o u e`): each
/// waits for that question, whatever lesson it is pressed in.
@Suite("The tour's keys wait for their lesson's question")
struct TourKeyTests {
    /// Whether a late subscriber of `kind` is subscribed now.
    static func live(_ pilot: Pilot<Learn>, _ kind: LateSubscriber) -> Bool {
        pilot.learn.play.streams.lateLane(kind)?.isLive == true
    }

    /// The card's question for a late key pressed before its lesson's question was answered.
    static func asked(_ kind: LateSubscriber) -> String {
        let own = Lesson.all.firstIndex { $0.wants == kind }! + 1
        return
            "\(kind.key) is lesson \(own)'s: what is a late \(kind.plainName) subscriber handed as it subscribes?"
    }

    @Test(
        "a late key after its lesson was skipped asks that lesson's question first; a digit answers it and subscribes")
    func skippedLessonAsksFirst() {
        // Lesson 6, lesson 3 not done, lesson 6's own guess given: b would draw ^ and a letter.
        let replay = Pilot<Learn>(first: LearnTests.index("replay"))
        replay.type("3")
        replay.type("b")
        #expect(!Self.live(replay, .behavior))
        var card = LearnTests.card(replay)
        #expect(card.contains(Self.asked(.behavior)), "\(card)")
        #expect(card.contains("1 nothing · 2 the latest position · 3 the last three positions"), "\(card)")
        #expect(!replay.lines.contains { $0.contains("late Behavior") && $0.contains("^") }, "no lane drawn")
        replay.type("2")
        #expect(Self.live(replay, .behavior))
        card = LearnTests.card(replay)
        #expect(card.contains("You said 2 (the latest position): b subscribed, its lane answers."), "\(card)")
        // Answered once: b cancels and subscribes again without asking.
        replay.type("b")
        replay.type("b")
        #expect(Self.live(replay, .behavior) && !LearnTests.card(replay).contains(Self.asked(.behavior)))
        // Another key than a digit leaves the question unanswered: the key asks again.
        let filter = Pilot<Learn>(first: LearnTests.index("filter"))
        filter.type("p")
        filter.press(.right)
        #expect(!LearnTests.card(filter).contains(Self.asked(.publish)) && !Self.live(filter, .publish))
        #expect(LearnTests.card(filter).contains("p's question left: nothing subscribed (p asks again)."))
        filter.type("p")
        #expect(LearnTests.card(filter).contains(Self.asked(.publish)) && !Self.live(filter, .publish))
        // A digit that is no answer keeps the question.
        filter.type("7")
        #expect(LearnTests.card(filter).contains(Self.asked(.publish)) && !Self.live(filter, .publish))
        // With the lesson done, its key subscribes anywhere after it, as before.
        let done = Pilot<Learn>(first: LearnTests.index("filter"), done: [LearnTests.index("publish")])
        done.type("p")
        #expect(Self.live(done, .publish))
    }

    @Test(
        "lesson 7 from its own start: a late key asks its lesson's question, then subscribes, cancels, and the move passes"
    )
    func cancelFromItsOwnStart() {
        let pilot = Pilot<Learn>(first: LearnTests.index("cancel"))
        pilot.type("r")
        #expect(LearnTests.card(pilot).contains(Self.asked(.replay)) && !Self.live(pilot, .replay))
        pilot.type("3")
        #expect(Self.live(pilot, .replay))
        pilot.type("r")
        pilot.press(.right)
        #expect(pilot.learn.isDone, "\(LearnTests.card(pilot))")
    }

    @Test("v, o, u and e wait for their own lesson: elsewhere the card says which, and nothing is subscribed or bound")
    func ownLessonKeys() {
        let pilot = Pilot<Learn>(first: LearnTests.index("cancel"))
        for (key, id) in [("v", "completion"), ("o", "why-behavior"), ("u", "share"), ("e", "completion")] {
            pilot.type(key.unicodeScalars.first!)
            let number = LearnTests.index(id) + 1
            #expect(
                LearnTests.card(pilot).contains(
                    "\(key) belongs to lesson \(number), \(Lesson.all[number - 1].title): m \(number) goes there."),
                "\(key): \(LearnTests.card(pilot))")
        }
        #expect(!Self.live(pilot, .relay) && pilot.learn.facts.endedAt == nil && pilot.learn.facts.mapRuns == nil)
        #expect(pilot.learn.facts.boundThroughPublishAt == nil)
        // In Completion, v before the guess: the guess first (its lane would show the latest).
        let completion = Pilot<Learn>(first: LearnTests.index("completion"))
        completion.type("v")
        #expect(!Self.live(completion, .relay))
        #expect(
            LearnTests.said(completion).contains("First your guess: a digit, 1 to 3, for the question below; then v."))
    }

    @Test(
        "Completion from its own start: after e, b and p are handed the end alone and subscribe; r asks lesson 6's question"
    )
    func completionFromItsOwnStart() {
        let pilot = Pilot<Learn>(first: LearnTests.index("completion"))
        pilot.type("2")
        // Before the end, b would be handed the latest: lesson 3's answer.
        pilot.type("b")
        #expect(!Self.live(pilot, .behavior) && LearnTests.card(pilot).contains(Self.asked(.behavior)))
        pilot.press(.down)
        pilot.type("e")
        for kind in [LateSubscriber.behavior, .publish] {
            pilot.toggleLateKey(kind)
            #expect(pilot.learn.play.streams.lateLane(kind)?.handed == 0, "\(kind): \(LearnTests.card(pilot))")
        }
        pilot.type("r")
        #expect(pilot.learn.play.streams.lateLane(.replay) == nil)
        #expect(LearnTests.card(pilot).contains(Self.asked(.replay)), "\(LearnTests.card(pilot))")
        pilot.type("3")
        pilot.type("v")
        #expect(pilot.learn.isDone, "\(LearnTests.card(pilot))")
    }
}

extension Pilot where Program == Learn {
    /// Presses the key of a late subscriber of `kind`: `b`, `p`, `r`, `v`.
    fileprivate func toggleLateKey(_ kind: LateSubscriber) { type(kind.key) }
}
