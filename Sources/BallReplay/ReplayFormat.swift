import BallModel
import BallStreams
import TextFormats

// MARK: - The replay file format

/// The replay file format (documented in `docs/replay-format.md`): a header line, then one
/// JSON event per line — the intents, with their times, and (from version 2) the observations
/// beside them: late subscribers subscribed and cancelled, the streams panel opened and
/// closed — never derived colours.
package enum ReplayFormat {
    /// The `format` name in every header.
    package static let name = "colourful-ball-replay"
    /// The newest version this program writes and reads (it reads every older one: version 1
    /// has intents only; version 5 adds the tour's `completed`, which ends the session as a
    /// quit does while the tour runs on; version 6, pipes of operators in the slot, `stage` and
    /// `unstage`; version 7, a timed stage's `interval`, which a file before it never gives: its
    /// timed stages wait the usual 300 ms; version 8, the tour's `quit` after `completed`, the
    /// time it ended, where a file before it ends with its last line).
    package static let version = 8
    /// The operators a file of version 6 or later may name (before it, `counter` was one).
    package static let addedInVersion6: Set<SlotOperator> = [.mapToOne, .scan]
    /// The version of the colour rules (ChameleonFramework's, as `docs/colour-rules.md` sums them up).
    package static let colourRulesVersion = 1
    /// The longest line a reader accepts; every real line is far shorter.
    package static let maximumLineLength = 4096
    /// The largest terminal a file may describe: the largest ball's area there is.
    package static let maximumTerminal = ScreenSize.largest
    /// The latest time a file may give, in seconds (ten years of 365 days): the writer never
    /// writes a later one (``line(for:at:)``), so any session, however long, replays.
    package static let maximumTime = 315_360_000.0
    /// The longest arrow move a file may give: the longest an intent makes.
    package static let maximumDistance = Intent.longestMove

    /// The header line for a session that starts on `terminal`.
    package static func headerLine(terminal: ScreenSize, program: String, started: String) -> String {
        #"{"format":"\#(name)","version":\#(version),"terminal":{"columns":\#(terminal.columns),"rows":\#(terminal.rows)},"colourRules":\#(colourRulesVersion),"program":\#(program.jsonQuoted),"started":\#(started.jsonQuoted)}"#
    }

    /// The line for `intent` at `time` seconds since the start (microsecond precision; a time
    /// outside 0 to ``maximumTime``, or not a number, is written as the nearest end).
    package static func line(for intent: Intent, at time: Double) -> String {
        #"{"t":\#(timeText(time)),\#(fields(of: intent))}"#
    }

    /// A time as a line writes it: seconds with microsecond precision; a time outside 0 to
    /// ``maximumTime``, or not a number, as the nearest end.
    static func timeText(_ time: Double) -> String {
        let kept = time.isNaN ? 0 : min(max(time, 0), maximumTime)
        return ((kept * 1_000_000).rounded() / 1_000_000).plainText
    }

    /// The line for `observation` at `time` seconds since the start (the time as
    /// ``line(for:at:)`` writes it): `{"t":1.2,"event":"subscribed","subject":"replay"}`,
    /// `{"t":0,"event":"panel","open":true}`.
    package static func line(for observation: Observation, at time: Double) -> String {
        let fields =
            switch observation {
            case .subscribed(let kind): #""event":"subscribed","subject":"\#(kind.fileName)""#
            case .unsubscribed(let kind): #""event":"unsubscribed","subject":"\#(kind.fileName)""#
            case .panelOpened: #""event":"panel","open":true"#
            case .panelClosed: #""event":"panel","open":false"#
            case .lessonBegan(let number, let title):
                #""event":"lesson","number":\#(number),"title":\#(title.jsonQuoted)"#
            case .screenThroughPublish(let on): #""event":"screen","through":"\#(on ? "publish" : "chain")""#
            case .mapCopies(let on): #""event":"mapCopies","on":\#(on)"#
            }
        return #"{"t":\#(timeText(time)),\#(fields)}"#
    }

    /// An intent's fields in a line, without its time: `"event":"pressed","cell":[40,11]`.
    package static func fields(of intent: Intent) -> String {
        switch intent {
        case .pressed(let cell): #""event":"pressed","cell":[\#(cell.column),\#(cell.row)]"#
        case .dragged(let cell): #""event":"dragged","cell":[\#(cell.column),\#(cell.row)]"#
        case .released(let cell): #""event":"released","cell":[\#(cell.column),\#(cell.row)]"#
        case .arrowPressed(let direction, let distance):
            #""event":"arrow","direction":"\#(direction.rawValue)","distance":\#(distance)"#
        case .recentred: #""event":"recentred""#
        case .resized(let size): #""event":"resized","size":[\#(size.columns),\#(size.rows)]"#
        case .quitRequested: #""event":"quit""#
        case .completionRequested: #""event":"completed""#
        case .operatorChosen(let chosen):
            #""event":"operator","name":"\#(chosen.operatorNames)""# + intervalField(chosen.timing)
        case .stageAdded(let stage): #""event":"stage","name":"\#(stage.name)""# + intervalField(stage.timing)
        case .stageRemoved: #""event":"unstage""#
        case .mirrorFlipped: #""event":"mirror""#
        }
    }
}

extension ReplayFormat {
    /// The field that says how long a timed stage waits (version 7), in milliseconds, for a pipe
    /// or stage with one: `,"interval":1000`; nothing for one without.
    package static func intervalField(_ timing: SlotInterval?) -> String {
        timing.map { #","interval":\#($0.milliseconds)"# } ?? ""
    }
}

/// A replay file's header.
package struct ReplayHeader: Equatable, Sendable {
    /// The format version the file was written in.
    package var version: Int
    /// The terminal the session started on.
    package var terminal: ScreenSize
    /// The colour rules' version.
    package var colourRules: Int
    /// The program that wrote it, such as `0.1.0`.
    package var program: String
    /// When the session started (ISO 8601, UTC).
    package var started: String
}

/// One recorded event: an intent at a time since the start.
package struct ReplayEvent: Equatable, Sendable {
    /// Seconds since the start.
    package var time: Double
    /// What happened.
    package var intent: Intent

    /// An event from its time and intent.
    package init(time: Double, intent: Intent) {
        self.time = time
        self.intent = intent
    }
}

/// What is wrong with a replay file: one sentence naming the file and the line.
package struct ReplayError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file's name as the user gave it.
    package let file: String
    /// The 1-based line, or nil for the file as a whole.
    package let line: Int?
    /// What is wrong, in words.
    package let problem: String

    /// `FILE, line N: problem.`
    package var description: String {
        let place = line.map { "\(file.visibleInMessage), line \($0)" } ?? file.visibleInMessage
        return "\(place): \(problem)."
    }
}
