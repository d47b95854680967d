import BallModel
import BallProgram
import BallRendering
import BallReplay
import BallTestSupport
import Testing
import TextFormats

/// A timed operator's interval (100, 300 or 1000 ms), chosen as a user chooses it: `(` and `)`
/// in the operators box, the real loop on its manual clock, the screen read back.
@Suite("A timed operator's interval")
struct IntervalTests {
    /// The cell of the time view's column at `offset`.
    static func cell(_ offset: Int) -> Int { TimeAxisTests.cell(offset) }

    @Test(
        "f ) 4: the box shows 1000 ms chosen and debounce's code with it, the slot holds debounce:1000ms, and the time view draws its wait ten columns long"
    )
    func longerInTheBox() {
        let driver = Pilot<Play>()
        driver.toggleStreams()
        driver.type("f")
        driver.type(")")
        // Nothing timed in the slot: nothing is built; the box, open still, shows the choice.
        #expect(driver.session.state.slot == .none)
        var lines = driver.lines
        #expect(lines.contains { $0.contains("( )  how long debounce and throttle wait: 100 ms, 300 ms, 1000 ms ◂") })
        #expect(lines.contains { $0.contains("4    position.debounce(.milliseconds(1000), scheduler: clock)") })
        driver.type("4")
        #expect(driver.session.state.slot == [SlotOperator.debounce.waiting(.long)])
        #expect(driver.lines.last?.contains("ƒ debounce:1000ms") == true, "\(driver.lines.last ?? "")")
        // Handed the position as it is chosen at 0 s, it lets it through at 1 s; a move at 2 s, at 3 s.
        driver.type("T")
        driver.passTime(to: 2.0)
        driver.press(.right)
        driver.passTime(to: 4.0)
        lines = driver.lines
        let position = TimeAxisTests.row("position", in: lines)
        let debounce = TimeAxisTests.slotRow(in: lines)
        #expect(position.lastIndex(of: "○") == Self.cell(20))
        #expect(debounce.lastIndex(of: "○") == Self.cell(30), "\(String(debounce))")
        #expect(String(debounce[(Self.cell(20) + 1)..<Self.cell(30)]) == String(repeating: "~", count: 9))
        // (The colour follows at 3 s: the same colour as before, drawn · on its lane.)
        #expect(TimeAxisTests.row("ballColour", in: lines)[Self.cell(30)] != " ")
        // The segment's name says the interval (it is not the usual).
        #expect(lines.contains { $0.hasPrefix(" in the slot ") && $0.contains(".debounce(1000ms)") }, "\(lines)")
    }

    @Test(
        "with debounce in the slot, , ( and ) build it afresh waiting the next interval (an intent each, recorded), and say where the three end"
    )
    func shorterRebuilds() throws {
        let recorded = try RecordedPlay()
        let driver = recorded.pilot
        driver.type("f")
        driver.type("4")
        #expect(driver.session.state.slot == [.debounce])
        driver.type("f")
        driver.type("(")
        #expect(driver.session.state.slot == [SlotOperator.debounce.waiting(.short)])
        // The box stays open, 100 ms marked; the shortest goes no shorter.
        #expect(driver.lines.contains { $0.contains("100 ms ◂, 300 ms, 1000 ms") })
        driver.type("(")
        #expect(driver.session.state.slot == [SlotOperator.debounce.waiting(.short)])
        #expect(driver.lines.last?.contains("100 ms is the shortest wait: ) goes longer") == true)
        // Outside the box, the keys say where they work.
        driver.type("x")
        driver.type(")")
        #expect(
            driver.lines.last?.contains("( ) choose how long debounce and throttle wait in the operators box") == true)
        #expect(driver.session.state.slot == [SlotOperator.debounce.waiting(.short)])
        // A throttle put in now waits 100 ms too.
        driver.type("f")
        driver.type("5")
        #expect(driver.session.state.slot == [SlotOperator.throttle.waiting(.short)])
        driver.type("q")
        #expect(recorded.recorder.failure == nil)
        let built = recorded.file.lines.filter { $0.contains(#""event":"operator""#) }
        #expect(
            built.map { String($0.drop { $0 != "," }.dropFirst()) } == [
                #""event":"operator","name":"debounce","interval":300}"#,
                #""event":"operator","name":"debounce","interval":100}"#,
                #""event":"operator","name":"throttle","interval":100}"#,
            ], "\(built)")
    }
}
