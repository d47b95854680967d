import BallModel
import OpenCombine
import Testing

/// The session's virtual clock: actions run in order of their due times, at one time in the
/// order scheduled, only when the clock is moved on.
@Suite("The session's clock")
struct SessionClockTests {
    static func ms(_ milliseconds: Int64) -> SessionTime { SessionTime(microseconds: milliseconds * 1_000) }

    @Test("actions run by due time, then in the order scheduled; only when the clock reaches them; never twice")
    func order() {
        let clock = SessionScheduler(now: Self.ms(10))
        var ran: [String] = []
        clock.schedule(after: Self.ms(30)) { ran.append("b at 30") }
        clock.schedule(after: Self.ms(20)) { ran.append("a at 20") }
        clock.schedule(after: Self.ms(30)) { ran.append("c at 30") }
        clock.schedule { ran.append("now") }
        #expect(ran.isEmpty)
        #expect(clock.nextDue == Self.ms(10))
        clock.advance(to: Self.ms(20))
        #expect(ran == ["now", "a at 20"])
        #expect(clock.now == Self.ms(20))
        // One scheduled by an action runs in the same advance when it is due by then.
        clock.schedule(after: Self.ms(25)) {
            ran.append("d at 25")
            clock.schedule(after: Self.ms(28)) { ran.append("e at 28, from d") }
        }
        clock.advance(to: Self.ms(30))
        #expect(ran == ["now", "a at 20", "d at 25", "e at 28, from d", "b at 30", "c at 30"])
        clock.advance(to: Self.ms(5))  // Never back.
        #expect(clock.now == Self.ms(30))
        #expect(clock.nextDue == nil)
    }

    @Test("a repeating action runs every interval until cancelled, also from within itself")
    func repeating() {
        let clock = SessionScheduler()
        var times: [SessionTime] = []
        var repeating: (any Cancellable)?
        repeating = clock.schedule(after: Self.ms(100), interval: .milliseconds(50)) {
            times.append(clock.now)
            if times.count == 3 { repeating?.cancel() }
        }
        clock.advance(to: Self.ms(1_000))
        #expect(times == [Self.ms(100), Self.ms(150), Self.ms(200)])
        let other = clock.schedule(after: Self.ms(1_100), interval: .milliseconds(10)) { times.append(clock.now) }
        other.cancel()
        clock.advance(to: Self.ms(2_000))
        #expect(times.count == 3)
    }

    @Test("times from a replay file's seconds and from the run loop's clock, to the microsecond")
    func conversions() {
        #expect(SessionTime(seconds: 1.234567).microseconds == 1_234_567)
        #expect(SessionTime(seconds: 0.3).microseconds == 300_000)
        #expect(SessionTime(seconds: -.infinity) == .start)
        #expect(SessionTime(.milliseconds(1_500)) == Self.ms(1_500))
        #expect(SessionTime(.nanoseconds(2_999)).microseconds == 2)
        #expect(Self.ms(300).advanced(by: .milliseconds(300)) == Self.ms(600))
    }
}
