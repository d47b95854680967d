import ColourCore
import OpenCombine

// MARK: - Recording: a binding that writes intents down

/// Where recorded lines go (a file, in the program; an array, in tests).
public protocol LineWriter: AnyObject {
    /// Writes `line` and a newline, so that it reaches the operating system at once.
    func writeLine(_ line: String) throws
}

/// Records a session: a binding on the session's intents that writes each one, with its time,
/// as a line of a replay file. The header is written at once.
public final class ReplayRecorder {
    /// The first write error, if any; recording stops there and the program says so at exit.
    public private(set) var failure: Error?
    private var subscription: AnyCancellable?

    /// Starts recording `session` to `writer`; `clock` gives seconds since the start.
    public init(
        session: BallSession, writer: LineWriter, clock: @escaping () -> Double, program: String, started: String
    ) throws {
        try writer.writeLine(
            ReplayFormat.headerLine(terminal: session.state.position.screen, program: program, started: started))
        subscription = session.intents.sink { [weak self, writer] intent in
            guard let self, self.failure == nil else { return }
            do {
                try writer.writeLine(ReplayFormat.line(for: intent, at: clock()))
            } catch {
                self.failure = error
            }
        }
    }
}

// MARK: - Replaying

/// Feeds a replay file's events through a fresh session — the same pure step and view-model
/// as the live program, which is what makes a replay exact.
public final class ReplayPlayer {
    /// The reader the events come from.
    public let reader: ReplayReader
    /// The session the events drive.
    public let session: BallSession
    /// The time of the last event applied.
    public private(set) var time = 0.0

    /// Reads the header of `reader` and starts a session on the recorded terminal.
    public init(reader: ReplayReader) throws {
        self.reader = reader
        let header = try reader.readHeader()
        session = BallSession(screen: header.terminal)
    }

    /// Applies the next event; false at the end of the recording.
    @discardableResult
    public func step() throws -> Bool {
        guard let event = try nextEvent() else { return false }
        apply(event)
        return true
    }

    /// Reads the next event without applying it (timed playback waits, then applies it).
    public func nextEvent() throws -> ReplayEvent? { try reader.next() }

    /// Applies an event read with ``nextEvent()``.
    public func apply(_ event: ReplayEvent) {
        time = event.time
        session.send(event.intent)
    }
}

/// The pauses of a replay in real time: each gap between recorded events, first capped at
/// `maximumIdle` (as asciinema's idle limit does), then divided by `speed`. The terminal replay
/// waits them; the asciicast export adds them up.
public struct ReplayTiming {
    private let speed: Double
    private let maximumIdle: Double?
    private var lastTime = 0.0

    /// Timing at `speed` (2 is twice as fast), with pauses capped at `maximumIdle` seconds.
    public init(speed: Double = 1, maximumIdle: Double? = nil) {
        self.speed = speed
        self.maximumIdle = maximumIdle
    }

    /// The wait before `event`, in real seconds (0 when there is no event).
    public mutating func pause(before event: ReplayEvent?) -> Double {
        guard let event else { return 0 }
        var gap = event.time - lastTime
        lastTime = event.time
        if let maximumIdle { gap = min(gap, maximumIdle) }
        return gap / speed
    }
}

/// The headless trace of a replay: one line per position change, the first at time 0.
public enum HeadlessReplay {
    /// Replays `reader`, calling `emit` with each trace line (no newline); text or JSON lines.
    public static func run(reader: ReplayReader, json: Bool, emit: (String) -> Void) throws {
        let player = try ReplayPlayer(reader: reader)
        var lastCentre: Cell?
        var pending: [String] = []
        let subscription = player.session.viewModel.appearance.sink { appearance in
            guard appearance.position.centre != lastCentre else { return }
            lastCentre = appearance.position.centre
            pending.append(traceLine(appearance, time: player.time, json: json))
        }
        defer { subscription.cancel() }
        repeat {
            for line in pending { emit(line) }
            pending.removeAll(keepingCapacity: true)
        } while try player.step()
        for line in pending { emit(line) }
    }

    /// One trace line for `appearance` at `time`.
    public static func traceLine(_ appearance: Appearance, time: Double, json: Bool) -> String {
        let cell = appearance.position.centre
        let points = appearance.points
        if json {
            return
                #"{"t":\#(time.plainText),"cell":[\#(cell.column),\#(cell.row)],"points":[\#(points.x.plainText),\#(points.y.plainText)],"ball":\#(appearance.ball.jsonObject),"background":\#(appearance.background.jsonObject)}"#
        }
        return
            "\(time.sixDecimals)  cell \(cell.column),\(cell.row)  points \(points.x.plainText),\(points.y.plainText)  ball \(appearance.ball.name) \(appearance.ball.hex)  background \(appearance.background.name) \(appearance.background.hex)"
    }
}

extension Double {
    /// Seconds with six decimals, such as `0.512000` (finite, non-negative values).
    var sixDecimals: String {
        let micros = Int64((self * 1_000_000).rounded())
        let fraction = String(micros % 1_000_000)
        return "\(micros / 1_000_000)." + String(repeating: "0", count: 6 - fraction.count) + fraction
    }
}
