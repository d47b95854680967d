import BallModel
import BallStreams

// MARK: - Replaying

/// Feeds a replay file's events through a fresh session — the same pure step and view-model
/// as the live program, which is what makes a replay exact.
package final class ReplayPlayer {
    /// The reader the events come from.
    package let reader: ReplayReader
    /// The session the events drive.
    package let session: BallSession
    /// The time of the last event applied.
    package private(set) var time = 0.0

    /// Told each time one of the chain's timers ran between two events (with its time): a timed
    /// operator in the slot let a position through.
    package var timerRan: ((SessionTime) -> Void)?

    /// Told each observation recorded beside the intents (late subscribers, the panel) in its
    /// place: after the intents before it were applied, as the next is read.
    package var observed: ((ObservationEvent) -> Void)?

    /// Reads the header of `reader` and starts a session on the recorded terminal.
    package init(reader: ReplayReader) throws {
        self.reader = reader
        let header = try reader.readHeader()
        session = BallSession(screen: header.terminal)
        reader.observed = { [unowned self] event in
            time = event.time
            // What the chain's timers did before it, they did before it.
            runTimers(until: SessionTime(seconds: event.time))
            observed?(event)
        }
    }

    /// Applies the next event; false at the end of the recording.
    @discardableResult
    package func step() throws -> Bool {
        guard let event = try nextEvent() else { return false }
        apply(event)
        return true
    }

    /// Reads the next event without applying it (timed playback waits, then applies it). At the
    /// end of a tour that quit after `completed` (version 8), the session's clock moves on to the
    /// quit's time first, the recording's end (the chain's timers due by then run).
    package func nextEvent() throws -> ReplayEvent? {
        guard let event = try reader.next() else {
            if let end = reader.quitAfterCompletion, end > time {
                time = end
                runTimers(until: SessionTime(seconds: end))
            }
            return nil
        }
        return event
    }

    /// Applies an event read with ``nextEvent()``: the session's clock moves on to its time
    /// (the chain's timers due by then run), then it takes the intent.
    package func apply(_ event: ReplayEvent) {
        time = event.time
        runTimers(until: SessionTime(seconds: event.time))
        session.send(event.intent)
    }

    /// Moves the session's clock on to `time`, one timer of the chain at a time: those due
    /// before it (one due at `time` itself goes off after what comes then).
    private func runTimers(until time: SessionTime) {
        while let timer = session.nextTimer, timer < time {
            session.advance(to: timer)
            timerRan?(timer)
        }
        session.reach(time)
    }
}

/// The pauses of a replay in real time: each gap between recorded events, first capped at
/// `maximumIdle` (as asciinema's idle limit does), then divided by `speed`. The terminal replay
/// waits them; the asciicast export adds them up.
///
/// Every time stays finite and moderate: a file's times are at most
/// ``ReplayFormat/maximumTime`` and never go backwards, and the speed is kept within
/// ``speeds``, so the whole replay lasts at most ten years divided by the slowest speed and no
/// pause can overflow a `Duration`.
package struct ReplayTiming {
    /// The speeds a replay can play at: from a hundredth of the original to a thousand times it.
    package static let speeds: ClosedRange<Double> = 0.01...1000
    /// The idle limits that mean something: from 0 (no pauses) to a week.
    package static let idleLimits: ClosedRange<Double> = 0...604_800

    /// How many times as fast as recorded.
    package let speed: Double
    /// The longest pause, in recorded seconds (nil: no cap).
    package let maximumIdle: Double?
    private var lastTime = 0.0

    /// Timing at `speed` (2 is twice as fast), with pauses capped at `maximumIdle` seconds;
    /// values outside ``speeds`` and ``idleLimits`` (NaN included) are taken as the nearest end.
    package init(speed: Double = 1, maximumIdle: Double? = nil) {
        self.speed = speed.isNaN ? 1 : min(max(speed, Self.speeds.lowerBound), Self.speeds.upperBound)
        self.maximumIdle = maximumIdle.map {
            $0.isNaN ? Self.idleLimits.upperBound : min(max($0, Self.idleLimits.lowerBound), Self.idleLimits.upperBound)
        }
    }

    /// The wait before `event`, in real seconds (0 when there is no event).
    package mutating func pause(before event: ReplayEvent?) -> Double {
        guard let event else { return 0 }
        return pause(until: event.time)
    }

    /// The wait from the last event to one recorded at `time` (an intent's, or an
    /// observation's), in real seconds.
    package mutating func pause(until time: Double) -> Double {
        defer { lastTime = time }
        return pause(from: lastTime, to: time)
    }

    /// The wait between events recorded at `earlier` and `later` seconds, in real seconds.
    package func pause(from earlier: Double, to later: Double) -> Double {
        var gap = max(0, later - earlier)
        if let maximumIdle { gap = min(gap, maximumIdle) }
        return gap / speed
    }

    /// The same timing at `speed`.
    package func at(speed: Double) -> ReplayTiming { ReplayTiming(speed: speed, maximumIdle: maximumIdle) }
}

extension Duration {
    /// The duration in seconds.
    package var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }
}
