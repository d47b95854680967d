import BallModel
import BallProgram
import BallRendering
import BallStreams
import BallTestSupport
import ColourCore
import Testing

/// `colourful-ball learn`: every lesson driven through the real run loop, with the keys that do
/// its task and with keys that must not.
@Suite("The learn tour")
struct LearnTests {
    /// The card's rows (the top of the frame) as one text, its words as wrapped joined by one
    /// space.
    static func card(_ pilot: Pilot<Learn>) -> String {
        pilot.lines.prefix(8).joined(separator: " ").split(separator: " ").joined(separator: " ")
    }

    /// What the tour says now: the card's rows, and the status line, which says an answer the
    /// card has no row for.
    static func said(_ pilot: Pilot<Learn>) -> String { "\(card(pilot)) \(pilot.lines.last ?? "")" }

    /// The index of the lesson named `id` (its place in ``Lesson/all``; a name no lesson has is
    /// one past the end, which no test reaches).
    static func index(_ id: String) -> Int { Lesson.all.firstIndex { $0.id == id } ?? Lesson.all.count }

    /// The title line of the lesson named `id`: `Lesson 3 of 15 · Behavior`.
    static func heading(_ id: String) -> String {
        let index = index(id)
        return "Lesson \(index + 1) of \(Lesson.all.count) · \(Lesson.all[index].title)"
    }

    /// The sizes the tour is checked at: 80×24, and the smallest it accepts (at its narrowest).
    static let tourSizes = [
        ScreenSize(columns: 80, rows: 24),
        Learn.layout(of: ScreenSize(columns: TourLayout.minimumColumns, rows: 1)).needed,
    ]

    /// The drawn rows, each without the blank cell before it.
    static func rows(_ pilot: Pilot<Learn>) -> [Substring] { pilot.lines.map { $0.drop { $0 == " " } } }

    /// Moves the ball one cell at a time until a move gives a column `matching` (at most `limit`
    /// moves, sweeping right and down).
    static func move(_ pilot: Pilot<Learn>, until done: () -> Bool, limit: Int = 200) {
        var step = 0
        while !done(), step < limit {
            pilot.press(step % 23 == 22 ? .down : (step / 23) % 2 == 0 ? .right : .left)
            step += 1
        }
    }

    @Test("each lesson: keys that are not its task leave it open, its task completes it, n goes on")
    func everyLesson() {
        let pilot = Pilot<Learn>()
        // Each lesson in the list's order, by name: those this walk has no keys of its own for
        // are done by their script (a lesson added anywhere leaves the others' keys as they are).
        for lesson in Lesson.all.indices {
            #expect(pilot.learn.lesson == lesson)
            switch Lesson.all[lesson].id {
            case "one-subject":
                // One subject: a press of s is not a colour change; n before the task is answered;
                // moving until the colour changes is half of it; the lanes open (s) the other half.
                #expect(Self.card(pilot).contains("\(Self.heading("one-subject"))"))
                pilot.type("s")
                // The lanes' marks explained as they are drawn: → once an arrow is on the lanes,
                // not before (a resize is no arrow).
                pilot.run([.resize(ScreenSize(columns: 96, rows: 30)), .resize(ScreenSize(columns: 80, rows: 24))])
                #expect(!Self.card(pilot).contains("→ ← ↑ ↓"), "\(Self.card(pilot))")
                pilot.press(.right)
                #expect(Self.card(pilot).contains("→ ← ↑ ↓: an arrow key"), "\(Self.card(pilot))")
                pilot.type("s")
                #expect(!pilot.learn.isDone)
                pilot.type("n")
                #expect(pilot.learn.lesson == 0, "n does not go on before the task is done")
                #expect(Self.card(pilot).contains("Not done yet"), "and says so")
                Self.move(pilot) { pilot.learn.facts.moves.contains { $0.ballColour != nil } }
                #expect(!pilot.learn.isDone, "the colour changed, but the lanes are not open")
                pilot.type("s")
                #expect(pilot.learn.isDone && pilot.completed == [0])
                #expect(Self.card(pilot).contains("Done: position published centres (letters)"))
                // The marks drawn before their lessons, each said in a few words: ^ on every lane, and
                // the · of a move that kept the colour.
                #expect(Self.card(pilot).contains("^: subscribed here (lesson \(Self.index("behavior") + 1))"))
            case "ghost":
                // A ghost: the card asks first what background gets; a move before the guess is
                // answered and moves nothing (lesson 1's · is explained there, not what follows it).
                // Then a move that changes the colour is not one; a move within a band is. The hint comes
                // under the task, which stays.
                #expect(pilot.learn.lesson == 1)
                #expect(
                    Self.card(pilot).contains(
                        "Predict: one cell in a band, the colour the same: what does background get?"))
                #expect(!Self.card(pilot).contains("goes no further"), "the answer not on the card before the guess")
                let ghostStart = pilot.learn.play.session.state.position
                pilot.press(.right)
                #expect(pilot.learn.play.session.state.position == ghostStart, "no move before the guess")
                #expect(Self.said(pilot).contains("First your guess"))
                pilot.type("1")  // A wrong guess: the lanes will answer it.
                pilot.type("t")
                #expect(Self.card(pilot).contains("Hint: One arrow press in a band"))
                #expect(Self.card(pilot).contains("Task: Move one cell so that the colour stays"))
                Self.move(pilot) { pilot.learn.isDone }
                #expect(Self.card(pilot).contains("You said 1 (■ the same colour again): the lane says no."))
                #expect(pilot.learn.facts.columns.contains { $0.position != nil && $0.ballColour == nil })
            case "behavior":
                // Behavior: the card asks first; b before an answer is answered, and subscribes
                // nothing. p is not b, and the card says so.
                #expect(
                    Self.card(pilot).contains("Predict: what is a late Behavior subscriber handed as it subscribes?"))
                #expect(Self.card(pilot).contains("1 nothing · 2 the latest position · 3 the last three positions"))
                pilot.type("b")
                #expect(
                    pilot.learn.play.streams.lateLane(.behavior)?.isLive != true, "no subscription before the guess")
                #expect(Self.said(pilot).contains("First your guess"))
                pilot.type("1")  // A wrong guess: the lane will answer it.
                #expect(Self.card(pilot).contains("You said 1 (nothing). t: a hint"))
                pilot.type("p")
                #expect(!pilot.learn.isDone, "a Publish subscriber is not a Behavior one")
                // Its lane (^─) would answer lesson 4's question before lesson 4 asks it: it does not
                // subscribe, and the card says which lesson has it.
                #expect(Self.card(pilot).contains("p belongs to lesson 4, Publish: m 4 goes there."))
                #expect(pilot.learn.play.streams.lateLane(.publish)?.isLive != true)
                pilot.type("r")
                #expect(pilot.learn.play.streams.lateLane(.replay)?.isLive != true, "nor a Replay, lesson 6's")
                pilot.type("b")
                #expect(pilot.learn.isDone)
                #expect(Self.card(pilot).contains("You said 1 (nothing): the lane says no. n: the next lesson"))
            case "publish":
                // Publish: p subscribes (lesson 3's was cancelled when this one began); alone it is
                // not enough (nothing received yet); p and a move is. The right guess is said so.
                pilot.type("1")
                pilot.type("p")
                #expect(!pilot.learn.isDone, "subscribed, but nothing received yet")
                pilot.press(.right)
                #expect(pilot.learn.isDone)
                #expect(Self.card(pilot).contains("You said 1 (nothing): right."))
            case "why-behavior":
                // Why Behavior: o binds the screen's colours through a Publish copy of the chain: the
                // screen is the original's white view, the ball uncoloured, until the next move; the
                // session is as it was (no intent). A move before o is not the lesson.
                #expect(Self.card(pilot).contains("\(Self.heading("why-behavior"))"))
                pilot.press(.left)
                #expect(!pilot.learn.isDone)
                // The question first, with its choices; o before the guess binds nothing.
                #expect(Self.card(pilot).contains("Predict: bound through a Publish subject from launch"))
                #expect(
                    Self.card(pilot).contains(
                        "1 the current colours · 2 white, the ball hollow · 3 no ball, the colours kept"))
                #expect(!Self.card(pilot).contains("until its first value"), "the answer not on the card yet")
                pilot.type("o")
                #expect(pilot.learn.facts.boundThroughPublishAt == nil && Self.said(pilot).contains("First your guess"))
                pilot.run([.resize(ScreenSize(columns: 96, rows: 30)), .resize(ScreenSize(columns: 80, rows: 24))])
                #expect(!pilot.learn.isDone)
                pilot.type("2")
                #expect(Self.card(pilot).contains("o binds the screen as if through a Publish subject from launch"))
                let before = pilot.learn.play.session.state
                let columns = pilot.learn.play.streams.latestIndex
                pilot.type("o")
                #expect(pilot.learn.play.session.state == before && pilot.learn.play.streams.latestIndex == columns)
                let layout = pilot.learn.play.layout!
                let screenCell = { pilot.terminal.frame![1, layout.cardRows] }
                #expect(screenCell().background == .flatWhite, "nothing handed: the white view")
                #expect(pilot.lines.last?.contains("● flatWhite") == true, "\(pilot.lines.last ?? "")")
                #expect(!pilot.learn.isDone)
                pilot.press(.right)
                #expect(pilot.learn.isDone)
                let coloured = pilot.learn.play.session.state.background
                #expect(screenCell().background == coloured, "coloured by the first value through Publish")
                #expect(Self.card(pilot).contains("Done: Publish handed the screen nothing (copy.screen ^─)"))
                #expect(Self.card(pilot).contains("You said 2 (white, the ball hollow): right."))
                pilot.type("o")  // Back to the chain: its shares hand the latest at once, and the card says so.
                #expect(screenCell().background == coloured)
                #expect(Self.card(pilot).contains(Learn.boundBackAnswer), "\(Self.card(pilot))")
                pilot.type("o")  // Through Publish again; the next lesson binds back.
                #expect(screenCell().background == .flatWhite)
            case "replay":
                // Lesson 5 left the screen bound through Publish: each lesson begins bound to the chain itself.
                #expect(
                    pilot.terminal.frame![1, pilot.learn.play.layout!.cardRows].background
                        == pilot.learn.play.session.state.background)
                // Replay: v is not r, and waits for Completion's question (its lane would show it).
                pilot.type("3")
                pilot.type("v")
                #expect(!pilot.learn.isDone && pilot.learn.play.streams.lateLane(.relay) == nil)
                #expect(
                    Self.card(pilot).contains(
                        "v belongs to lesson \(Self.index("completion") + 1), Completion: m \(Self.index("completion") + 1) goes there."
                    ), "\(Self.card(pilot))")
                // A Behavior subscriber, lesson 3's done: it subscribes, and the card says it is not r.
                pilot.type("b")
                #expect(
                    Self.card(pilot).contains(
                        "b subscribed a late Behavior, its own lane (b cancels it); the lesson's is r."))
                #expect(pilot.learn.play.streams.lateLane(.behavior)?.isLive == true)
                pilot.type("r")
                #expect(pilot.learn.isDone)
                #expect(Self.card(pilot).contains("You said 3 (the last three positions): right."))
            case "cancel":
                // Cancel: a move is not a cancel, nor is a new subscriber; its key again is.
                pilot.press(.up)
                #expect(!pilot.learn.isDone)
                pilot.type("r")
                #expect(!pilot.learn.isDone, "lesson 6's Replay was cancelled when this one began: r subscribes")
                pilot.type("r")
                // Cancelled, but its point is what comes after: a move, and nothing on its lane.
                #expect(!pilot.learn.isDone, "a cancel alone")
                pilot.run([.resize(ScreenSize(columns: 96, rows: 30)), .resize(ScreenSize(columns: 80, rows: 24))])
                #expect(!pilot.learn.isDone, "a resize is not a move")
                // Subscribed again: its row draws what comes, so a move then is not it.
                pilot.type("r")
                pilot.press(.right)
                #expect(!pilot.learn.isDone, "the row's new lane got the move")
                pilot.type("r")
                pilot.press(.right)
                #expect(pilot.learn.isDone)
                let lanes = Self.rows(pilot).suffix(StreamPanel.tourRows + 1)
                let trimmed = lanes.map { String($0.reversed().drop { $0 == " " }.reversed()) }
                #expect(
                    trimmed.contains { $0.hasPrefix("late Replay(3)") && $0.hasSuffix("!") }
                        && trimmed.contains { $0.hasPrefix("position") && $0.last?.isLetter == true },
                    "the lane ends !, position got the move: \(lanes.joined(separator: "\n"))")
                #expect(Self.card(pilot).contains("Done: !: unsubscribed. The subject went on"))
                // Where the rows are short (the slot's lane takes one), a lane that ended gives
                // its row to the relay's, and the lanes say so: none is replaced silently.
                let folding = Pilot<Learn>(first: Self.index("filter"), done: Set(Lesson.all.indices))
                for key: Unicode.Scalar in ["f", "2", "b", "b", "p", "p", "r", "r", "v"] { folding.type(key) }
                #expect(
                    folding.lines.contains {
                        $0.contains("(+late Publish,late Replay") || $0.contains("late Replay lanes)")
                            || $0.contains("(no room for the late Replay")
                    },
                    "\(folding.lines.joined(separator: "\n"))")
            case "scan":
                // scan remembers: the black band. e is not this lesson's, and ends nothing.
                pilot.type("e")
                #expect(
                    Self.card(pilot).contains("e belongs to lesson \(Self.index("completion") + 1), Completion"),
                    "\(Self.card(pilot))")
                Self.move(pilot, until: { pilot.learn.isDone }, limit: 600)
                #expect(pilot.learn.isDone)
                #expect(pilot.learn.facts.columns.contains { $0.ballColour != nil && $0.background == nil })
            case "share":
                // share: u subscribes two subscribers to each copy of map; the card counts the runs,
                // measured by the closures: once a position shared, once a subscriber unshared.
                #expect(Self.card(pilot).contains("\(Self.heading("share"))"))
                pilot.press(.right)
                #expect(!pilot.learn.isDone, "moves without the copies")
                let unmoved = (pilot.learn.play.session.state, pilot.learn.play.streams.latestIndex)
                pilot.type("t")
                #expect(Self.card(pilot).contains("Hint: position hands each new subscriber its value"))
                pilot.type("u")
                // position, a Behavior subject, hands each subscription its value at once: map runs as
                // u subscribes, once for the shared copy's two subscribers, once each for the unshared.
                #expect(Self.card(pilot).contains("map ran: shared 1, unshared 2, for 1 position"))
                #expect(
                    (pilot.learn.play.session.state, pilot.learn.play.streams.latestIndex) == unmoved,
                    "the copies look; they move nothing and record no intent")
                pilot.press(.right)
                pilot.press(.right)
                #expect(Self.card(pilot).contains("map ran: shared 3, unshared 6, for 3 positions"))
                #expect(!pilot.learn.isDone)
                pilot.press(.left)
                #expect(pilot.learn.isDone)
                #expect(Self.card(pilot).contains("n: the next lesson · map ran shared 4, unshared 8"))
                // u again unsubscribes the copies, and the card says so.
                pilot.type("u")
                #expect(Self.card(pilot).contains("u: the copies unsubscribed"), "\(Self.card(pilot))")
                pilot.type("u")
            case "filter":
                // filter: a move with nothing in the slot is not it; f 2 puts filter in (its lane
                // takes a late row: learn's lanes keep their rows), and a move left of the middle is.
                #expect(Self.card(pilot).contains("\(Self.heading("filter"))"))
                pilot.press(.left)
                #expect(!pilot.learn.isDone)
                let lanes = Self.rows(pilot).suffix(StreamPanel.tourRows + 1)
                // The slot's lane is labelled as the code names it, never read as a second `position`.
                #expect(lanes.filter { $0.hasPrefix("position") }.count == 1, "\(lanes)")
                #expect(lanes.contains { $0.hasPrefix("slotted ") }, "the slot's lane, nothing in it yet: \(lanes)")
                pilot.type("f")
                #expect(
                    pilot.lines.contains { $0.contains("position.filter { $0.isInRightHalf }") }, "the operators box")
                pilot.type("2")
                #expect(pilot.learn.play.session.state.slot == [.filter])
                let filtered = Self.rows(pilot).suffix(StreamPanel.tourRows + 1)
                // filter's part of the slot's lane starts ├ (named above it where the rows allow).
                #expect(
                    filtered.contains { $0.hasPrefix("slotted") && $0.contains("├") }
                        && !filtered.contains { $0.hasPrefix("late Relay") })
                for _ in 0..<45 where !pilot.learn.isDone { pilot.press(.left) }
                #expect(pilot.learn.isDone)
                #expect(pilot.learn.play.session.state.position.centre.column < 40)
            case "counter":
                // the counter: moves with filter still in the slot are not it; f 9 puts the counter
                // in, handed the position (1); three moves count 2, 3, 4, whatever the ball's place.
                #expect(Self.card(pilot).contains("\(Self.heading("counter"))"))
                for _ in 0..<4 { pilot.press(.right) }
                #expect(!pilot.learn.isDone)
                // The question first: f before a guess opens nothing.
                #expect(Self.card(pilot).contains("Predict: after f 9 and three moves, what will .map.scan read?"))
                pilot.type("f")
                #expect(pilot.learn.binding.model.help == nil && Self.said(pilot).contains("First your guess"))
                pilot.type("1")  // Wrong: it counts the position it is handed too.
                pilot.type("f")
                pilot.type("9")
                #expect(pilot.learn.play.session.state.slotted == .count(1))
                #expect(pilot.learn.play.session.state.ballColour == .flatRed)
                pilot.press(.left)
                pilot.press(.right)
                #expect(!pilot.learn.isDone && pilot.learn.play.session.state.slotted == .count(3))
                #expect(pilot.learn.play.session.state.ballColour == .flatYellow, "the third count colour")
                pilot.press(.right)
                #expect(pilot.learn.isDone)
                #expect(Self.rows(pilot).contains { $0.contains("├.map.scan") })
                #expect(Self.card(pilot).contains("Done: Each position a 1, the sum kept"))
                #expect(Self.card(pilot).contains("You said 1 (it reads 3): the lane says no."))
                #expect(Self.card(pilot).contains("the colour follows the count"))
                // Resizes hand the position again: the counter counts them too. The lesson passes
                // on three moves since the counter went in, and the verdict says what the lane reads.
                let resized = Pilot<Learn>(first: Self.index("counter"))
                for key: Unicode.Scalar in ["2", "f", "9"] { resized.type(key) }
                resized.run([.resize(ScreenSize(columns: 96, rows: 30)), .resize(ScreenSize(columns: 80, rows: 24))])
                #expect(resized.learn.play.session.state.slotted == .count(3) && !resized.learn.isDone)
                for _ in 0..<2 { resized.press(.right) }
                #expect(!resized.learn.isDone, "two moves and two resizes")
                resized.press(.right)
                #expect(resized.learn.isDone && resized.learn.play.session.state.slotted == .count(6))
                #expect(
                    Self.card(resized).contains(
                        "You said 2 (it reads 4): right for the moves; the lane reads 6, as each resize hands position again."
                    ),
                    "\(Self.card(resized))")
                // The values line tells the start's position from the one the resize handed at
                // the same centre: by the screen's size.
                #expect(
                    resized.lines.contains { $0.hasPrefix(" values") && $0.contains(" (96×") && $0.contains(" (80×") },
                    "\(resized.lines.joined(separator: "\n"))")
                #expect(
                    Self.rows(resized).contains { $0.contains("1─2─3─4─5─6") },
                    "\(resized.lines.joined(separator: "\n"))")
                // The counter put in again starts from 1: the moves are counted from there.
                let again = Pilot<Learn>(first: Self.index("counter"))
                for key: Unicode.Scalar in ["1", "f", "9"] { again.type(key) }
                for _ in 0..<2 { again.press(.right) }
                for key: Unicode.Scalar in ["f", "9"] { again.type(key) }
                again.press(.right)
                #expect(!again.learn.isDone, "three moves, but one since the counter went in again")
                for _ in 0..<2 { again.press(.right) }
                #expect(again.learn.isDone && Self.card(again).contains("You said 1 (it reads 3): the lane says no."))
            case "compose":
                // Operators compose: the question first; the counter chosen whole (f 9) is not it;
                // built a stage at a time, map alone keeps the colour (two moves), then three moves
                // show map's 1 1 1 under scan's count.
                #expect(Self.card(pilot).contains(Self.heading("compose")))
                pilot.type("f")
                #expect(pilot.learn.binding.model.help == nil && Self.said(pilot).contains("First your guess"))
                pilot.type("2")
                for key: Unicode.Scalar in ["f", "9"] { pilot.type(key) }
                for _ in 0..<3 { pilot.press(.right) }
                #expect(pilot.learn.play.session.state.slot == .counter && !pilot.learn.isDone, "chosen whole")
                for key: Unicode.Scalar in ["f", "z"] { pilot.type(key) }
                #expect(pilot.learn.play.session.state.slot == [.mapToOne])
                let colour = pilot.learn.play.session.state.ballColour
                // (The walk's moves so far went across and down: up has room.)
                pilot.press(.up)
                #expect(pilot.learn.play.session.state.ballColour == colour, "map alone: a 1, the same colour")
                for key: Unicode.Scalar in ["f", "|", "9"] { pilot.type(key) }
                for _ in 0..<3 { pilot.press(.right) }
                #expect(!pilot.learn.isDone, "one move through map alone")
                for key: Unicode.Scalar in ["f", "z"] { pilot.type(key) }
                pilot.press(.down)
                for key: Unicode.Scalar in ["f", "|", "9"] { pilot.type(key) }
                #expect(pilot.learn.play.session.state.slot == .counter)
                pilot.press(.left)
                pilot.press(.left)
                #expect(!pilot.learn.isDone)
                pilot.press(.left)
                #expect(pilot.learn.isDone)
                let rows = Self.rows(pilot)
                // map's part alone is on the slot's lane too: the lane is `slotted`, not scan's.
                // Adding scan subscribed the chain anew: map's lane starts again where scan went
                // in, ├1, in the column the slot's lane starts scan's count, as the card's Done says.
                func column(of marks: String, on label: String) -> Int? {
                    guard let lane = rows.first(where: { $0.hasPrefix(label) }), let found = lane.range(of: marks)
                    else { return nil }
                    return lane.distance(from: lane.startIndex, to: found.lowerBound)
                }
                let mapStarts = column(of: "├1─1─1─1", on: ".map {_ in 1}")
                #expect(
                    mapStarts != nil && mapStarts == column(of: "├1─2─3─4", on: "slotted"),
                    "\(rows.joined(separator: "\n"))")
                #expect(Self.card(pilot).contains("Adding scan subscribed the chain anew: map's lane starts again ├1"))
                #expect(!Self.card(pilot).contains("unchanged"), "map's subscription is a new one")
                #expect(Self.card(pilot).contains("You said 2 (stays the same): right."))
            case "debounce-throttle":
                // debounce, throttle: debounce lets a position through 300 ms after the last move;
                // that alone is half of it. throttle lets the first through at once, then the latest
                // at its window's end, when the lesson is done (on the timer: no key after it).
                #expect(Self.card(pilot).contains("\(Self.heading("debounce-throttle"))"))
                pilot.type("1")
                pilot.type("f")
                pilot.type("4")
                pilot.press(.right)
                pilot.press(.right)
                pilot.run([.pass(.milliseconds(299))])
                #expect(pilot.learn.play.session.state.slotted.position != pilot.learn.play.session.state.position)
                pilot.run([.pass(.milliseconds(1))])
                #expect(pilot.learn.play.session.state.slotted.position == pilot.learn.play.session.state.position)
                #expect(!pilot.learn.isDone, "debounce alone")
                pilot.type("f")
                pilot.type("5")
                pilot.press(.right)
                pilot.press(.right)
                #expect(!pilot.learn.isDone, "the first through at once, the second held")
                #expect(!Self.card(pilot).contains("throttle came first"), "the card's order")
                // Keys read on the manual clock at the instant debounce's timer ran are stamped a
                // microsecond after it (an input at a timer's instant would go before it in a replay),
                // so throttle's window ends 300 ms and 1 µs after that instant.
                pilot.run([.pass(.milliseconds(300))])
                #expect(!pilot.learn.isDone, "the window ends a microsecond later")
                pilot.run([.pass(.microseconds(1))])
                #expect(pilot.learn.isDone)
                #expect(
                    Self.card(pilot).contains(
                        "Done: debounce passed the last position after 300 ms quiet; throttle the first at once, then the latest at each 300 ms window's end."
                    ), "\(Self.card(pilot))")
                #expect(Self.card(pilot).contains("You said 1 (the first, at once): right."))
                // The card's order: throttle on its timer, then debounce on its, is not the task;
                // throttle again after that is.
                let reversed = Pilot<Learn>(first: Self.index("debounce-throttle"))
                for key: Unicode.Scalar in ["1", "f", "5"] { reversed.type(key) }
                for _ in 0..<2 { reversed.press(.right) }
                reversed.run([.pass(.milliseconds(400))])
                for key: Unicode.Scalar in ["f", "4"] { reversed.type(key) }
                for _ in 0..<2 { reversed.press(.right) }
                reversed.run([.pass(.milliseconds(400))])
                #expect(
                    reversed.learn.play.session.state.slotted.position == reversed.learn.play.session.state.position,
                    "debounce passed the last")
                #expect(!reversed.learn.isDone, "throttle, then debounce: not the card's order")
                let order = "throttle came first; the card asks debounce first. f 5, quick moves again."
                #expect(Self.card(reversed).contains(order), "said: \(Self.card(reversed))")
                for key: Unicode.Scalar in ["f", "5"] { reversed.type(key) }
                for _ in 0..<2 { reversed.press(.right) }
                #expect(!reversed.learn.isDone, "throttle's window still open")
                reversed.run([.pass(.milliseconds(400))])
                #expect(reversed.learn.isDone, "debounce, then throttle")
                #expect(!Self.card(reversed).contains(order), "done: \(Self.card(reversed))")
            case "combine-latest":
                // combineLatest: a flip with throttle in the slot is not it; with combineLatest, a
                // flip alone passes a value on, the ball still (here, at 25,11 on 80 columns, mirrored
                // 54,11: flatMaroonDark, then flatRedDark).
                #expect(Self.card(pilot).contains("\(Self.heading("combine-latest"))"))
                pilot.type("c")
                for _ in 0..<3 { pilot.press(.left, shifted: true) }
                pilot.run([.pass(.milliseconds(300))])
                pilot.type("i")
                #expect(!pilot.learn.isDone)
                // The question first; the task does not answer it.
                #expect(Self.card(pilot).contains("what does .combineLatest do?"))
                pilot.type("f")
                #expect(pilot.learn.binding.model.help == nil && Self.said(pilot).contains("First your guess"))
                pilot.type("1")  // Wrong: the mirror is one of its two subjects.
                #expect(!Self.card(pilot).contains("gets a ○"))
                pilot.type("f")
                pilot.type("6")
                let still = pilot.learn.play.session.state.position
                #expect(pilot.learn.play.session.state.ballColour == still.mirrored.ballColour, "the mirror is on")
                pilot.type("i")
                #expect(pilot.learn.isDone)
                #expect(pilot.learn.play.session.state.position == still)
                #expect(pilot.learn.play.session.state.ballColour == still.ballColour)
                #expect(still.ballColour != still.mirrored.ballColour, "\(still)")
                #expect(Self.rows(pilot).contains { $0.hasPrefix("intents") && $0.contains("¦") })
                // The mirror's lane is the subject's: the i before f 6 (T), nothing where
                // combineLatest went in (what it was handed there, T, is its own, not a value the
                // mirror sent: no second ^), then the flip (F).
                #expect(
                    Self.rows(pilot).contains { $0.hasPrefix("mirror") && $0.contains("T───F") && !$0.contains("^T") },
                    "\(pilot.lines.joined(separator: "\n"))")
                #expect(Self.card(pilot).contains("You said 1 (passes nothing on): the lane says no."))
            case "flat-map-latest":
                // flatMapLatest, the drag: a drag before it is chosen is not it; chosen, a key move
                // passes nothing on, and a drag passes its positions on (from the press to the release).
                #expect(Self.card(pilot).contains("\(Self.heading("flat-map-latest"))"))
                pilot.type("c")
                pilot.drag([Cell(column: 40, row: 3), Cell(column: 44, row: 3)])
                pilot.type("f")
                pilot.type("8")
                pilot.press(.left)
                #expect(!pilot.learn.isDone, "a key move, but no drag yet")
                let keyed = pilot.learn.play.session.state
                #expect(keyed.slotted.position != keyed.position, "the key move did not reach the colour")
                // A drag with the button still down: its positions pass, but nothing was cancelled
                // yet (a resize cancels nothing either).
                let top = Learn.layout(of: pilot.terminal.size).cardRows
                pilot.run(
                    [.bytes(TerminalBytes.press(Cell(column: 44, row: 3 + top)))]
                        + [Cell(column: 30, row: 3 + top), Cell(column: 20, row: 4 + top)].map {
                            .bytes(TerminalBytes.drag($0))
                        })
                pilot.run([.resize(ScreenSize(columns: 96, rows: 30)), .resize(ScreenSize(columns: 80, rows: 24))])
                #expect(!pilot.learn.isDone, "dragged, not let go: no inner stream cancelled yet")
                pilot.run([.bytes(TerminalBytes.release(Cell(column: 20, row: 4 + top)))])
                #expect(pilot.learn.isDone)
                // The press's inner lane ends ! at the release: .empty() took its place.
                #expect(
                    Self.rows(pilot).contains { $0.hasPrefix("inner 1") && $0.contains("!") },
                    "\(pilot.lines.joined(separator: "\n"))")
                let dragged = pilot.learn.play.session.state
                #expect(
                    dragged.slotted.position == dragged.position && dragged.position.centre.column == 19, "\(dragged)")
                #expect(
                    Self.card(pilot).contains(
                        "Done: Drags only. Latest: the release's .empty() took the press's place, its inner stream cancelled (!)."
                    ))
                #expect(!Self.card(pilot).contains("flatMap would"), "lesson 16's question not answered here")
                pilot.press(.right)
                #expect(pilot.learn.play.session.state.slotted.position == dragged.position, "the button is up again")
            case "flat-map":
                // flatMap or flatMapLatest: the question first; flatMap's doubles alone are not it,
                // nor flatMapLatest's drag after one press of its own; after two, it is.
                #expect(Self.card(pilot).contains(Self.heading("flat-map")))
                pilot.type("f")
                #expect(pilot.learn.binding.model.help == nil && Self.said(pilot).contains("First your guess"))
                pilot.type("2")
                for key: Unicode.Scalar in ["f", "g"] { pilot.type(key) }
                func dragRight() {
                    let centre = pilot.learn.play.session.state.position.centre
                    pilot.drag([centre, Cell(column: centre.column + 2, row: centre.row)])
                }
                dragRight()
                dragRight()
                #expect(pilot.learn.facts.moves.contains { $0.slot == [.flatMap] && $0.slottedCount == 2 })
                #expect(!pilot.learn.isDone, "flatMap alone")
                for key: Unicode.Scalar in ["f", "8"] { pilot.type(key) }
                dragRight()
                #expect(!pilot.learn.isDone, "one press of flatMapLatest's")
                dragRight()
                #expect(pilot.learn.isDone)
                #expect(Self.card(pilot).contains("You said 2 (twice): right."))
            case "error":
                // An error ends the stream: the question first; tryMap's error uncaught is not it
                // (and would end the binding: not tried here); with catch after it, a corner is.
                #expect(Self.card(pilot).contains(Self.heading("error")))
                pilot.type("f")
                #expect(pilot.learn.binding.model.help == nil && Self.said(pilot).contains("First your guess"))
                pilot.type("1")  // Wrong: catch replaces the error.
                for key: Unicode.Scalar in ["f", "X"] { pilot.type(key) }
                #expect(pilot.learn.play.session.state.slot == [.tryMap, .catch])
                // The card's way: back to the middle (the right edge alone is then no corner),
                // to the right edge, down into the corner.
                pilot.type("c")
                for _ in 0..<40 { pilot.press(.right, shifted: true) }
                #expect(!pilot.learn.isDone, "an edge is not a corner")
                for _ in 0..<40 where !pilot.learn.isDone { pilot.press(.down, shifted: true) }
                #expect(pilot.learn.isDone)
                let state = pilot.learn.play.session.state
                #expect(
                    state.position.isInCorner
                        && state.ballColour == BallPosition.centred(on: state.position.screen).ballColour)
                #expect(
                    Self.rows(pilot).contains { $0.hasPrefix(".map { … }") && $0.contains("#") },
                    "\(Self.rows(pilot).joined(separator: "\n"))")
                // catch's end on its own lane; slotted, switchToLatest's output, goes on (Rx draws
                // an inner's completion on the inner).
                #expect(
                    Self.rows(pilot).contains { $0.hasPrefix(".catch { … }") && $0.contains("|") }
                        && Self.rows(pilot).contains { $0.hasPrefix("slotted") && !$0.contains("|") },
                    "\(Self.rows(pilot).joined(separator: "\n"))")
                #expect(Self.card(pilot).contains("You said 1 (stops for good): the lane says no."))
            case "completion":
                // Completion: e ends the session (the tour goes on); late subscribers meet the end.
                #expect(Self.card(pilot).contains("\(Self.heading("completion"))"))
                pilot.type("b")
                #expect(!pilot.learn.isDone, "subscribed before the end")
                // The question first: what a late relay is handed after the end. The card names
                // the relay without saying it never ends, and e waits for the guess.
                #expect(Self.card(pilot).contains("what is a late Relay (v) handed?"), "\(Self.card(pilot))")
                #expect(!Self.card(pilot).contains("never ends"), "\(Self.card(pilot))")
                pilot.type("e")
                #expect(Self.said(pilot).contains("First your guess: a digit, 1 to 3, for the question below; then e."))
                #expect(!pilot.learn.facts.columns.contains { $0.intent == .completionRequested }, "not ended yet")
                pilot.type("2")
                #expect(Self.card(pilot).contains("BehaviorRelay (v) never ends"), "said after the guess")
                pilot.type("e")
                #expect(!pilot.learn.isFinished, "the session ended; the tour did not")
                // Drawn as what it is: e, then the end, on the intents lane; not a quit.
                #expect(Self.rows(pilot).contains { $0.hasPrefix("intents") && $0.contains("e|") && !$0.contains("q") })
                #expect(
                    pilot.lines.contains { $0.contains("e position completed") },
                    "\(pilot.lines.joined(separator: "\n"))")
                for key: Unicode.Scalar in ["b", "b", "p", "r"] { pilot.type(key) }  // b again: cancel, then b.
                #expect(!pilot.learn.isDone)
                pilot.type("v")
                #expect(pilot.learn.isDone)
                #expect(Self.card(pilot).contains("n: the tour's end"), "the last lesson: no next one")
                let rows = Self.rows(pilot)
                for (lane, marks) in [
                    ("late Behavior", "^|"), ("late Publish", "^|"), ("late Replay(3)", "^³|"), ("late Relay", "^"),
                ] {
                    #expect(rows.contains { $0.hasPrefix(lane) && $0.contains(marks) }, "\(lane): \(rows)")
                }
            default:
                var whole = true
                Self.doTask(lesson, pilot, whole: &whole)
                #expect(pilot.learn.isDone, "\(Lesson.all[lesson].id)")
            }
            pilot.type("n")
        }
        // The end: the closing card, no box over it; m there shows the recap of every point.
        #expect(pilot.learn.binding.model.help == nil)
        #expect(Self.card(pilot).contains("All \(Lesson.all.count) lessons done"))
        #expect(pilot.completed == Array(Lesson.all.indices))
        // n has no next lesson to go to, and says how to leave.
        pilot.type("n")
        #expect(Self.card(pilot).contains("No next lesson: the tour is over. q, then"), "\(Self.card(pilot))")
        #expect(pilot.learn.binding.model.help == nil && pilot.learn.lesson == Lesson.all.count)
        pilot.type("m")
        #expect(pilot.lines.contains { $0.contains("The lessons (✓ done): the point of each done") })
        #expect(pilot.lines.contains { $0.contains("✓ 1") && $0.contains("One subject: position published") })
        pilot.type("x")
        #expect(Self.card(pilot).contains("All \(Lesson.all.count) lessons done"))
        pilot.type("q")
        #expect(pilot.learn.isFinished)
    }

    @Test("m shows the lessons with their points and done marks; a digit there goes to one; N goes back")
    func lessonsBox() {
        let pilot = Pilot<Learn>(first: Self.index("ghost"), done: [Self.index("one-subject")])
        let unmoved = (pilot.learn.play.session.state, pilot.learn.play.streams.latestIndex)
        pilot.type("m")
        #expect(
            (pilot.learn.play.session.state, pilot.learn.play.streams.latestIndex) == unmoved,
            "the box is looked at: no intent")
        let text = pilot.lines.joined(separator: "\n")
        #expect(text.contains("The lessons (✓ done)"), "\(text)")
        #expect(text.contains("✓ 1") && text.contains("One subject: position published centres"))
        // A lesson not done shows its title only: its point would answer its question.
        #expect(text.contains("  Behavior") && !text.contains("Behavior: ^○"), "\(text)")
        pilot.type("3")
        #expect(pilot.learn.binding.model.help == nil, "the digit closed the box")
        #expect(pilot.learn.lesson == 2 && Self.card(pilot).contains("\(Self.heading("behavior"))"))
        pilot.type("N")
        #expect(pilot.learn.lesson == 1)
        // Another key closes the box and does nothing else; a digit then is not a lesson.
        pilot.type("m")
        pilot.type("x")
        pilot.type("5")
        #expect(pilot.learn.lesson == 1 && Self.card(pilot).contains("Digits 1 to 3 answer the card's question"))
        // With 10 lessons or more, 1 waits for a second digit (the title says so): 1 then 2 is lesson 12,
        // 1 then Enter lesson 1. Its footer says what a number does.
        pilot.type("m")
        #expect(
            // (On a box of pages, its first says it shortly.)
            pilot.lines.contains { $0.contains("its number goes to a lesson") || $0.contains("a digit goes to one") },
            "\(pilot.lines.joined(separator: "\n"))")
        pilot.type("1")
        let most = min(Lesson.all.count, 19)
        #expect(pilot.learn.binding.model.help != nil, "1 could be 10 to \(most)")
        #expect(pilot.lines.contains { $0.contains("Lesson 1…: a second digit (10 to \(most)), or Enter") })
        pilot.type("2")
        #expect(pilot.learn.lesson == 11 && Self.card(pilot).contains("\(Self.heading(Lesson.all[11].id))"))
        pilot.type("m")
        pilot.type("1")
        pilot.type("\r")
        #expect(pilot.learn.lesson == 0 && pilot.learn.binding.model.help == nil)
        // 0 first, or the number after the last lesson: nothing, the box closed.
        for keys: [Unicode.Scalar] in [["0"], Array("\(Lesson.all.count + 1)".unicodeScalars)] {
            pilot.type("m")
            for key in keys { pilot.type(key) }
            #expect(pilot.learn.lesson == 0 && pilot.learn.binding.model.help == nil, "\(keys)")
        }
        // Another key between the digits closes the box: the 2 after it is no lesson.
        pilot.type("m")
        pilot.type("1")
        pilot.type("x")
        pilot.type("2")
        #expect(pilot.learn.lesson == 0 && pilot.learn.binding.model.help == nil)
    }

    @Test("a lesson whose point is on a lane opens the panel when it begins, and is done only with the lanes drawn")
    func lanesShown() {
        let pilot = Pilot<Learn>(first: Self.index("behavior"))  // Behavior
        #expect(pilot.learn.play.isStreamsOpen)
        #expect(Self.rows(pilot).contains { $0.hasPrefix("ballColour") }, "the lanes are drawn")
        pilot.type("s")  // Closed by the learner.
        pilot.type("2")
        pilot.type("b")
        #expect(!pilot.learn.isDone, "subscribed, but its lane is not drawn")
        #expect(Self.card(pilot).contains("press s to open the streams"))
        pilot.type("s")
        #expect(pilot.learn.isDone)
        // When Done shows, its point is on the screen: the late Behavior lane, handed ○ at once.
        #expect(Self.card(pilot).contains("Done: ^ and a letter"))
        #expect(
            Self.rows(pilot).contains {
                $0.hasPrefix("late Behavior")
                    && $0.unicodeScalars.split(separator: "^").dropFirst().first?.first
                        .map(MarbleValue.letters.contains) == true
            },
            "\(pilot.lines.joined(separator: "\n"))")
    }

    @Test(
        "every lesson begins from a known state: no late subscriber from before, the panel as it needs, the ball where it was"
    )
    func knownStart() {
        // Lesson 1 begins with the panel closed even when the lesson before left it open: its
        // s opens it.
        let streams = Pilot<Learn>(first: Self.index("ghost"))
        #expect(streams.learn.play.isStreamsOpen)
        streams.type("N")
        #expect(streams.learn.lesson == 0 && !streams.learn.play.isStreamsOpen)
        Self.move(streams) { streams.learn.facts.moves.contains { $0.ballColour != nil } }
        streams.type("s")
        #expect(streams.learn.isDone)
        // A p tried in lesson 3 does not make lesson 4's p a cancel.
        let publish = Pilot<Learn>(first: Self.index("behavior"))
        publish.type("2")
        publish.type("p")
        publish.type("b")
        #expect(publish.learn.isDone)
        let before = publish.learn.play.session.state
        let columns = publish.learn.play.streams.latestIndex
        publish.type("n")
        #expect(publish.learn.lesson == 3)
        #expect(publish.learn.play.streams.lateLanes.allSatisfy { !$0.isLive }, "nothing left subscribed")
        #expect(publish.learn.play.session.state == before, "the ball and its colours as they were")
        #expect(publish.learn.play.streams.latestIndex == columns, "no intent")
        publish.type("1")
        publish.type("p")
        #expect(publish.learn.play.streams.lateLane(.publish)?.isLive == true, "p subscribes")
        publish.press(.right)
        #expect(publish.learn.isDone)
    }

    @Test("Esc closes a box, and with none open asks once; q and Ctrl-C leave from anywhere, a box open or not")
    func leaving() {
        let pilot = Pilot<Learn>(first: Self.index("behavior"))
        // Esc in a box closes it, and leaves nothing asked.
        pilot.type("m")
        #expect(pilot.learn.binding.model.help != nil)
        pilot.run([.bytes([0x1B]), .pass(RunLoop.defaultEscapeWait)])
        #expect(pilot.learn.binding.model.help == nil && !pilot.learn.isFinished)
        // Esc with none open asks; another key answers "stay".
        pilot.run([.bytes([0x1B]), .pass(RunLoop.defaultEscapeWait)])
        #expect(Self.card(pilot).contains("Esc again to leave the tour") && !pilot.learn.isFinished)
        pilot.press(.right)
        #expect(!Self.card(pilot).contains("Esc again") && !pilot.learn.isFinished)
        // Another key stays and does what it does: t, while the card asks its question, says
        // the hint comes after the guess; a resize is no key, and leaves the question asked.
        pilot.run([.bytes([0x1B]), .pass(RunLoop.defaultEscapeWait)])
        pilot.type("t")
        #expect(Self.card(pilot).contains(Learn.hintAfterGuessAnswer) && !pilot.learn.isFinished, "\(Self.card(pilot))")
        pilot.run([.bytes([0x1B]), .pass(RunLoop.defaultEscapeWait)])
        pilot.type("2")
        #expect(
            Self.card(pilot).contains("Hint: Its lane starts ^") && !pilot.learn.isFinished,
            "t's hint, shown once guessed")
        pilot.run([.bytes([0x1B]), .pass(RunLoop.defaultEscapeWait)])
        pilot.run([.resize(ScreenSize(columns: 96, rows: 30))])
        #expect(Self.card(pilot).contains("Esc again to leave the tour") && !pilot.learn.isFinished)
        pilot.run([.bytes([0x1B]), .pass(RunLoop.defaultEscapeWait)])
        #expect(pilot.learn.isFinished, "Esc twice leaves")
        // In a lesson done, the question is on the card too; t after it shows the hint.
        let done = Pilot<Learn>(first: Self.index("behavior"))
        for key: Unicode.Scalar in ["2", "b"] { done.type(key) }
        #expect(done.learn.isDone)
        done.input([0x1B])
        #expect(Self.card(done).contains("Esc again to leave the tour") && !done.learn.isFinished)
        done.type("t")
        #expect(Self.card(done).contains("Hint: Its lane starts ^") && !done.learn.isFinished, "\(Self.card(done))")
        // q and Ctrl-C quit with a box open: the keys box, the lessons box, the operators box.
        for (open, quit) in [("?", "q"), ("m", "q"), ("f", "\u{03}"), ("?", "\u{04}"), ("m", "Q")]
            as [(Unicode.Scalar, Unicode.Scalar)]
        {
            let boxed = Pilot<Learn>(first: Self.index("filter"))
            boxed.type(open)
            #expect(boxed.learn.binding.model.help != nil, "\(open) opens a box")
            boxed.type(quit)
            #expect(boxed.learn.isFinished, "\(quit) with \(open)'s box open quits")
        }
    }

    @Test("a lesson's check reads only what happened since it began")
    func sinceTheLessonBegan() {
        // Lesson 3 (Behavior) begun after a Behavior subscriber already exists: not done by it.
        let pilot = Pilot<Learn>(first: Self.index("behavior"))
        #expect(Self.card(pilot).contains("\(Self.heading("behavior"))"))
        pilot.type("2")
        pilot.type("b")
        #expect(pilot.learn.isDone)
        let again = Pilot<Learn>(first: Self.index("cancel"))
        again.type("b")  // Lesson 3's question first (not done): a digit answers it and subscribes.
        again.type("2")  // Subscribes: not a cancel.
        #expect(!again.learn.isDone)
        again.type("b")
        again.press(.left)
        #expect(again.learn.isDone)
    }

    /// Whether the ball is drawn whole between the card and the lanes: every row of its disc
    /// drawn in the ball's area, which starts below the card's rows and ends above the lanes'.
    static func ballWhole(_ pilot: Pilot<Learn>) -> Bool {
        guard let layout = pilot.learn.play.layout, let frame = pilot.terminal.frame else { return false }
        let appearance = pilot.learn.binding.model.appearance
        let top = layout.cardRows
        let lanesTop = layout.terminal.rows - 1 - StreamPanel.tourRows
        // The rows in which the disc is drawn: a cell that is not the screen's blank.
        let drawn = (top..<lanesTop).filter { row in
            (0..<frame.size.columns).contains { column in
                let cell = frame[column, row]
                return cell.glyph != " " || cell.background != appearance.background
            }
        }
        let shape = appearance.position.shape
        let discRows = (-shape.halfHeight...shape.halfHeight).filter {
            let span = shape.span(rowOffset: $0)
            return span.top != nil || span.bottom != nil
        }
        let centre = appearance.position.centre
        return drawn.count == discRows.count && lanesTop - top == layout.area.rows - 1
            && frame[centre.column, top + centre.row].background == appearance.ball
    }

    /// Does lesson `lesson`'s task with the keys a learner would press, checking after each
    /// key that the ball is whole (`whole` is false from the first key after which it is not).
    static func doTask(_ lesson: Int, _ pilot: Pilot<Learn>, whole: inout Bool) {
        func step(_ action: () -> Void) {
            action()
            whole = whole && ballWhole(pilot)
        }
        func moveUntilDone() {
            var count = 0
            while !pilot.learn.isDone, count < 600 {
                step { pilot.press(count % 140 < 70 ? .right : .left) }
                count += 1
            }
        }
        switch Lesson.all[lesson].id {
        case "one-subject":
            step { pilot.type("s") }
            moveUntilDone()
        case "ghost":
            step { pilot.type("2") }
            moveUntilDone()
        case "behavior":
            step { pilot.type("2") }
            step { pilot.type("b") }
        case "publish":
            step { pilot.type("1") }
            step { pilot.type("p") }
            step { pilot.press(.left) }
        case "why-behavior":
            step { pilot.type("2") }
            step { pilot.type("o") }
            step { pilot.press(.right) }
        case "replay":
            step { pilot.type("3") }
            step { pilot.type("r") }
        case "cancel":
            step { pilot.type("b") }
            step { pilot.type("b") }
            step { pilot.press(.right) }
        case "share":
            step { pilot.type("u") }
            moveUntilDone()
        // (f's box lies over the ball until its digit: the two keys are one step.)
        case "filter":
            step { for key: Unicode.Scalar in ["f", "2"] { pilot.type(key) } }
            moveUntilDone()
        case "counter":
            step { for key: Unicode.Scalar in ["2", "f", "9"] { pilot.type(key) } }
            for _ in 0..<3 { step { pilot.press(.right) } }
        case "compose":
            step { for key: Unicode.Scalar in ["2", "f", "z"] { pilot.type(key) } }
            for _ in 0..<2 { step { pilot.press(.right) } }
            step { for key: Unicode.Scalar in ["f", "|", "9"] { pilot.type(key) } }
            for _ in 0..<3 { step { pilot.press(.right) } }
        case "flat-map":
            step { for key: Unicode.Scalar in ["2", "f", "g"] { pilot.type(key) } }
            for round in 0..<4 {
                if round == 2 { step { for key: Unicode.Scalar in ["f", "8"] { pilot.type(key) } } }
                let centre = pilot.learn.play.session.state.position.centre
                step { pilot.drag([centre, Cell(column: centre.column + 2, row: centre.row)]) }
            }
        case "error":
            // The card's way: back to the middle, the right edge, down into the corner.
            step { for key: Unicode.Scalar in ["2", "f", "X", "c"] { pilot.type(key) } }
            for _ in 0..<40 where !pilot.learn.isDone { step { pilot.press(.right, shifted: true) } }
            for _ in 0..<40 where !pilot.learn.isDone { step { pilot.press(.down, shifted: true) } }
        case "debounce-throttle":
            step { for key: Unicode.Scalar in ["1", "f", "4"] { pilot.type(key) } }
            step { pilot.press(.right) }
            step { pilot.run([.pass(.milliseconds(300))]) }
            step { for key: Unicode.Scalar in ["f", "5"] { pilot.type(key) } }
            step { pilot.press(.right) }
            step { pilot.press(.right) }
            // (Keys at the instant debounce's timer ran are stamped 1 µs after it.)
            step { pilot.run([.pass(.milliseconds(300) + .microseconds(1))]) }
        case "combine-latest":
            step { for key: Unicode.Scalar in ["2", "f", "6"] { pilot.type(key) } }
            step { pilot.type("i") }
        case "flat-map-latest":
            step { for key: Unicode.Scalar in ["f", "8"] { pilot.type(key) } }
            step { pilot.press(.left) }
            let centre = pilot.learn.play.session.state.position.centre
            step { pilot.drag([centre, Cell(column: centre.column + 3, row: centre.row)]) }
        case "completion":
            for key: Unicode.Scalar in ["2", "e", "b", "p", "r", "v"] { step { pilot.type(key) } }
        default: moveUntilDone()
        }
    }

    @Test(
        "in every lesson at 80×24 and at the smallest size the ball moves up and down, with room to cross a colour band",
        arguments: Self.tourSizes)
    func upAndDown(size: ScreenSize) throws {
        for lesson in Lesson.all.indices {
            let pilot = Pilot<Learn>(first: lesson, screen: size)
            let start = pilot.learn.play.session.state.position.centre
            // Where a move answers the card's question, the ball moves once it is answered.
            if Lesson.all[lesson].predictsMoves { pilot.type("2") }
            for key: Unicode.Scalar in ["k", "k", "j", "j", "j", "j"] { pilot.type(key) }
            let rows = pilot.learn.play.streams.columns(from: 0).compactMap { $0.position?.centre.row }
            #expect(
                rows.contains { $0 < start.row } && rows.contains { $0 > start.row },
                "\(Lesson.all[lesson].id) at \(size): \(rows)")
            #expect(Self.ballWhole(pilot), "\(Lesson.all[lesson].id) at \(size)")
            // Somewhere a vertical move alone crosses a whole band: three colours down one column.
            let position = pilot.learn.play.session.state.position
            let centres = try #require(position.shape.allowedCentres(on: position.screen))
            let crossing = centres.columns.contains { column in
                let colours = centres.rows.map { BallColourRule.ballColour(column: column, row: $0) }
                return zip(colours, colours.dropFirst()).filter { $0 != $1 }.count >= 2
            }
            #expect(crossing, "\(Lesson.all[lesson].id) at \(size): \(centres)")
        }
    }

    @Test("the tour lays the terminal out: the card, the ball's area and the lanes each in rows of their own")
    func layout() {
        let standard = Learn.layout(of: ScreenSize(columns: 80, rows: 24))
        #expect(standard.cardRows == 6 && standard.area == ScreenSize(columns: 80, rows: 7) && standard.fits)
        #expect(standard.needed == ScreenSize(columns: 80, rows: 24), "80×24 is the smallest at 80 columns")
        // Narrower: the card wraps into more rows, and the tour needs more rows.
        let narrowest = Learn.layout(of: ScreenSize(columns: TourLayout.minimumColumns, rows: 24))
        #expect(narrowest.cardRows > 6 && !narrowest.fits)
        #expect(narrowest.needed.rows == narrowest.cardRows + StreamPanel.tourRows + ScreenSize.minimum.rows)
        #expect(narrowest.needed == ScreenSize(columns: 60, rows: 27), "as docs/learn.md says")
        // Narrower than the narrowest: what it needs is the narrowest's.
        let narrow = Learn.layout(of: ScreenSize(columns: 40, rows: 12))
        #expect(!narrow.fits && narrow.needed == narrowest.needed)
    }

    @Test(
        "through the whole tour at 80×24 and at the smallest size: the ball never covered, every lane on screen at Done",
        arguments: Self.tourSizes)
    func ballNeverCovered(size: ScreenSize) throws {
        let pilot = Pilot<Learn>(screen: size)
        var whole = Self.ballWhole(pilot)
        for lesson in Lesson.all.indices {
            #expect(pilot.learn.lesson == lesson, "\(size)")
            Self.doTask(lesson, pilot, whole: &whole)
            #expect(pilot.learn.isDone, "lesson \(lesson + 1) at \(size)")
            #expect(whole, "lesson \(lesson + 1) at \(size):\n\(pilot.lines.joined(separator: "\n"))")
            // The card's last words are on screen (nothing cut), above the ball's area.
            let card = pilot.lines.prefix(pilot.learn.play.layout!.cardRows).joined(separator: " ")
                .split(separator: " ").joined(separator: " ")
            let next = lesson == Lesson.all.count - 1 ? "n: the tour's end" : "n: the next lesson"
            #expect(card.contains(next), "\(size): \(card)")
            // The point is on a lane: the lanes are drawn, below the ball's area.
            do {
                let lanes = Self.rows(pilot).suffix(StreamPanel.tourRows + 1)
                // Every lane the lesson drew has its row: the description line (the panel's last)
                // names any it had no room for (flatMap's: background, two presses' inner lanes).
                let description = pilot.lines[pilot.lines.count - 2]
                #expect(
                    !description.hasPrefix(" (no room for") && !description.hasPrefix(" (+"),
                    "\(Lesson.all[lesson].id) at \(size): \(lanes.joined(separator: "\n"))")
                // The ruler too, but in flatMap's lesson: its second press's inner lane takes the row.
                #expect(
                    lanes.contains { $0.hasPrefix("streams ") } || Lesson.all[lesson].id == "flat-map",
                    "\(Lesson.all[lesson].id) at \(size): \(lanes.joined(separator: "\n"))")
                let lane = try #require(Self.pointLane[Lesson.all[lesson].id], "\(Lesson.all[lesson].id) has a lane")
                // An operator's lane: its part of the slot's lane, named in the row above it where
                // it starts (├.map.scan; cut, ├.flatMapLate…, where the panel's edge comes first),
                // or at the row's start when it began before the page.
                let named = { (row: Substring) in
                    row.hasPrefix(StreamPanel.segmentsLabel + " ")
                        && row.dropFirst(StreamPanel.labelWidth - 1).drop { $0 == " " }.hasPrefix(lane)
                }
                #expect(
                    lanes.contains { $0.hasPrefix(lane) || $0.contains("├\(lane.prefix(5))") || named($0) },
                    "\(Lesson.all[lesson].id) at \(size): \(lanes.joined(separator: "\n"))")
                // A letter drawn on a lane is named: the values line keeps its row while letters are.
                let labels =
                    (StreamLane.main(slot: true, inputs: SlotInput.allCases.map(StreamLane.init))
                    + LateSubscriber.allCases.map(StreamLane.late)).map(\.label)
                let lettered = lanes.contains { row in
                    labels.contains { row.hasPrefix($0 + " ") }
                        && row.dropFirst(StreamPanel.labelWidth - 1).unicodeScalars.contains(
                            where: MarbleValue.letters.contains)
                }
                #expect(
                    !lettered || lanes.contains { $0.hasPrefix("values ") },
                    "\(Lesson.all[lesson].id) at \(size): \(lanes.joined(separator: "\n"))")
            }
            pilot.type("n")
        }
        #expect(pilot.learn.binding.model.help == nil, "nothing over the closing card")
        #expect(Self.card(pilot).contains("All \(Lesson.all.count) lessons done"))
    }

    /// The lane each lesson's point is on, by the lesson's name: drawn when Done shows.
    static let pointLane: [String: String] = [
        "one-subject": "ballColour", "ghost": "ballColour", "behavior": "late Behavior", "publish": "late Publish",
        "why-behavior": "intents", "replay": "late Replay", "cancel": "late", "scan": "background", "share": "position",
        "filter": ".filter", "counter": ".map.scan", "compose": ".map {_ in 1}", "debounce-throttle": ".throttle",
        "combine-latest": ".combineLatest", "flat-map-latest": ".flatMapLatest", "flat-map": ".flatMap",
        "error": ".catch",
        "completion": "late Relay",
    ]

    /// The lessons the scripts here know by name: every lesson has its keys (``doTask(_:_:whole:)``)
    /// and its lane (``pointLane``); a new lesson is one entry in each.
    static let scripted: Set<String> = [
        "one-subject", "ghost", "behavior", "publish", "why-behavior", "replay", "cancel", "scan", "share", "filter",
        "counter", "compose", "debounce-throttle", "combine-latest", "flat-map-latest", "flat-map", "error",
        "completion",
    ]

    @Test("a resize never passes a lesson: after each lesson's own keys, windows of three sizes and time going by")
    func resizesPassNothing() {
        // The keys that set a lesson up, where it has some: what follows must be the learner's moves.
        let setUp: [String: [Unicode.Scalar]] = [
            "behavior": ["2"], "publish": ["1", "p"], "why-behavior": ["2", "o"], "replay": ["3"],
            "cancel": ["b", "b"], "share": ["u"],
            "filter": ["f", "2"], "counter": ["2", "f", "9"], "debounce-throttle": ["1", "f", "4"],
            "combine-latest": ["2", "f", "6"], "flat-map-latest": ["f", "8"],
            "compose": ["2", "f", "z", "f", "|", "9"],
            "flat-map": ["2", "f", "g"], "error": ["2", "f", "X"],
        ]
        for (index, lesson) in Lesson.all.enumerated() {
            let pilot = Pilot<Learn>(first: index)
            for key in setUp[lesson.id] ?? [] { pilot.type(key) }
            for size in [
                ScreenSize(columns: 96, rows: 30), ScreenSize(columns: 120, rows: 40),
                ScreenSize(columns: 80, rows: 24),
            ] {
                pilot.run([.resize(size), .pass(.milliseconds(400))])
                if lesson.id == "debounce-throttle" {
                    for key: Unicode.Scalar in ["f", "5"] { pilot.type(key) }
                }
            }
            #expect(!pilot.learn.isDone, "\(lesson.id) passed on resizes")
            #expect(pilot.learn.facts.moves.isEmpty, "\(lesson.id): a resize is not a move")
        }
    }

    @Test(
        "the card says what the screen shows: Completion's Done against its lanes; an arrow at the edge moves nothing, and says why"
    )
    func wordsOfTheScreen() throws {
        let completion = Pilot<Learn>(first: Self.index("completion"))
        completion.press(.right)
        // (r asks the Replay lesson's question first: 3 answers it.)
        for key: Unicode.Scalar in ["2", "e", "b", "p", "r", "3", "v"] { completion.type(key) }
        #expect(completion.learn.isDone)
        let card = Self.card(completion)
        #expect(
            card.contains("Done: Behavior and Publish ^|: the end alone; Replay ^, what it holds, then |"), "\(card)")
        let rows = Self.rows(completion)
        func lane(_ label: String) -> String {
            let row = rows.first { $0.hasPrefix(label) } ?? ""
            return String(row.dropFirst(label.count).drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
        }
        #expect(lane("late Behavior") == "^|" && lane("late Publish") == "^|", "\(rows)")
        // (Labelled with its size once the Replay lesson's question is answered.)
        #expect(lane("late Replay(3)").hasPrefix("^") && lane("late Replay(3)").hasSuffix("|"), "\(rows)")
        #expect(lane("late Relay").hasPrefix("^") && !lane("late Relay").contains("|"), "\(rows)")
        // In the share lesson an arrow against the top edge publishes nothing: map does not run,
        // and the card says why.
        let share = Pilot<Learn>(first: Self.index("share"))
        for _ in 0..<share.learn.play.session.state.position.screen.rows { share.press(.up) }
        share.type("u")
        let before = try #require(share.learn.facts.mapRuns)
        share.press(.up)
        #expect(share.learn.facts.mapRuns == before, "nothing ran")
        #expect(Self.card(share).contains(Learn.edgeAnswer), "\(Self.card(share))")
        share.press(.down)
        #expect(!Self.card(share).contains(Learn.edgeAnswer), "a move that moved says nothing of the edge")
    }

    @Test("an arrow at the edge: the ↓ on the intents' lane, nothing on position's, and the pointing line says so")
    func arrowAtTheEdgeSaid() throws {
        // Completion's lanes are open from its start, and it asks for no move.
        let pilot = Pilot<Learn>(first: Self.index("completion"))
        let rows = pilot.learn.play.session.state.position.screen.rows
        for _ in 0..<rows { pilot.press(.down) }
        let lines = pilot.lines
        let pointing = lines[lines.count - 2]
        #expect(pointing.contains("↓ at the edge: moved nothing · "), "\(pointing)")
        // The lanes as they are: ↓ on the intents' lane over no new position.
        let intents = Array(try #require(lines.first { $0.hasPrefix(" intents ") }))
        let position = Array(try #require(lines.first { $0.hasPrefix(" position ") }))
        let column = try #require(intents.lastIndex(of: "↓"))
        #expect(position[column] == "─", "\(String(intents))\n\(String(position))")
        pilot.press(.up)
        #expect(!pilot.lines[pilot.lines.count - 2].contains("at the edge"), "\(pilot.lines[pilot.lines.count - 2])")
    }

    @Test(
        "each lesson from its own state: no pipe whose error would end the colour goes in (y, Backspace after X; R brings catch), so the colour follows in every lesson after a corner; n, N and m each empty the slot, and say so"
    )
    func noDeadBindingCarried() {
        let error = Pilot<Learn>(first: Self.index("error"))
        error.type("2")  // The guess: the centre's, then stays.
        let refused = "not put in: tryMap's error would end the colour for good (X adds catch)"
        for keys: [Unicode.Scalar] in [["f", "y"]] {
            for key in keys { error.type(key) }
            #expect(error.learn.play.session.state.slot == SlotPipe.none, "\(keys)")
            #expect(error.lines.last?.contains(refused) == true, "\(keys): \(error.lines.last ?? "")")
        }
        // R alone goes in with catch after it (ErrorLessonTests).
        for key: Unicode.Scalar in ["f", "R"] { error.type(key) }
        #expect(error.learn.play.session.state.slot == [.tryMap, .retry, .catch])
        for key: Unicode.Scalar in ["f", "X"] { error.type(key) }
        #expect(error.learn.play.session.state.slot == [.tryMap, .catch])
        // Backspace in the box would leave tryMap alone: refused, catch stays.
        for key: Unicode.Scalar in ["f", "\u{7F}"] { error.type(key) }
        #expect(error.learn.play.session.state.slot == [.tryMap, .catch])
        #expect(error.lines.last?.contains(refused) == true, "\(error.lines.last ?? "")")
        error.type("c")
        for _ in 0..<40 { error.press(.right, shifted: true) }
        for _ in 0..<40 where !error.learn.isDone { error.press(.down, shifted: true) }
        #expect(error.learn.isDone && error.learn.play.session.failure == nil)
        // The next lesson by each way of going there: the slot emptied, the card saying so, and
        // the colour following the ball again.
        for keys: [Unicode.Scalar] in [["n"], ["N"], ["m"] + "\(Self.index("behavior") + 1)".unicodeScalars] {
            if error.learn.lesson != Self.index("error") {
                for key in ["m"] + "\(Self.index("error") + 1)".unicodeScalars { error.type(key) }
                for key: Unicode.Scalar in ["2", "f", "X"] { error.type(key) }
            }
            #expect(error.learn.play.session.state.slot == [.tryMap, .catch], "\(keys)")
            for key in keys { error.type(key) }
            #expect(error.learn.lesson != Self.index("error"), "\(keys)")
            #expect(error.learn.play.session.state.slot == SlotPipe.none, "\(keys)")
            #expect(
                Self.card(error).contains("tryMap,catch taken out"),
                "\(keys): \(Self.card(error))")
            let before = error.learn.play.session.state.ballColour
            Self.move(error) { error.learn.play.session.state.ballColour != before }
            #expect(error.learn.play.session.state.ballColour != before, "\(keys): the colour follows")
        }
    }

    @Test(
        "each lesson from its own state: o and u only where taught, the slot cleared off the operator lessons, and said; a mark explained before its lesson"
    )
    func ownState() {
        let why = Self.index("why-behavior") + 1
        let share = Self.index("share") + 1
        let ghost = Pilot<Learn>(first: Self.index("ghost"))
        ghost.type("o")
        #expect(Self.card(ghost).contains("o belongs to lesson \(why), Why Behavior: m \(why) goes there"))
        #expect(ghost.learn.facts.boundThroughPublishAt == nil, "nothing bound")
        ghost.type("u")
        #expect(Self.card(ghost).contains("u belongs to lesson \(share), share"))
        #expect(ghost.learn.facts.mapRuns == nil, "nothing subscribed")
        // An operator left in the slot is taken out where the lesson is on the chain itself.
        let drag = Pilot<Learn>(first: Self.index("flat-map-latest"))
        for key: Unicode.Scalar in ["f", "8"] { drag.type(key) }
        #expect(drag.learn.play.session.state.slot == [.flatMapLatest])
        let completion = "\(Self.index("completion") + 1)"
        for key in ["m"] + completion.unicodeScalars { drag.type(key) }
        #expect(drag.learn.lesson == Self.index("completion"))
        #expect(drag.learn.play.session.state.slot == SlotPipe.none)
        // (With the question asked, on the title's row, in short.)
        #expect(Self.card(drag).contains("flatMapLatest taken out"), "\(Self.card(drag))")
        // A · drawn in lesson 1, before the lesson that teaches it: the card says what it is
        // (from the middle, one cell right keeps the colour).
        let first = Pilot<Learn>(first: Self.index("one-subject"))
        first.type("s")
        first.press(.right)
        #expect(first.learn.facts.columns.contains { $0.position != nil && $0.ballColour == nil })
        #expect(Self.card(first).contains("·: a value swallowed (lesson \(Self.index("ghost") + 1))"))
        // The lesson before's lanes are not drawn: its cancelled subscriber (no !), its moves.
        let publish = Pilot<Learn>(first: Self.index("publish"))
        for key: Unicode.Scalar in ["1", "p"] { publish.type(key) }
        publish.press(.right)
        publish.type("n")
        #expect(publish.learn.lesson == Self.index("why-behavior"))
        #expect(!Self.card(publish).contains("!: a cancel"), "\(Self.card(publish))")
        let lanes = Self.rows(publish).suffix(StreamPanel.tourRows + 1)
        #expect(lanes.contains { $0.hasPrefix("late Publish   p: subscribe") }, "\(lanes.joined(separator: "\n"))")
        #expect(
            !lanes.contains {
                $0.hasPrefix("position")
                    && $0.dropFirst(StreamPanel.labelWidth - 1).unicodeScalars.contains(
                        where: MarbleValue.letters.contains)
            })
    }

    @Test("a question's choices are plain outcomes: none gives its reason after a colon, as stays: all 1s did")
    func choicesGiveNoReason() {
        // The card, drawn: each lesson that asks, its choices as the learner reads them.
        for (index, lesson) in Lesson.all.enumerated() where lesson.question != nil {
            let pilot = Pilot<Learn>(first: index)
            let card = Self.card(pilot)
            let choices = lesson.choices.enumerated().map { "\($0.offset + 1) \($0.element)" }
            #expect(card.contains(choices.joined(separator: " · ")), "\(lesson.id): \(card)")
            for choice in lesson.choices {
                #expect(!choice.contains(":"), "\(lesson.id): \(choice) gives a reason")
            }
        }
    }

    @Test(
        "a lesson's question before anything on screen answers it: lesson 1's · not in lesson 2's lanes; Replay's size not on its label"
    )
    func questionFirst() throws {
        // Lesson 1 done with moves that kept the colour (· on ballColour, nothing on background):
        // lesson 2 asks what background gets, and its lanes draw none of it.
        let pilot = Pilot<Learn>()
        pilot.type("s")
        Self.move(pilot) { pilot.learn.isDone }
        for _ in 0..<3 { pilot.press(.right) }
        #expect(pilot.learn.play.streams.columns(from: 1).contains { $0.position != nil && $0.ballColour == nil })
        pilot.type("n")
        #expect(pilot.learn.lesson == Self.index("ghost"))
        func lane(_ label: String) -> Substring {
            Self.rows(pilot).last { $0.hasPrefix(label + " ") }?.dropFirst(StreamPanel.labelWidth - 1) ?? "none"
        }
        for label in ["intents", "position", "ballColour", "background"] {
            #expect(
                lane(label).allSatisfy { $0 == "─" || $0 == " " }, "\(label): \(pilot.lines.joined(separator: "\n"))")
        }
        pilot.type("2")
        Self.move(pilot) { pilot.learn.isDone }
        #expect(
            lane("ballColour").contains("·") && lane("position").contains { $0.isLetter }, "drawn from the guess on")
        // Lesson 6 asks what a late Replay subscriber is handed: its row says Replay(3) only
        // once its lane is subscribed, after the guess (an idle row names the kind alone, as
        // the player's does).
        let replay = Pilot<Learn>(first: Self.index("replay"))
        for _ in 0..<3 { replay.press(.right) }
        #expect(
            Self.rows(replay).contains { $0.hasPrefix("late Replay ") }
                && !replay.lines.contains { $0.contains("Replay(3)") },
            "\(replay.lines.joined(separator: "\n"))")
        // What it keeps is the setting, said on the card above the choices (not learnt from the
        // third choice's "three"); what it hands a late subscriber is the question.
        let asked = Self.card(replay)
        let size = try #require(asked.range(of: "ReplaySubject.create(bufferSize: \(LateSubscriber.replayBufferSize))"))
        let choices = try #require(asked.range(of: "1 nothing"), "\(asked)")
        #expect(size.upperBound < choices.lowerBound, "\(asked)")
        replay.type("3")
        #expect(Self.rows(replay).contains { $0.hasPrefix("late Replay ") })
        replay.type("r")
        #expect(
            replay.learn.isDone && Self.rows(replay).contains { $0.hasPrefix("late Replay(3) ") && $0.contains("^³") },
            "\(replay.lines.joined(separator: "\n"))")
    }

    @Test("a lesson's words that name another lesson by number name the one it means")
    func lessonNumbersInWords() {
        // Why Behavior's Done says why a dark band keeps white in words of its own, no lesson
        // number the learner has not met.
        let why = Lesson.all[Self.index("why-behavior")].learnt
        #expect(!why.contains("lesson ") && why.contains("its own complement"), "\(why)")
        // Every "lesson N" in a lesson's words names a lesson there is.
        for lesson in Lesson.all {
            let words = [lesson.text, lesson.task, lesson.hint, lesson.learnt, lesson.setup ?? ""].joined(
                separator: " ")
            let tokens = words.split(separator: " ")
            for (word, next) in zip(tokens, tokens.dropFirst()) where word.lowercased() == "lesson" {
                let number = Int(next.prefix { $0.isNumber }) ?? 0
                #expect((1...Lesson.all.count).contains(number), "\(lesson.id): lesson \(next)")
            }
        }
    }

    @Test("every lesson has its script here, by name: the keys that do it and the lane its point is on")
    func everyLessonScripted() {
        #expect(Set(Lesson.all.map(\.id)) == Self.scripted)
        #expect(Set(Self.pointLane.keys) == Self.scripted)
    }

    @Test("at 80×24 every lesson's card fits the tour's rows: the test names a lesson whose card no longer does")
    func cardsFit() {
        let rows = Learn.layout(of: ScreenSize(columns: 80, rows: 24)).cardRows
        #expect(rows <= 6, "the tour's card takes \(rows) rows at 80×24: the ball's area gets too short")
        for (index, lesson) in Lesson.all.enumerated() {
            let cards = Learn.cards(of: index)
            let tallest = cards.map { $0.rowCount(columns: 80) }.max() ?? 0
            let card = cards.first { $0.rowCount(columns: 80) == tallest }
            #expect(
                tallest <= 6,
                "\(lesson.id)'s card takes \(tallest) rows at 80 columns, more than 6: \(card.map { [$0.title, $0.text, $0.task, $0.note] } ?? [])"
            )
        }
    }

    @Test("the card's rows, worked out from each lesson's parts, are the tallest card's at every width")
    func cardRowsFromParts() {
        for columns in stride(from: TourLayout.minimumColumns, through: 200, by: 7) {
            let tallest = Learn.everyCard.map { $0.rowCount(columns: columns) }.max()
            #expect(Learn.cardRows(columns: columns) == tallest, "\(columns) columns")
        }
    }

    @Test("the lanes' rows, closed, are the card's bar whatever its colour, and say how to open them")
    func closedLanes() {
        // At the start the screen is flatTealDark: the bar is light (a dark one would not show).
        let pilot = Pilot<Learn>(first: Self.index("one-subject"))
        let frame = pilot.terminal.frame!
        let bar = frame[0, 0].background
        #expect(bar == .flatWhite, "\(bar)")
        let top = 24 - 1 - StreamPanel.tourRows
        for row in top..<23 {
            #expect((0..<80).allSatisfy { frame[$0, row].background == bar }, "row \(row)")
        }
        #expect(pilot.lines[top + StreamPanel.tourRows / 2].hasPrefix(" The streams are closed: s opens them here"))
    }

    @Test("too small for the card, the ball and the lanes: the size it needs, and no lesson passes until then")
    func tooSmall() {
        let pilot = Pilot<Learn>(first: Self.index("behavior"), screen: ScreenSize(columns: 80, rows: 20))
        let text = pilot.lines.joined(separator: " ")
        #expect(text.contains("too small for the lessons") && text.contains("(need 80×24,"), "\(text)")
        pilot.type("2")
        pilot.type("b")
        #expect(!pilot.learn.isDone)
        pilot.run([.resize(ScreenSize(columns: 80, rows: 24))])
        #expect(pilot.learn.isDone, "seen once the window is large enough")
        #expect(Self.ballWhole(pilot))
    }

    @Test(
        "the card in every colour tier and with no colour (NO_COLOR): its text whole, in the status bar's colours",
        arguments: [ColourDepth.direct, .palette(.xterm256), .palette(.ansi16), .palette(.ansi8), .monochrome])
    func everyTier(depth: ColourDepth) {
        let pilot = Pilot<Learn>(depth: depth)
        #expect(Self.card(pilot).contains("\(Self.heading("one-subject"))"), "\(depth)")
        #expect(Self.card(pilot).contains("each stream as a lane."), "\(depth)")
        // The card's cells are the status bar's: the same look as the status line's text.
        let frame = pilot.terminal.frame!
        let status = frame[1, 23]
        let card = frame[1, 0]
        #expect(card.background == status.background && card.reverse == status.reverse, "\(depth)")
    }

    @Test(
        "in 8 and 16 colours every letter of the card and the lanes reads (4.5:1 as the terminal shows it, bold too), and the status line points to doctor",
        arguments: [ColourDepth.palette(.ansi8), .palette(.ansi16), .palette(.xterm256), .direct])
    func fewColours(depth: ColourDepth) {
        let pilot = Pilot<Learn>(first: Self.index("behavior"), depth: depth)
        let frame = pilot.frame
        var unread: [String] = []
        for row in 0..<(frame.size.rows - 1) {
            for column in 0..<frame.size.columns {
                let cell = frame[column, row]
                guard cell.glyph.properties.isAlphabetic, cell.glyph.isASCII else { continue }
                // Text at 4.5:1 where bold (a title); dim words at least as a mark shows (3:1).
                let reads =
                    cell.bold
                    ? depth.canRead(cell.foreground, on: cell.background, bold: true)
                    : depth.canTellApart(cell.foreground, cell.background)
                if !reads {
                    unread.append("\(column),\(row) \(Character(cell.glyph))")
                }
            }
        }
        #expect(unread.isEmpty, "\(depth): \(unread.prefix(12))")
        // The card points to doctor once it asks no question (the choices stay in view), until a
        // key; the keys stay on the status line.
        let few = depth == .palette(.ansi8) || depth == .palette(.ansi16)
        let doctor = "colours here: colourful-ball doctor says how to see all 48"
        #expect(!Self.card(pilot).contains(doctor) && Self.card(pilot).contains("1 nothing"))
        pilot.type("2")
        #expect(Self.card(pilot).contains(doctor) == few, "\(Self.card(pilot))")
        #expect(pilot.lines.last?.contains("? keys  q quit") == true, "\(pilot.lines.last ?? "")")
        pilot.type("t")
        #expect(!Self.card(pilot).contains("colourful-ball doctor"))
        // A colour change the palette draws as none is said: from the middle of 80×24 the ball
        // goes flatMaroonDark, flatMaroon, … (in 8 colours all red), each drawn as its entry.
        let moving = Pilot<Learn>(first: Self.index("share"), depth: depth)
        var said: [String] = []
        for _ in 0..<12 {
            let before = moving.learn.play.session.state.ballColour
            moving.press(.right)
            let after = moving.learn.play.session.state.ballColour
            let alike = Learn.lookAlikeAnswer(before, after, depth: depth)
            if let alike { said.append(alike) }
            #expect(
                Self.card(moving).contains(alike ?? "one colour in") == (alike != nil),
                "\(before)→\(after) \(Self.card(moving))")
        }
        #expect(said.isEmpty == (depth != .palette(.ansi8)), "\(depth): \(said)")
    }

    @Test(
        "lessons pass only on what the learner did in them: not on keys before n, not on a resize, not on the start's one value, not behind \"too small\""
    )
    func onlyWhatWasDone() {
        // A cancel made after lesson 6 was done, before n, does not pass lesson 7 (Cancel).
        let replay = Pilot<Learn>(first: Self.index("replay"))
        Self.move(replay, until: { replay.learn.play.session.viewModel.position.value.centre.column > 44 })
        replay.type("3")
        replay.type("r")
        #expect(replay.learn.isDone, "handed three after the moves")
        replay.type("r")  // A cancel, before n.
        replay.type("n")
        #expect(replay.learn.lesson == 6 && !replay.learn.isDone)
        replay.type("t")
        #expect(!replay.learn.isDone, "the cancel before the lesson began is not this lesson's")
        replay.type("r")
        replay.type("r")
        #expect(!replay.learn.isDone, "its own cancel, no move after it yet")
        replay.press(.right)
        #expect(replay.learn.isDone, "its own cancel, then a move")
        // Publish: a value from a resize is not one from a move.
        let publish = Pilot<Learn>(first: Self.index("publish"))
        publish.type("1")
        publish.type("p")
        publish.run([.resize(ScreenSize(columns: 90, rows: 26))])
        #expect(!publish.learn.isDone, "a resize publishes a position, but the learner did not move")
        publish.press(.left)
        #expect(publish.learn.isDone)
        // Replay(3) at the start holds one value: r is not the lesson done, and says why.
        let early = Pilot<Learn>(first: Self.index("replay"))
        early.type("s")
        early.type("s")
        early.type("3")
        early.type("r")
        #expect(!early.learn.isDone)
        #expect(Self.card(early).contains("Handed 1: all it held. Move 2 times, then r twice"))
        Self.move(early, until: { early.learn.play.session.viewModel.position.value.centre.column > 44 })
        #expect(!early.learn.isDone)
        early.type("r")
        early.type("r")
        #expect(early.learn.isDone, "cancelled and subscribed again after the moves: handed three")
        // learn 15 done, n: the closing card, saying which are left (the session has ended), runs
        // as ranges.
        let last = Pilot<Learn>(first: Self.index("completion"), done: [Self.index("publish"), Self.index("filter")])
        // (r asks the Replay lesson's question first: 3 answers it.)
        for key: Unicode.Scalar in ["2", "e", "b", "p", "r", "3", "v"] { last.type(key) }
        #expect(last.learn.isDone)
        last.type("n")
        #expect(Self.card(last).contains("The session has ended"), "\(Self.card(last))")
        // (Completion is the last lesson: the others after filter are left.)
        #expect(
            Self.card(last).contains("Left: 1–3, 5–9, 11–\(Self.index("completion")): colourful-ball learn goes on"),
            "\(Self.card(last))")
        last.type("N")
        #expect(Self.card(last).contains("The session has ended: q, then colourful-ball learn N"))
        last.type("n")
        #expect(Self.card(last).contains("No next lesson: the tour is over. q, then colourful-ball learn N"))
        // learn 8 done, n: the next lesson not done, not the closing card.
        let band = Pilot<Learn>(first: Self.index("scan"))
        Self.move(band, until: { band.learn.isDone }, limit: 600)
        band.type("n")
        #expect(band.learn.lesson == 8 && Self.card(band).contains(Self.heading("share")))
        let allDone = Pilot<Learn>(first: Self.index("scan"), done: Set(Lesson.all.indices).subtracting([7]))
        Self.move(allDone, until: { allDone.learn.isDone }, limit: 600)
        #expect(Self.card(allDone).contains("n: the tour's end"), "no lesson left: n ends the tour")
        allDone.type("n")
        #expect(Self.card(allDone).contains("All \(Lesson.all.count) lessons done"))
        allDone.type("n")
        #expect(Self.card(allDone).contains("No next lesson: the tour is over. q leaves; N goes back"))
        allDone.type("N")
        #expect(allDone.learn.lesson == Lesson.all.count - 1, "the session goes on: N goes back")
        // Too small to show the card, the ball and the lanes: nothing passes until it does.
        let small = Pilot<Learn>(first: Self.index("behavior"), screen: ScreenSize(columns: 20, rows: 6))
        small.type("2")
        small.type("b")
        #expect(!small.learn.isDone)
        small.run([.resize(ScreenSize(columns: 80, rows: 24))])
        #expect(small.learn.isDone, "seen once the window is large enough")
    }

    /// The help box's words as one text, or nothing when no box is open.
    static func box(_ pilot: Pilot<Learn>) -> String {
        (pilot.learn.binding.model.help?.rows ?? []).map { "\($0.keys): \($0.does)" }.joined(separator: "\n")
    }

    @Test("in learn, ? and --help name the late keys without what each is handed; play's keep it")
    func helpTellsNoAnswer() {
        let pilot = Pilot<Learn>(first: Self.index("behavior"))
        pilot.type("?")
        let help = Self.box(pilot)
        let learnHelp = KeyMap.summary(for: .learn)
        let playHelp = KeyMap.summary(for: .play)
        for kind in LateSubscriber.allCases {
            #expect(help.contains("a late \(kind.plainName) subscriber"), "\(help)")
            #expect(!help.contains(kind.handedWords), "\(kind.key): \(help)")
            #expect(!learnHelp.contains(kind.handedWords), "\(kind.key): \(learnHelp)")
            #expect(!KeyMap.markdownTable(for: .learn).contains(kind.handedWords), "\(kind.key)")
            #expect(playHelp.contains(kind.handedWords), "play is no quiz: \(kind.key)")
        }
        // The lanes' legend too: groups and ^ in neutral words until the lessons they would
        // answer are done (in learn --help always), then as play says them.
        let telling = "two, three, more at once (Replay"
        #expect(help.contains("two, three, more values in one column;") && !help.contains(telling), "\(help)")
        #expect(!help.contains("what it was handed at once follows"), "\(help)")
        #expect(
            !KeyMap.legendSummary(untold: KeyMap.neutralLegend).contains(telling)
                && KeyMap.legendSummary().contains(telling))
        let answered = ["behavior", "publish"].map(Self.index)
        let partly = Pilot<Learn>(first: Self.index("replay"), done: Set(answered))
        partly.type("?")
        #expect(!Self.box(partly).contains(telling), "lesson 6 not done yet")
        let told = Pilot<Learn>(first: Self.index("cancel"), done: Set(answered + [Self.index("replay")]))
        told.type("?")
        #expect(Self.box(told).contains(telling), "\(Self.box(told))")
    }

    @Test(
        "lesson 1's hover names no lane it does not draw: ballColour's code reads position; slotted, where said, explained"
    )
    func lessonOneHoverNamesNoUndrawnLane() throws {
        for columns in [80, 220] {
            let pilot = Pilot<Learn>(first: Self.index("one-subject"), screen: ScreenSize(columns: columns, rows: 24))
            pilot.type("s")
            pilot.press(.right)
            #expect(!pilot.lines.contains { $0.hasPrefix(" slotted") }, "no slot's lane in lesson 1")
            let row = try #require(pilot.lines.firstIndex { $0.hasPrefix(" ballColour") })
            pilot.hover(at: Cell(column: StreamPanel.labelWidth + 2, row: row))
            let line = try #require(pilot.lines.first { $0.hasPrefix(" #1: ") }, "\(pilot.lines)")
            // Wide, the code in full says what slotted is; at 80 columns, the code reads position
            // where it has room, and slotted is not named.
            if columns > 200 {
                #expect(line.contains("slotted being position while the slot (f) is empty"), "\(line)")
            } else {
                #expect(!line.contains("slotted"), "\(line)")
            }
        }
    }

    @Test(
        "lesson 1's lanes leave background's out, so its swallowed moves do not answer lesson 2 (what background gets); lesson 2 draws it"
    )
    func lessonOneLeavesBackgroundOut() {
        for size in Self.tourSizes {
            let pilot = Pilot<Learn>(first: Self.index("one-subject"), screen: size)
            pilot.type("s")
            Self.move(pilot) { pilot.learn.isDone }
            // A move within a band too: ballColour's ·, and nothing drawn of what background got.
            let swallowed = {
                pilot.learn.play.streams.columns(from: 0).last.map { $0.position != nil && $0.ballColour == nil }
                    ?? false
            }
            Self.move(pilot, until: swallowed)
            #expect(swallowed(), "\(size)")
            let rows = Self.rows(pilot)
            #expect(pilot.learn.isDone, "\(size)")
            #expect(
                rows.contains { $0.hasPrefix("ballColour ") && $0.contains("·") && $0.contains("●") }
                    && !rows.contains { $0.hasPrefix("background ") }, "\(size): \(rows.joined(separator: "\n"))")
            #expect(Self.card(pilot).contains("(background: lesson 2)"), "\(Self.card(pilot))")
            pilot.type("n")
            #expect(Self.rows(pilot).contains { $0.hasPrefix("background ") }, "\(size): lesson 2 draws it")
        }
    }

    @Test("the closing card's lanes begin where it was shown, and the hover there says so, not that a lesson began")
    func closingCardHover() throws {
        let last = Lesson.all.count - 1
        let pilot = Pilot<Learn>(first: last, done: Set(0..<last))
        pilot.press(.right)
        for key: Unicode.Scalar in ["2", "e", "b", "p", "r", "v", "n"] { pilot.type(key) }
        #expect(Self.card(pilot).contains("All \(Lesson.all.count) lessons done"), "\(Self.card(pilot))")
        let floor = pilot.learn.floor
        #expect(floor.closing && floor.column > 0)
        let row = try #require(pilot.lines.firstIndex { $0.hasPrefix(" intents") }, "\(pilot.lines)")
        pilot.hover(at: Cell(column: StreamPanel.labelWidth, row: row))
        let line = try #require(pilot.lines.first { $0.hasPrefix(" #\(floor.column) ") }, "\(pilot.lines)")
        #expect(line.contains("the closing card began here") && !line.contains("lesson"), "\(line)")
        // position completed (`e`) in that column: its lane says so, not that an error ended it.
        pilot.hover(at: Cell(column: StreamPanel.labelWidth, row: row + 1))
        let ended = try #require(pilot.lines.first { $0.hasPrefix(" #\(floor.column): ") }, "\(pilot.lines)")
        #expect(ended.contains("completed") && !ended.contains("error"), "\(ended)")
        // A lesson's first column still says where the lesson began.
        let lesson = Pilot<Learn>(first: Self.index("behavior"))
        lesson.press(.right)
        lesson.type("N")
        #expect(lesson.learn.floor.column > 0 && !lesson.learn.floor.closing)
        let laneRow = try #require(lesson.lines.firstIndex { $0.hasPrefix(" intents") }, "\(lesson.lines)")
        lesson.hover(at: Cell(column: StreamPanel.labelWidth, row: laneRow))
        #expect(lesson.lines.contains { $0.hasPrefix(" #\(lesson.learn.floor.column) the lesson began here") })
    }

    @Test("before lesson 9, no card or hover of the earlier lessons says share(replay: 1): it names lesson 9")
    func shareUnsaidBeforeItsLesson() throws {
        let share = Self.index("share")
        // Why Behavior: o, then o again binds back; the card says why without share.
        let bound = Pilot<Learn>(first: Self.index("why-behavior"), screen: ScreenSize(columns: 220, rows: 24))
        for key: Unicode.Scalar in ["2", "o", "o"] { bound.type(key) }
        #expect(Self.card(bound).contains("(lesson \(share + 1))") && !Self.card(bound).contains("share("))
        // The hover, wide enough for the colour lanes' code in full.
        func hovered(_ pilot: Pilot<Learn>, _ label: String) throws -> String {
            pilot.openStreams()
            pilot.press(.right)
            let row = try #require(pilot.lines.lastIndex { $0.hasPrefix(" \(label) ") }, "\(pilot.lines)")
            pilot.hover(at: Cell(column: StreamPanel.labelWidth + 2, row: row))
            return try #require(pilot.lines.first { $0.hasPrefix(" #1: ") }, "\(pilot.lines)")
        }
        for label in ["ballColour", "background"] {
            let early = Pilot<Learn>(first: Self.index("ghost"), screen: ScreenSize(columns: 220, rows: 24))
            early.type("2")
            let line = try hovered(early, label)
            #expect(line.contains("(shared: lesson \(share + 1))") && !line.contains("share("), "\(line)")
            // In the share lesson itself, and once it is done, the code in full.
            let told: [(first: Int, done: Set<Int>)] = [(Self.index("ghost"), [share]), (share, [])]
            for (first, done) in told {
                let pilot = Pilot<Learn>(first: first, done: done, screen: ScreenSize(columns: 220, rows: 24))
                if first != share { pilot.type("2") }
                let line = try hovered(pilot, label)
                #expect(line.contains(".share(replay: 1)"), "\(line)")
            }
        }
    }

    @Test(
        "a box open in the tour hides the card whole, on every page, at 80×24 and the smallest size: none over the other",
        arguments: Self.tourSizes)
    func boxHidesTheCard(size: ScreenSize) {
        for (first, key) in [(Self.index("cancel"), Unicode.Scalar("?")), (Self.index("filter"), "f"), (0, "m")] {
            let pilot = Pilot<Learn>(first: first, screen: size)
            pilot.openStreams()
            let title = "Lesson \(first + 1) of \(Lesson.all.count)"
            #expect(pilot.lines.contains { $0.contains(title) }, "the card first")
            pilot.type(key)
            var pages = 0
            while pilot.learn.binding.model.help != nil, pages < 12 {
                let cardRows = pilot.lines.prefix(Learn.layout(of: size).cardRows)
                #expect(!pilot.lines.contains { $0.contains(title) }, "\(key) page \(pages + 1): \(pilot.lines)")
                #expect(
                    !cardRows.contains { $0.contains("Task:") || $0.contains("t: a hint") }, "\(key) page \(pages + 1)")
                pages += 1
                let before = pilot.learn.binding.model.help?.page
                pilot.type(" ")
                if pilot.learn.binding.model.help?.page == before { break }
            }
            #expect(pages >= 1)
            pilot.run([.bytes(TerminalBytes.escape), .pass(RunLoop.defaultEscapeWait)])
            #expect(pilot.learn.binding.model.help == nil && pilot.lines.contains { $0.contains(title) }, "back")
        }
    }

    /// Words that would answer each asking lesson's question, by its id, besides its own point,
    /// Done line and hint, and what its operators do: none may be on a surface the learner can
    /// reach before the guess.
    static let giveaways: [String: [String]] = [
        "ghost": ["background got nothing", "background gets nothing"],
        "behavior": [LateSubscriber.behavior.handedWords, "handed the latest", "latest value at once"],
        "publish": [LateSubscriber.publish.handedWords, "hands a new subscriber nothing"],
        "why-behavior": ["shows its default", "white until"],
        "replay": [
            LateSubscriber.replay.name, LateSubscriber.replay.handedWords, "two, three, more at once",
            "keeps the last 3",
        ],
        "counter": ["counts the position it is handed"],
        "compose": ["all 1s, one colour"],
        "debounce-throttle": ["the first at once", "after 300 ms quiet", "latest: true"],
        "combine-latest": ["passes on when either"],
        "flat-map": ["each position twice"],
        "error": ["which completes", "catchAndReturn(.centred", "after its fallback", "the middle, then the end"],
        "completion": ["never ends", LateSubscriber.relay.handedWords],
    ]

    /// Everything that would answer lesson `index`'s question (it asks one).
    static func answers(of index: Int) -> [String] {
        let lesson = Lesson.all[index]
        let operators = lesson.slots.flatMap(\.stages)
        let recovering =
            operators.contains { $0.operation.recovers } ? SlotOperator.allCases.filter(\.operation.recovers) : []
        return (giveaways[lesson.id] ?? []) + [lesson.learnt, lesson.hint] + (lesson.setup != nil ? [lesson.text] : [])
            + (operators + recovering).map(\.words)
    }

    @Test(
        "before each lesson's guess no help gives its answer or a later one's: learn --help, ?, its legend, m, f, the card, its answers"
    )
    func noHelpAnswersAQuestion() {
        let asking = Lesson.all.indices.filter { Lesson.all[$0].predicts != nil }
        #expect(asking.count >= 12, "every lesson that asks is scanned")
        #expect(Set(Self.giveaways.keys).isSubset(of: Set(asking.map { Lesson.all[$0].id })))
        // What holds in every lesson: learn --help's keys and legend, the README's key table, the
        // answers a card can give.
        let everywhere =
            [
                KeyMap.summary(for: .learn), KeyMap.legendSummary(untold: KeyMap.neutralLegend),
                KeyMap.markdownTable(for: .learn),
            ]
            + Learn.answers.filter { answer in
                // The answer to `o` bound back is said in Why Behavior's lesson after its guess.
                answer != Learn.boundBackAnswer
            }
        for index in asking {
            // Nothing done, or every lesson before done: no surface in the lesson, before its
            // guess, says what this lesson asks, or a later one (nothing done: any lesson).
            for done in [Set<Int>(), Set(0..<index)] {
                let pilot = Pilot<Learn>(first: index, done: done)
                pilot.openStreams()
                var surfaces = ["the screen": pilot.lines.joined(separator: "\n")]
                for key: Unicode.Scalar in ["?", "m", "f"] {
                    pilot.run([.bytes(TerminalBytes.escape), .pass(RunLoop.defaultEscapeWait)])
                    pilot.type(key)
                    surfaces["\(key)"] = Self.box(pilot) + "\n" + pilot.lines.joined(separator: "\n")
                }
                // (Each box was open: the keys' box, the lessons', the operators' or f's answer.)
                #expect(surfaces["?"]?.contains("a late Replay subscriber") == true, "\(surfaces["?"] ?? "")")
                #expect(surfaces["m"]?.contains("The lessons (✓ done)") == true, "\(surfaces["m"] ?? "")")
                #expect(
                    surfaces["f"].map { $0.contains("Between position and ballColour") || $0.contains("then f.") }
                        == true, "\(surfaces["f"] ?? "")")
                for (number, text) in everywhere.enumerated() { surfaces["help \(number)"] = text }
                let unanswered = asking.filter { !done.contains($0) && $0 >= (done.isEmpty ? 0 : index) }
                for lesson in unanswered {
                    for words in Self.answers(of: lesson) {
                        for (surface, text) in surfaces where text.contains(words) {
                            Issue.record(
                                "lesson \(index + 1), done \(done.count): \(surface) answers lesson \(lesson + 1) with '\(words)'"
                            )
                        }
                    }
                }
                #expect(pilot.learn.lesson == index && !pilot.learn.isDone)
            }
        }
    }

    @Test("a lesson done before, come back to by N or m, lets n go on; one not done does not")
    func doneLessonGoesOn() {
        // Lesson 1 done, then N back to it from lesson 2: its task is offered again, and n goes on.
        let back = Pilot<Learn>(first: 1, done: [0])
        back.type("N")
        #expect(back.learn.lesson == 0 && !back.learn.isDone)
        back.type("n")
        #expect(back.learn.lesson == 1, "\(Self.card(back))")
        #expect(!Self.card(back).contains("Not done yet"))
        // m to a done lesson: n goes to the next not done after it.
        let jumped = Pilot<Learn>(first: 4, done: [0, 2])
        for key: Unicode.Scalar in ["m", "3"] { jumped.type(key) }
        #expect(jumped.learn.lesson == 2)
        jumped.type("n")
        #expect(jumped.learn.lesson == 3, "\(Self.card(jumped))")
        // m to one not done: n refuses.
        for key: Unicode.Scalar in ["m", "2"] { jumped.type(key) }
        jumped.type("n")
        #expect(jumped.learn.lesson == 1 && Self.card(jumped).contains("Not done yet"))
    }

    @Test("a late key whose lane would answer a question not yet asked subscribes nothing; the card says whose it is")
    func lateKeyBeforeItsLesson() {
        // Lesson 1: b would draw ^ and a letter, lesson 3's answer.
        let first = Pilot<Learn>(first: 0)
        first.type("b")
        #expect(first.learn.play.streams.lateLane(.behavior)?.isLive != true)
        #expect(Self.card(first).contains("b belongs to lesson 3, Behavior: m 3 goes there."), "\(Self.card(first))")
        // Lesson 6, lesson 3 not done, lesson 6's question answered: b asks lesson 3's first
        // (TourKeyTests), subscribing nothing till a digit answers it.
        let replay = Pilot<Learn>(first: Self.index("replay"))
        replay.type("3")
        replay.type("b")
        #expect(replay.learn.play.streams.lateLane(.behavior)?.isLive != true)
        // Lesson 3 done: b subscribes in a lesson after it.
        let told = Pilot<Learn>(first: Self.index("replay"), done: [Self.index("behavior")])
        told.type("3")
        told.type("b")
        #expect(told.learn.play.streams.lateLane(.behavior)?.isLive == true)
    }

    @Test("lesson 1's card names ballColour's code whole: map, then distinctUntilChanged, its · lesson 2's")
    func firstCardCodeWhole() {
        let pilot = Pilot<Learn>(first: 0)
        #expect(
            Self.card(pilot).contains("position.map { $0.ballColour }.distinctUntilChanged() (its ·: lesson 2)"),
            "\(Self.card(pilot))")
    }

    @Test("no mark is left out of a card: each is in its note or on its title's row, or counted there for ?")
    func marksNeverDropped() {
        let words = [
            "^: subscribed here", "·: a value swallowed", "!: a cancel",
            "├ ƒ: put in (f), position's latest handed to it", "▼ • ▲: press, drag, release", "T F: a flag's value",
            "→ ← ↑ ↓: an arrow key", "● ■: the ball's, the screen's colour; the ruler counts intents",
        ]
        var pointed = 0
        for index in Lesson.all.indices {
            for card in Learn.cards(of: index) {
                let text = [card.title, card.text, card.task, card.note].joined(separator: " ")
                let shown = words.filter { text.contains($0) }.count
                // `? explains ├ ƒ, T F` or `? explains 4 more marks` on the title's row: those the
                // card has no room for, named, or counted in words where their names are long.
                var counted = 0
                if let pointer = card.title.range(of: "? explains ") {
                    let rest = card.title[pointer.upperBound...]
                    if let count = rest.wholeMatch(of: /(\d+) more marks?/) {
                        counted = Int(count.1) ?? 0
                    } else {
                        let named = rest.split(separator: ", ").map(String.init)
                        #expect(named.allSatisfy { name in words.contains { $0.hasPrefix(name + ":") } }, "\(rest)")
                        counted = named.count
                    }
                }
                #expect(!text.contains("marks: ?") && !text.contains("mark: ?"), "\(text)")
                pointed += counted
                guard shown + counted > 0 else { continue }
                #expect(shown + counted == words.count, "\(Lesson.all[index].id): \(text)")
                #expect(card.rowCount(columns: 80) <= Learn.layout(of: ScreenSize(columns: 80, rows: 24)).cardRows)
            }
        }
        #expect(pointed > 0, "some card has no room for every mark: it points at them")
    }

    @Test(
        "lesson 17's question is answerable from its card: catch's .just(centre) shown before the guess, what it does (and catchAndReturn's value) after"
    )
    func fallbackShownBeforeGuess() {
        let error = Self.index("error")
        // The f box of an earlier lesson names catch by its whole code, catchAndReturn without
        // its value, neither by what it does.
        let earlier = Pilot<Learn>(first: Self.index("filter"))
        earlier.type("f")
        let box = Self.box(earlier)
        #expect(box.contains(".catch { _ in .just(.centred(on: screen)) }: lesson \(error + 1)"), "\(box)")
        #expect(box.contains(".catchAndReturn(…): lesson \(error + 1)"), "\(box)")
        #expect(!box.contains(SlotOperator.catch.words) && !box.contains("catchAndReturn(.centred"), "\(box)")
        // Lesson 17's card before the guess: what catch returns, not what comes of it.
        let lesson = Pilot<Learn>(first: error)
        #expect(Self.card(lesson).contains("catch { _ in .just(centre) } after it"), "\(Self.card(lesson))")
        #expect(!Self.card(lesson).contains("which completes"), "\(Self.card(lesson))")
        lesson.type("2")
        #expect(
            Self.card(lesson).contains(".just(centre), which completes"), "said after the guess: \(Self.card(lesson))")
        lesson.type("f")
        #expect(Self.box(lesson).contains(".catch { _ in .just(.centred(on: screen)) }"), "\(Self.box(lesson))")
        // Once the lesson is done, every box says it.
        let told = Pilot<Learn>(first: Self.index("filter"), done: [error])
        told.type("f")
        #expect(Self.box(told).contains("catchAndReturn(.centred(on: screen))"), "\(Self.box(told))")
    }

    @Test("in learn, the f box names an operator whose lesson is not done without what it does")
    func operatorsBoxTellsNoAnswer() {
        let pilot = Pilot<Learn>(first: Self.index("filter"))
        pilot.type("f")
        let box = Self.box(pilot)
        let throttleLesson = Self.index("debounce-throttle") + 1
        let unsaid = Set(Learn.untold(done: []).keys)
        for slot in [SlotOperator.throttle, .debounce, .combineLatest, .flatMapLatest, .scan] {
            #expect(!box.contains(slot.words), "\(slot.name): \(box)")
            #expect(box.contains(slot.alone.code(unsaid: unsaid)), "\(slot.name) named: \(box)")
        }
        // throttle by RxSwift's default, `latest: true` unsaid: that hints at what lesson 13 asks.
        let throttle = SlotOperator.throttle.operation.unsaidCode
        #expect(box.contains("\(throttle): lesson \(throttleLesson)") && !box.contains("latest: true"), "\(box)")
        // What every recovering operator does waits for the error lesson's guess: catchAndReturn's
        // words would answer it.
        let errorLesson = Self.index("error")
        for slot in [SlotOperator.catch, .catchAndReturn, .retry, .tryMap] {
            #expect(Learn.untold(done: [])[slot] == errorLesson + 1, "\(slot.name)")
            #expect(Learn.untold(done: [errorLesson])[slot] == nil, "\(slot.name)")
        }
        // sample's words say the mirror, a Behavior subject, hands it its value as it subscribes:
        // what the Behavior lesson asks; once it is done, they are said.
        let behavior = Self.index("behavior")
        #expect(!box.contains(SlotOperator.sample.words), "\(box)")
        #expect(box.contains("position.sample(mirror): lesson \(behavior + 1)"), "\(box)")
        let behaviorDone = Pilot<Learn>(first: Self.index("filter"), done: [behavior])
        behaviorDone.type("f")
        #expect(Self.box(behaviorDone).contains(SlotOperator.sample.words), "\(Self.box(behaviorDone))")
        // The box that adds a stage (f |) tells no more: lesson 12 does not answer lesson 13.
        let compose = Pilot<Learn>(first: Self.index("compose"))
        for key: Unicode.Scalar in ["2", "f", "z", "f", "|"] { compose.type(key) }
        #expect(compose.learn.binding.model.help?.title.hasPrefix("Add a stage") == true)
        #expect(
            !Self.box(compose).contains(SlotOperator.throttle.words)
                && Self.box(compose).contains("\(throttle.dropFirst("position".count)): lesson \(throttleLesson)"),
            "\(Self.box(compose))")
        // In the lesson itself, the words come with the guess (f before it opens no box).
        let timing = Pilot<Learn>(first: Self.index("debounce-throttle"))
        timing.run([.resize(ScreenSize(columns: 96, rows: 30))])
        timing.type("f")
        #expect(timing.learn.binding.model.help == nil)
        timing.type("1")
        timing.type("f")
        #expect(Self.box(timing).contains(SlotOperator.throttle.words), "\(Self.box(timing))")
        // Once its lesson is done, the box says what it does, as play's does.
        let told = Play.operatorsBox(current: .none, untold: Learn.untold(done: [Self.index("debounce-throttle")]))
        #expect(told.rows.contains { $0.does.contains(SlotOperator.throttle.words) })
        #expect(!told.rows.contains { $0.does.contains(SlotOperator.combineLatest.words) })
    }

    @Test("a mark met before it is explained is on the card where it first shows: !, ├ ƒ, ▼ • ▲")
    func marksExplainedWhereShown() {
        // Lesson 4's question card: lesson 3's lanes are not drawn (its cancelled Behavior
        // subscriber's ! with them), but a Publish subscriber cancelled here is, before the guess.
        let publish = Pilot<Learn>(first: Self.index("behavior"))
        for key: Unicode.Scalar in ["2", "b", "n"] { publish.type(key) }
        #expect(publish.learn.lesson == Self.index("publish"))
        #expect(!Self.card(publish).contains("!: a cancel"), "\(Self.card(publish))")
        for key: Unicode.Scalar in ["b", "b"] { publish.type(key) }
        #expect(Self.card(publish).contains("1 nothing"), "the question is still asked")
        #expect(
            Self.card(publish).contains("!: a cancel (lesson \(Self.index("cancel") + 1))"), "\(Self.card(publish))")
        // Lesson 10: an operator put in draws ├ on the slot's lane and ƒ on the intents'.
        let filter = Pilot<Learn>(first: Self.index("filter"))
        #expect(!Self.card(filter).contains("├ ƒ"), "nothing put in yet")
        for key: Unicode.Scalar in ["f", "2"] { filter.type(key) }
        #expect(Self.card(filter).contains("├ ƒ: put in (f), position's latest handed to it"), "\(Self.card(filter))")
        // Lesson 14: a drag draws ▼ • ▲.
        let drag = Pilot<Learn>(first: Self.index("flat-map-latest"))
        for key: Unicode.Scalar in ["f", "8"] { drag.type(key) }
        #expect(!Self.card(drag).contains("▼ • ▲"), "no press yet")
        let centre = drag.learn.play.session.state.position.centre
        drag.drag([centre, Cell(column: centre.column + 3, row: centre.row)])
        #expect(Self.card(drag).contains("▼ • ▲: press, drag, release"), "\(Self.card(drag))")
        // Whatever the path: a learner who jumps past lesson 10 or 14 meets the words where the
        // mark is first drawn.
        let counter = Pilot<Learn>(first: Self.index("counter"))
        for key: Unicode.Scalar in ["2", "f", "9"] { counter.type(key) }
        #expect(Self.card(counter).contains("├ ƒ: put in (f), position's latest handed to it"), "\(Self.card(counter))")
        let completion = Pilot<Learn>(first: Self.index("completion"))
        let start = completion.learn.play.session.state.position.centre
        completion.drag([start, Cell(column: start.column + 3, row: start.row)])
        #expect(Self.card(completion).contains("▼ • ▲: press, drag, release"), "\(Self.card(completion))")
        // Once the lesson about it is done, no more.
        let taught = Pilot<Learn>(
            first: Self.index("completion"), done: [Self.index("flat-map-latest"), Self.index("filter")])
        taught.drag([start, Cell(column: start.column + 3, row: start.row)])
        #expect(!Self.card(taught).contains("▼ • ▲"), "\(Self.card(taught))")
    }
}
