import BallReplay
import TextFormats

// MARK: - When the next intent plays

/// The replay player's clock: the timing (speed and idle cap), whether playback is paused, and
/// when the next intent is due on the run loop's clock (a `Duration` since the loop's start).
///
/// Each move plans the next intent afresh from now; an intent played at its due time plans the
/// one after from that due time, so a long replay does not drift.
package struct PlaybackClock: Sendable {
    /// The speeds `+` and `-` go between (a `--speed` outside them stays until a key brings it in).
    package static let speeds: ClosedRange<Double> = 0.25...16

    /// How fast, and the cap on pauses.
    package private(set) var timing: ReplayTiming
    /// Whether playback is paused.
    package private(set) var paused: Bool
    /// When the next intent is due (nil: paused, at the end, or waiting for reading).
    package private(set) var due: Duration?
    /// When the current intent played (or playing was planned from), on the run loop's clock.
    private var playedAt: Duration?
    /// The recorded time playback was at then: the current intent's, or, planned again in its
    /// place (a change of speed), the time it had reached.
    private var playedFrom = 0.0

    /// A clock at `timing`, paused or playing.
    package init(timing: ReplayTiming, paused: Bool) {
        self.timing = timing
        self.paused = paused
    }

    /// The wait, in real seconds, between intents recorded at `earlier` and `later`.
    package func pause(from earlier: Double, to later: Double) -> Double {
        timing.pause(from: earlier, to: later)
    }

    /// Plans the next intent, recorded at `next` after one at `current`, from `now` (nil:
    /// nothing is due, as at the end).
    package mutating func plan(from now: Duration, recorded current: Double, next: Double?) {
        guard !paused, let next else {
            due = nil
            return
        }
        playedAt = now
        playedFrom = current
        due = now + .seconds(pause(from: current, to: next))
    }

    /// When something recorded at `later` comes while the intent recorded at `current` is the
    /// last played (a timer of the chain), on the run loop's clock; nil while paused.
    package func due(recorded later: Double, after current: Double) -> Duration? {
        guard !paused, let playedAt else { return nil }
        return playedAt + .seconds(pause(from: max(current, playedFrom), to: later))
    }

    /// The due intent was played: the one after it (recorded at `next`) is due its pause after
    /// the due time, not after now.
    package mutating func played(recorded current: Double, next: Double?) {
        guard let due, !paused, let next else {
            self.due = nil
            return
        }
        playedAt = due
        playedFrom = current
        self.due = due + .seconds(pause(from: current, to: next))
    }

    /// Pauses, or plays again.
    package mutating func setPaused(_ paused: Bool) {
        self.paused = paused
        if paused { due = nil }
    }

    /// Twice as fast, or half, within ``speeds``.
    package mutating func changeSpeed(faster: Bool) {
        let speed = timing.speed
        let next =
            faster
            ? max(speed, min(speed * 2, Self.speeds.upperBound))
            : min(speed, max(speed / 2, Self.speeds.lowerBound))
        timing = timing.at(speed: next)
    }

    /// The program was stopped for `duration` (Ctrl-Z): what was due is due that much later.
    package mutating func postpone(by duration: Duration) {
        due = due.map { $0 + duration }
        playedAt = playedAt.map { $0 + duration }
    }

    /// How often the recorded time shown moves on while playing between two intents (in real
    /// time): a long pause, as a recording's idle start, shows its clock running.
    package static let tick = Duration.milliseconds(100)

    /// The recorded time playback has reached at `now`, playing from the intent recorded at
    /// `current` toward the next (recorded at `next`): the time it played from plus the time
    /// since, at the speed, never past `next` (an idle cap jumps the rest); `current` while paused.
    package func recorded(at now: Duration, current: Double, next: Double?) -> Double {
        guard !paused, due != nil, let playedAt, let next else { return current }
        let elapsed = max(0, (now - playedAt) / .seconds(1))
        return min(next, max(current, playedFrom) + elapsed * timing.speed)
    }

    /// `2×`, `0.5×`, `0.25×`.
    package var speedText: String {
        let speed = timing.speed
        return speed == speed.rounded() ? "\(Int(speed))×" : "\(speed.plainText)×"
    }
}
