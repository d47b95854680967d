import OpenCombine

// MARK: - The session's time

/// A time on a session's clock: whole microseconds since the session began, the precision a
/// replay file keeps. Timing operators (`debounce`) run on it, so a replay derives what the
/// live session did to the microsecond.
package struct SessionTime: Strideable, Hashable, Sendable, CustomStringConvertible {
    /// Microseconds since the session began.
    package var microseconds: Int64

    /// The time `microseconds` after the session began.
    package init(microseconds: Int64) { self.microseconds = microseconds }

    /// The time `seconds` after the session began, to the nearest microsecond (a replay file's
    /// time; NaN and negative times are the start, as the file's reader never gives them).
    package init(seconds: Double) {
        let kept = seconds.isNaN ? 0 : min(max(seconds, 0), 9e12)
        microseconds = Int64((kept * 1_000_000).rounded())
    }

    /// The time `duration` after the session began (the run loop's clock), to the microsecond.
    package init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        microseconds = max(0, seconds) * 1_000_000 + (seconds < 0 ? 0 : attoseconds / 1_000_000_000_000)
    }

    /// The session's start.
    package static let start = SessionTime(microseconds: 0)

    /// Seconds since the session began, as a replay file writes them.
    package var seconds: Double { Double(microseconds) / 1_000_000 }

    /// This time on the run loop's clock.
    package var duration: Duration { .microseconds(microseconds) }

    /// `12.345678 s`.
    package var description: String { "\(seconds) s" }

    package func distance(to other: SessionTime) -> Stride { Stride(microseconds: other.microseconds - microseconds) }

    package func advanced(by stride: Stride) -> SessionTime {
        SessionTime(microseconds: microseconds + stride.microseconds)
    }

    /// A length of time on a session's clock, in whole microseconds (what an operator's
    /// `for:` takes: `.milliseconds(300)`).
    package struct Stride: SignedNumeric, Comparable, Hashable, Sendable, SchedulerTimeIntervalConvertible {
        /// The length in microseconds.
        package var microseconds: Int64

        /// A length of `microseconds`.
        package init(microseconds: Int64) { self.microseconds = microseconds }

        /// An integer literal is microseconds.
        package init(integerLiteral value: Int64) { microseconds = value }

        package init?<Source: BinaryInteger>(exactly source: Source) {
            guard let value = Int64(exactly: source) else { return nil }
            microseconds = value
        }

        package var magnitude: Int64 { microseconds == .min ? .max : abs(microseconds) }

        package static func seconds(_ s: Int) -> Stride { Stride(microseconds: Int64(s) * 1_000_000) }
        package static func seconds(_ s: Double) -> Stride { Stride(microseconds: Int64((s * 1_000_000).rounded())) }
        package static func milliseconds(_ ms: Int) -> Stride { Stride(microseconds: Int64(ms) * 1_000) }
        package static func microseconds(_ us: Int) -> Stride { Stride(microseconds: Int64(us)) }
        package static func nanoseconds(_ ns: Int) -> Stride { Stride(microseconds: Int64(ns / 1_000)) }

        package static func < (left: Stride, right: Stride) -> Bool { left.microseconds < right.microseconds }
        package static func + (left: Stride, right: Stride) -> Stride {
            Stride(microseconds: left.microseconds + right.microseconds)
        }
        package static func - (left: Stride, right: Stride) -> Stride {
            Stride(microseconds: left.microseconds - right.microseconds)
        }
        package static func * (left: Stride, right: Stride) -> Stride {
            Stride(microseconds: left.microseconds * right.microseconds)
        }
        package static func += (left: inout Stride, right: Stride) { left = left + right }
        package static func -= (left: inout Stride, right: Stride) { left = left - right }
        package static func *= (left: inout Stride, right: Stride) { left = left * right }
    }
}

// MARK: - The scheduler the chain's timers run on

/// A virtual-time scheduler, as RxTest's `TestScheduler` and Point-Free's `TestScheduler` are:
/// its clock moves only when told (``advance(to:)``), and then it runs, in order of their due
/// times (and, at one time, in the order they were scheduled), the actions due by then. The
/// session's time is its clock: the live program advances it with the run loop's clock, a
/// replay with the recording's times, so a timing operator does the same in both.
///
/// An action scheduled for now runs on the next advance (the session advances to its own
/// time after each intent).
package final class SessionScheduler: Scheduler {
    package typealias SchedulerTimeType = SessionTime
    package typealias SchedulerOptions = Never

    /// One scheduled action: when it is due, the order it was scheduled in, and (for a
    /// repeating one) how often.
    private final class Action: Cancellable {
        var due: SessionTime
        var order: Int
        let interval: SessionTime.Stride?
        let run: () -> Void
        /// Whether it was cancelled (a repeating action is not scheduled again then).
        var cancelled = false
        weak var scheduler: SessionScheduler?

        init(due: SessionTime, order: Int, interval: SessionTime.Stride?, run: @escaping () -> Void) {
            self.due = due
            self.order = order
            self.interval = interval
            self.run = run
        }

        func cancel() {
            cancelled = true
            scheduler?.remove(self)
        }
    }

    /// The clock: the time of the last advance.
    package private(set) var now: SessionTime
    /// The actions waiting, in no set order (there are one or two).
    private var waiting: [Action] = []
    private var scheduled = 0

    /// A scheduler whose clock reads `now`.
    package init(now: SessionTime = .start) { self.now = now }

    package var minimumTolerance: SessionTime.Stride { .zero }

    /// When the next action is due, if one waits: the run loop wakes then, and only then.
    package var nextDue: SessionTime? { waiting.min { $0.due < $1.due }?.due }

    package func schedule(options: Never?, _ action: @escaping () -> Void) {
        add(Action(due: now, order: 0, interval: nil, run: action))
    }

    package func schedule(
        after date: SessionTime, tolerance: SessionTime.Stride, options: Never?, _ action: @escaping () -> Void
    ) {
        add(Action(due: date, order: 0, interval: nil, run: action))
    }

    package func schedule(
        after date: SessionTime, interval: SessionTime.Stride, tolerance: SessionTime.Stride, options: Never?,
        _ action: @escaping () -> Void
    ) -> any Cancellable {
        let scheduled = Action(due: date, order: 0, interval: max(interval, .microseconds(1)), run: action)
        add(scheduled)
        return scheduled
    }

    /// Runs `action` when the clock reaches `due` (at the next advance, when `due` is now or
    /// earlier), unless the cancellable returned is cancelled first: RxSwift's `scheduleRelative`,
    /// which `throttle` and `debounce` cancel their timers through.
    package func schedule(at due: SessionTime, _ action: @escaping () -> Void) -> any Cancellable {
        let scheduled = Action(due: due, order: 0, interval: nil, run: action)
        add(scheduled)
        return scheduled
    }

    /// Moves the clock on to `time` (never back), running every action due by then, earliest
    /// first; an action an action schedules runs too, if it is due by then.
    package func advance(to time: SessionTime) { run(through: time, including: true) }

    /// Moves the clock on to `time` (never back), running every action due before it, earliest
    /// first; an action due at `time` itself waits: what comes at `time` (an input) goes first,
    /// as RxSwift's virtual time scheduler runs an input scheduled before the timer.
    package func reach(_ time: SessionTime) { run(through: time, including: false) }

    private func run(through time: SessionTime, including: Bool) {
        while let next = earliest(dueBy: time, including: including) {
            remove(next)
            now = max(now, next.due)
            next.run()
            // A repeating action goes on unless it was cancelled (its run may cancel it).
            if let interval = next.interval, !next.cancelled {
                next.due = next.due.advanced(by: interval)
                add(next)
            }
        }
        now = max(now, time)
    }

    /// Drops every waiting action: a chain built again part-way through a recording drops the
    /// timer its operator set when it subscribed, where the recording had none waiting.
    package func cancelAll() {
        for action in waiting { action.cancelled = true }
        waiting.removeAll()
    }

    private func add(_ action: Action) {
        action.order = scheduled
        scheduled += 1
        action.scheduler = self
        waiting.append(action)
    }

    private func remove(_ action: Action) {
        waiting.removeAll { $0 === action }
    }

    /// The action to run next by `time` (`including` one due at `time`): the earliest due, then
    /// the first scheduled.
    private func earliest(dueBy time: SessionTime, including: Bool) -> Action? {
        var found: Action?
        for action in waiting where action.due < time || (including && action.due == time) {
            if let best = found, (best.due, best.order) <= (action.due, action.order) { continue }
            found = action
        }
        return found
    }
}
