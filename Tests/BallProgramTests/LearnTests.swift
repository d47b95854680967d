import BallModel
import BallProgram
import BallTestSupport
import ColourCore
import Testing

/// `colourful-ball learn`: every lesson driven through the real run loop, with the keys that do
/// its task and with keys that must not.
@Suite("The learn tour")
struct LearnTests {
    /// The card's rows (the top of the frame) as one text.
    static func card(_ pilot: LearnPilot) -> String { pilot.lines.prefix(8).joined(separator: "\n") }

    /// Moves the ball one cell at a time until a move gives a column `matching` (at most `limit`
    /// moves, sweeping right and down).
    static func move(_ pilot: LearnPilot, until done: () -> Bool, limit: Int = 200) {
        var step = 0
        while !done(), step < limit {
            pilot.press(step % 23 == 22 ? .down : (step / 23) % 2 == 0 ? .right : .left)
            step += 1
        }
    }

    @Test("each lesson: keys that are not its task leave it open, its task completes it, n goes on")
    func everyLesson() {
        let pilot = LearnPilot()
        // 1. One subject: a press of s is not a colour change; moving until the colour changes is.
        #expect(Self.card(pilot).contains("Lesson 1 of 8 · One subject"))
        pilot.type("s")
        pilot.type("s")
        #expect(!pilot.learn.isDone)
        pilot.type("n")
        #expect(pilot.learn.lesson == 0, "n does nothing before the task is done")
        Self.move(pilot) { pilot.learn.isDone }
        #expect(pilot.learn.isDone && pilot.completed == [0])
        #expect(Self.card(pilot).contains("Done: position published a new centre"))
        pilot.type("n")
        // 2. The streams: b is not s.
        #expect(pilot.learn.lesson == 1)
        pilot.type("b")
        #expect(!pilot.learn.isDone)
        pilot.type("s")
        #expect(pilot.learn.isDone)
        pilot.type("n")
        // 3. A ghost: a move that changes the colour is not one; a move within a band is.
        pilot.type("h")
        #expect(Self.card(pilot).contains("Hint: One arrow press, inside a band"))
        Self.move(pilot) { pilot.learn.isDone }
        #expect(pilot.learn.facts.columns.contains { $0.position != nil && $0.ballColour == nil })
        pilot.type("n")
        // 4. Behavior: p is not b. (The Behavior lane of lesson 2 began before this lesson.)
        pilot.type("p")
        #expect(!pilot.learn.isDone, "a Publish subscriber is not a Behavior one")
        pilot.type("b")  // Cancels lesson 2's Behavior subscriber.
        #expect(!pilot.learn.isDone)
        pilot.type("b")
        #expect(pilot.learn.isDone)
        pilot.type("n")
        // 5. Publish: b is not p; p alone is not enough (nothing received yet); p and a move is.
        pilot.type("p")  // Cancels lesson 4's Publish subscriber.
        pilot.type("p")
        #expect(!pilot.learn.isDone, "subscribed, but nothing received yet")
        pilot.press(.right)
        #expect(pilot.learn.isDone)
        pilot.type("n")
        // 6. Replay: v is not r.
        pilot.type("v")
        #expect(!pilot.learn.isDone)
        pilot.type("r")
        #expect(pilot.learn.isDone)
        pilot.type("n")
        // 7. Cancel: a new subscriber is not a cancel; a key again is.
        pilot.press(.up)
        #expect(!pilot.learn.isDone)
        pilot.type("r")
        #expect(pilot.learn.isDone)
        pilot.type("n")
        // 8. The black band.
        Self.move(pilot, until: { pilot.learn.isDone }, limit: 600)
        #expect(pilot.learn.isDone)
        #expect(pilot.learn.facts.columns.contains { $0.ballColour != nil && $0.background == nil })
        pilot.type("n")
        #expect(Self.card(pilot).contains("All 8 lessons done"))
        #expect(pilot.completed == Array(0..<8))
    }

    @Test("a lesson's check reads only what happened since it began")
    func sinceTheLessonBegan() {
        // Lesson 4 (Behavior) begun after a Behavior subscriber already exists: not done by it.
        let pilot = LearnPilot(first: 3)
        #expect(Self.card(pilot).contains("Lesson 4 of 8 · Behavior"))
        pilot.type("b")
        #expect(pilot.learn.isDone)
        let again = LearnPilot(first: 6)
        again.type("b")  // Subscribes: not a cancel.
        #expect(!again.learn.isDone)
        again.type("b")
        #expect(again.learn.isDone)
    }

    @Test("the card fits at 80×24 and 24×8: every line whole or cut with …, the ball still shows below it")
    func cardFits() {
        for size in [ScreenSize(columns: 80, rows: 24), ScreenSize(columns: 24, rows: 8)] {
            let pilot = LearnPilot(screen: size)
            let lines = pilot.lines
            #expect(lines[0].hasPrefix(" Lesson 1 of 8"), "\(size)")
            // At 80×24 the whole card shows: the task's last words are on screen.
            if size.columns == 80 { #expect(Self.card(pilot).contains("until its colour changes.")) }
            #expect(lines.allSatisfy { $0.count <= size.columns })
        }
    }

    @Test(
        "the card in every colour tier and with no colour (NO_COLOR): its text whole, in the status bar's colours",
        arguments: [ColourDepth.direct, .palette(.xterm256), .palette(.ansi16), .palette(.ansi8), .monochrome])
    func everyTier(depth: ColourDepth) {
        let pilot = LearnPilot(depth: depth)
        #expect(Self.card(pilot).contains("Lesson 1 of 8 · One subject"), "\(depth)")
        #expect(Self.card(pilot).contains("until its colour changes."), "\(depth)")
        // The card's cells are the status bar's: the same look as the status line's text.
        let frame = pilot.terminal.frame!
        let status = frame[1, 23]
        let card = frame[1, 0]
        #expect(card.background == status.background && card.reverse == status.reverse, "\(depth)")
    }

    @Test(
        "lessons pass only on what the learner did in them: not on keys before n, not on a resize, not on the start's one value, not behind \"too small\""
    )
    func onlyWhatWasDone() {
        // A cancel made after lesson 6 was done, before n, does not pass lesson 7 (Cancel).
        let replay = LearnPilot(first: 5)
        Self.move(replay, until: { replay.learn.play.session.viewModel.position.value.centre.column > 44 })
        replay.type("r")
        #expect(replay.learn.isDone, "handed three after the moves")
        replay.type("r")  // A cancel, before n.
        replay.type("n")
        #expect(replay.learn.lesson == 6 && !replay.learn.isDone)
        replay.type("h")
        #expect(!replay.learn.isDone, "the cancel before the lesson began is not this lesson's")
        replay.type("v")
        replay.type("v")
        #expect(replay.learn.isDone, "its own cancel")
        // Publish: a value from a resize is not one from a move.
        let publish = LearnPilot(first: 4)
        publish.type("p")
        publish.run([.resize(ScreenSize(columns: 90, rows: 26))])
        #expect(!publish.learn.isDone, "a resize publishes a position, but the learner did not move")
        publish.press(.left)
        #expect(publish.learn.isDone)
        // Replay(3) at the start holds one value: r is not the lesson done, and says why.
        let early = LearnPilot(first: 5)
        early.type("s")
        early.type("s")
        early.type("r")
        #expect(!early.learn.isDone)
        #expect(
            early.learn.binding.model.notice?.hasPrefix("handed 1:") == true,
            "\(String(describing: early.learn.binding.model.notice))")
        Self.move(early, until: { early.learn.play.session.viewModel.position.value.centre.column > 44 })
        #expect(!early.learn.isDone)
        early.type("r")
        early.type("r")
        #expect(early.learn.isDone, "cancelled and subscribed again after the moves: handed three")
        // learn 8 done, n: the first lesson not done, not the closing card.
        let last = LearnPilot(first: 7)
        Self.move(last, until: { last.learn.isDone }, limit: 600)
        last.type("n")
        #expect(last.learn.lesson == 0 && Self.card(last).contains("Lesson 1 of 8"))
        let allDone = LearnPilot(first: 7, done: Set(0..<7))
        Self.move(allDone, until: { allDone.learn.isDone }, limit: 600)
        allDone.type("n")
        #expect(Self.card(allDone).contains("All 8 lessons done"))
        // Too small to show the ball: nothing passes until the learner can see it.
        let small = LearnPilot(first: 1, screen: ScreenSize(columns: 20, rows: 6))
        small.type("s")
        #expect(!small.learn.isDone)
        small.run([.resize(ScreenSize(columns: 80, rows: 24))])
        #expect(small.learn.isDone, "seen once the window is large enough")
    }
}
