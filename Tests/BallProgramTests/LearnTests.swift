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
}
