import BallModel
import BallStreams
import TextFormats

// MARK: - Reading, streamed

/// Reads a replay file a chunk at a time: the header, then events one by one, each checked
/// (shape, types, finite and sane numbers, times that never go backwards, cells inside the
/// terminal of the moment). Memory stays constant however long the file or a line is.
///
/// Reading is separate from I/O: the reader asks `nextChunk` for bytes (nil at the end).
package final class ReplayReader {
    /// The file's name, for messages.
    package let file: String
    /// Warnings for the user (a recording cut off mid-line).
    package private(set) var warnings: [String] = []
    /// The header, once read.
    package private(set) var header: ReplayHeader?

    private let nextChunk: () throws -> [UInt8]?
    private var buffer: [UInt8] = []
    private var start = 0
    private var atEnd = false
    private var lineNumber = 0
    private var lastTime = 0.0
    private var terminal = ScreenSize(columns: 0, rows: 0)
    /// The pipe in the slot after the events read: a stage added must fit it, and one taken out
    /// must be there, as the session lets in only those.
    private var pipe = SlotPipe.none
    private var finished = false
    /// Whether the `quit` (or the tour's `completed`) was read: only observations may follow it.
    private var quitted = false
    /// Whether the tour's `completed` was read: from version 8 a `quit` may follow it.
    private var completed = false
    /// The time of the tour's quit after `completed` (version 8), once read: the recording's end,
    /// the last line. A file without one (every file before version 8, and a tour that did not
    /// quit after `e`) ends with its last line.
    package private(set) var quitAfterCompletion: Double?

    /// Whether lines written exactly as ``ReplayFormat`` writes them are read by the fast path.
    private let canonicalFastPath: Bool
    /// Whether ``lastLine`` keeps each line's bytes (for copying a recording as it is).
    package var keepsLines = false
    /// The bytes of the line the header or the last event was read from, without its newline,
    /// when ``keepsLines`` is set.
    package private(set) var lastLine: [UInt8] = []
    /// Told each observation (a late subscriber subscribed or cancelled, the panel opened or
    /// closed) as it is read, between the intents ``next()`` returns: those who show the
    /// streams follow them; the rest replay the intents alone.
    package var observed: ((ObservationEvent) throws -> Void)?
    /// The late subscribers subscribed at the line read, and whether the panel is open: a
    /// subscribe needs one not subscribed, a cancel one subscribed, as the recorder writes them.
    private var liveLate: Set<LateSubscriber> = []
    private var panelOpen = false
    /// Whether the screen is bound through a Publish copy of the chain (`learn`'s `o`).
    private var screenThroughPublish = false
    /// Whether the copies of `map` are subscribed (`learn`'s `u`).
    private var mapCopies = false

    /// A reader of `file` whose bytes come from `nextChunk`. `canonicalFastPath` false reads
    /// every line with the full parser (the tests compare the two).
    package init(file: String, canonicalFastPath: Bool = true, nextChunk: @escaping () throws -> [UInt8]?) {
        self.file = file
        self.canonicalFastPath = canonicalFastPath
        self.nextChunk = nextChunk
    }

    /// Reads and checks the header (the first line).
    package func readHeader() throws -> ReplayHeader {
        if let header { return header }
        guard let line = try nextLine() else {
            throw ReplayError(file: file, line: nil, problem: "is empty, not a colourful-ball replay file")
        }
        if keepsLines { lastLine = Array(line.bytes) }
        // A UTF-8 byte-order mark (some editors add one) is not part of the text, as a CR before
        // the newline is not.
        let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
        let text = line.bytes.starts(with: byteOrderMark) ? line.bytes.dropFirst(3) : line.bytes
        let parsed = try parse(text, what: "a colourful-ball replay file")
        guard case .object = parsed, case .string(let format)? = parsed["format"] else {
            throw error("is not a colourful-ball replay file (its first line has no \"format\")")
        }
        guard format == ReplayFormat.name else {
            throw error("is not a colourful-ball replay file (its format is \(format.jsonQuoted.prefix(60)))")
        }
        let version = try integer(parsed, "version", in: 1...Int(Int32.max))
        guard version <= ReplayFormat.version else {
            throw error(
                "was written by a newer colourful-ball (format version \(version); this one reads up to \(ReplayFormat.version)): update colourful-ball to replay it"
            )
        }
        guard let terminalValue = parsed["terminal"], case .object = terminalValue else {
            throw error("the header has no \"terminal\" object")
        }
        let size = ScreenSize(
            columns: try integer(terminalValue, "columns", in: 1...ReplayFormat.maximumTerminal.columns),
            rows: try integer(terminalValue, "rows", in: 1...ReplayFormat.maximumTerminal.rows))
        let colourRules = try integer(parsed, "colourRules", in: 1...Int(Int32.max))
        guard colourRules <= ReplayFormat.colourRulesVersion else {
            throw error("uses colour rules version \(colourRules), newer than this colourful-ball knows")
        }
        let header = ReplayHeader(
            version: version, terminal: size, colourRules: colourRules,
            program: try optionalString(parsed, "program") ?? "unknown",
            started: try optionalString(parsed, "started") ?? "unknown")
        terminal = size
        self.header = header
        return header
    }

    /// The next intent, checked; nil at the end of the file. Blank lines (nothing but spaces
    /// and tabs) are passed over; observations before it go to ``observed``. After a `quit` or
    /// the tour's `completed` only observations are read (a tour's late subscribers meet the
    /// ended subjects), to the end of the file, or to the tour's `quit` (version 8), its last line
    /// (``quitAfterCompletion``); any other intent there is refused.
    package func next() throws -> ReplayEvent? {
        if header == nil { _ = try readHeader() }
        while !finished {
            var read = try nextLine()
            while let line = read, line.bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { read = try nextLine() }
            guard let line = read else { return nil }
            if keepsLines { lastLine = Array(line.bytes) }
            let event: Recorded
            do {
                event = try self.event(from: line.bytes)
            } catch is ReplayError where !line.terminated {
                // The last line has no newline and does not parse: the recording was cut off.
                warnings.append(
                    "\(file.visibleInMessage), line \(lineNumber) is cut off (the recording stopped mid-line); replayed the events before it"
                )
                finished = true
                return nil
            }
            if quitAfterCompletion != nil {
                throw error("an event after the tour's quit: the recording ended there")
            }
            switch event {
            case .intent(let event)
            where quitted && completed && event.intent == .quitRequested && header?.version ?? 0 >= 8:
                // The tour's quit after `e`: when the recording ended. Nothing follows it.
                quitAfterCompletion = event.time
            case .intent where quitted:
                throw error("an intent after the session's end (a quit or completed): it had ended")
            case .intent(let event):
                if event.intent.endsSession {
                    quitted = true
                    completed = event.intent == .completionRequested
                    // The subjects completed, and their late subscribers with them; a relay never does.
                    liveLate.formIntersection([.relay])
                }
                return event
            case .observation(let event): try observed?(event)
            }
        }
        return nil
    }

    /// A line's event: an intent or an observation.
    private enum Recorded {
        case intent(ReplayEvent)
        case observation(ObservationEvent)
    }

    // MARK: - Events

    private func event(from bytes: ArraySlice<UInt8>) throws -> Recorded {
        if canonicalFastPath, let event = canonicalEvent(bytes) { return .intent(event) }
        let value = try parse(bytes, what: "a replay event")
        guard case .object = value else { throw error("is \(value.kindName), not an event object") }
        guard case .number(let time)? = value["t"] else {
            throw error(
                value["t"].map { "the time \"t\" is \($0.kindName), not a number of seconds" }
                    ?? "the event has no time \"t\"")
        }
        guard time.isFinite, time >= 0, time <= ReplayFormat.maximumTime else {
            throw error(
                "the time \(time.plainTextOrDescription) is out of range (0 to \(Int(ReplayFormat.maximumTime)) seconds)"
            )
        }
        guard time >= lastTime else {
            throw error("the time goes backwards (\(time.plainText) after \(lastTime.plainText))")
        }
        guard case .string(let kind)? = value["event"] else {
            throw error(
                value["event"] == nil ? "the event has no \"event\" name" : "the \"event\" name is not a string")
        }
        let read: Intent
        switch kind {
        case "pressed": read = .pressed(at: try cell(value))
        case "dragged": read = .dragged(to: try cell(value))
        case "released": read = .released(at: try cell(value))
        case "arrow":
            guard case .string(let name)? = value["direction"], let direction = Direction(rawValue: name) else {
                throw notOneOf("arrow", "direction", value["direction"], Direction.allCases.map(\.rawValue))
            }
            read = .arrowPressed(
                direction, distance: try integer(value, "distance", in: 1...ReplayFormat.maximumDistance))
        case "recentred": read = .recentred
        case "resized":
            let pair = try integerPair(
                value, "size", columns: 1...ReplayFormat.maximumTerminal.columns,
                rows: 1...ReplayFormat.maximumTerminal.rows)
            read = .resized(ScreenSize(columns: pair.0, rows: pair.1))
        case "quit": read = .quitRequested
        case "completed":
            try needsVersion(5, "a completed")
            read = .completionRequested
        case "operator":
            try needsVersion3("an operator")
            guard case .string(let name)? = value["name"],
                SlotOperator(rawValue: name) != nil || name == "counter" || name.contains(",")
            else {
                throw notOneOf("operator", "name", value["name"], SlotOperator.allCases.map(\.name))
            }
            if SlotOperator(rawValue: name).map(ReplayFormat.addedInVersion6.contains) ?? name.contains(",") {
                try needsVersion(6, "a pipe of operators (or mapToOne, scan) in an operator")
            }
            guard !name.contains(":") else { throw intervalInName(name) }
            switch SlotPipe.parse(name) {
            case .success(let chosen):
                let interval = try self.interval(value, timed: chosen.timing != nil, of: "the operator \(name)")
                read = .operatorChosen(interval.map(chosen.waiting) ?? chosen)
            case .failure(let problem): throw error("the operator \(String(name.prefix(60)).jsonQuoted): \(problem)")
            }
        case "stage":
            try needsVersion(6, "a stage")
            guard case .string(let name)? = value["name"], let named = SlotOperator(rawValue: name) else {
                throw notOneOf("stage", "name", value["name"], SlotOperator.allCases.map(\.name))
            }
            guard !name.contains(":") else { throw intervalInName(name) }
            let interval = try self.interval(value, timed: named.timing != nil, of: "the stage \(name)")
            let stage = interval.map(named.waiting) ?? named
            if case .failure(let problem) = pipe.adding(stage) {
                throw error("the stage \(name) does not fit the pipe \(pipe.name): \(problem)")
            }
            read = .stageAdded(stage)
        case "unstage":
            try needsVersion(6, "an unstage")
            guard !pipe.stages.isEmpty else { throw error("an unstage with no stage in the pipe to take out") }
            read = .stageRemoved
        case "mirror":
            try needsVersion3("a mirror")
            read = .mirrorFlipped
        case "subscribed", "unsubscribed", "panel", "lesson", "screen", "mapCopies":
            let observation = try self.observation(kind, value)
            lastTime = time
            return .observation(ObservationEvent(time: time, observation: observation))
        default:
            throw error("the event \(String(kind.prefix(40)).jsonQuoted) is not one this colourful-ball knows")
        }
        let intent = try onScreen(read)
        if case .resized(let size) = intent { terminal = size }
        pipe = pipe.after(intent)
        lastTime = time
        return .intent(ReplayEvent(time: time, intent: intent))
    }

    /// The observation an event of `kind` names, if it can happen here: a subscribe of a late
    /// subscriber not subscribed, a cancel of one subscribed (its subject completes only at a
    /// quit, after which nothing is read), the panel opened when closed, closed when open.
    private func observation(_ kind: String, _ value: JSONValue) throws -> Observation {
        switch kind {
        case "lesson":
            try needsVersion(4, "a lesson")
            let number = try integer(value, "number", in: 1...99)
            guard case .string(let title)? = value["title"], (1...60).contains(title.count),
                title.unicodeScalars.allSatisfy({ $0.value >= 0x20 && !(0x7F...0x9F).contains($0.value) })
            else { throw error("the lesson event has no \"title\" of 1 to 60 printable characters") }
            return .lessonBegan(number: number, title: title)
        case "screen":
            try needsVersion(4, "a screen")
            guard case .string(let through)? = value["through"], through == "publish" || through == "chain" else {
                throw error("the screen event has no \"through\" of publish or chain")
            }
            guard (through == "publish") != screenThroughPublish else {
                throw error("the screen is bound through \(through) where it is already")
            }
            screenThroughPublish = through == "publish"
            return .screenThroughPublish(screenThroughPublish)
        case "mapCopies":
            try needsVersion(4, "a mapCopies")
            guard case .bool(let on)? = value["on"] else {
                throw error("the mapCopies event has no \"on\" true or false")
            }
            guard on != mapCopies else {
                throw error("the copies of map are \(on ? "subscribed" : "cancelled") where they are already")
            }
            mapCopies = on
            return .mapCopies(on)
        default: break
        }
        if kind == "panel" {
            guard case .bool(let open)? = value["open"] else {
                throw error("the panel event has no \"open\" true or false")
            }
            guard open != panelOpen else {
                throw error(
                    "the panel is \(open ? "opened" : "closed") where it is \(open ? "open" : "closed") already")
            }
            panelOpen = open
            return open ? .panelOpened : .panelClosed
        }
        guard case .string(let name)? = value["subject"], let subject = LateSubscriber(fileName: name) else {
            throw notOneOf(kind, "subject", value["subject"], ["behavior", "publish", "replay", "relay"])
        }
        let subscribing = kind == "subscribed"
        guard liveLate.contains(subject) != subscribing else {
            throw error(
                subscribing
                    ? "the late \(subject.name) subscriber subscribes where it is subscribed already"
                    : "the late \(subject.name) subscriber is cancelled where it is not subscribed")
        }
        // After the quit a subscriber meets an ended subject and ends at once (a relay's never ends).
        if subscribing, !quitted || subject == .relay {
            liveLate.insert(subject)
        } else {
            liveLate.remove(subject)
        }
        return subscribing ? .subscribed(subject) : .unsubscribed(subject)
    }

    /// The event on a line written exactly as ``ReplayFormat/line(for:at:)`` writes it, every
    /// value in range; nil for anything else, which the full parser then reads (and words
    /// any problem). It takes no more than the full parser would: a time of digits with an
    /// optional fraction (the same text gives the same `Double`), whole numbers without
    /// leading zeros, the same ranges; a test reads random and broken files both ways.
    private func canonicalEvent(_ line: ArraySlice<UInt8>) -> ReplayEvent? {
        let scanned = line.withUnsafeBufferPointer { bytes in
            var scanner = CanonicalLine(bytes: bytes)
            return scanner.event(after: lastTime, on: terminal)
        }
        guard let scanned else { return nil }
        if case .resized(let size) = scanned.intent { terminal = size }
        lastTime = scanned.time
        return scanned
    }

    /// A cell's whole numbers (any size: whether the cell is on the terminal is the intent's
    /// own rule, ``onScreen(_:)``).
    private func cell(_ value: JSONValue) throws -> Cell {
        let pair = try integerPair(value, "cell", columns: 0...Int(Int32.max), rows: 0...Int(Int32.max))
        return Cell(column: pair.0, row: pair.1)
    }

    /// `intent` if it can happen as it is on the terminal of the moment (``Intent/isValid(in:)``,
    /// the rule the session fits every intent to before the recorder writes it).
    private func onScreen(_ intent: Intent) throws -> Intent {
        guard !intent.isValid(in: terminal) else { return intent }
        switch intent {
        case .pressed(let cell), .dragged(let cell), .released(let cell):
            let (name, number) = cell.column >= terminal.columns ? ("column", cell.column) : ("row", cell.row)
            throw error("the \(name) \(number) is outside the \(terminal.columns)×\(terminal.rows) terminal")
        default:
            throw error("the event cannot happen on the \(terminal.columns)×\(terminal.rows) terminal")
        }
    }

    // MARK: - Fields

    /// The interval an `operator` or `stage` event gives its timed stage (version 7), if it gives
    /// one: 100, 300 or 1000 milliseconds, and only for a pipe or stage that has a timed stage
    /// (`timed`); none, it waits the usual 300 ms.
    private func interval(_ value: JSONValue, timed: Bool, of what: String) throws -> SlotInterval? {
        guard let given = value["interval"] else { return nil }
        try needsVersion(7, "an interval in an operator or stage")
        guard timed else { throw error("\(what) has no timed stage (debounce or throttle) to give an interval to") }
        let choices = SlotInterval.allCases.map { String($0.milliseconds) }
        guard case .number(let number) = given, let interval = SlotInterval(milliseconds: Int(exactly: number) ?? 0)
        else {
            let said = if case .number(let number) = given { number.plainTextOrDescription } else { given.kindName }
            throw error(
                "the interval \(said) is not one a timed stage waits: give \(choices.dropLast().joined(separator: ", ")) or \(choices.last!) (milliseconds)"
            )
        }
        return interval
    }

    /// The error for a name that spells an interval (`debounce:1000ms`, as `--operator` does): a
    /// file gives it in its own field.
    private func intervalInName(_ name: String) -> ReplayError {
        error(
            "the name \(String(name.prefix(60)).jsonQuoted) spells an interval: a replay file gives it as \"interval\", in milliseconds"
        )
    }

    /// Throws unless the header's format version is 3 or later, which `event` (an operator or
    /// a mirror event) needs.
    private func needsVersion3(_ event: String) throws { try needsVersion(3, event) }

    /// Throws unless the header's format version is `least` or later, which `event` needs.
    private func needsVersion(_ least: Int, _ event: String) throws {
        let version = header?.version ?? ReplayFormat.version
        guard version >= least else {
            throw error("\(event) event needs format version \(least), but the header says version \(version)")
        }
    }

    private func integer(_ value: JSONValue, _ key: String, in range: ClosedRange<Int>) throws -> Int {
        guard let field = value[key] else { throw error("\"\(key)\" is missing") }
        guard case .number(let number) = field else { throw error("\"\(key)\" is \(field.kindName), not a number") }
        guard let whole = Self.wholeNumber(number, in: range) else {
            throw error(
                "\"\(key)\" is \(number.plainTextOrDescription), not a whole number from \(range.lowerBound) to \(range.upperBound)"
            )
        }
        return whole
    }

    /// `number` as an `Int` when it is a whole number within `range`; nil otherwise (NaN too).
    private static func wholeNumber(_ number: Double, in range: ClosedRange<Int>) -> Int? {
        guard number.isFinite, number == number.rounded(), number >= Double(range.lowerBound),
            number <= Double(range.upperBound)
        else { return nil }
        return Int(number)
    }

    private func integerPair(
        _ value: JSONValue, _ key: String, columns: ClosedRange<Int>, rows: ClosedRange<Int>
    ) throws -> (Int, Int) {
        guard let field = value[key] else { throw error("\"\(key)\" is missing") }
        guard case .array(let items) = field, items.count == 2, case .number(let first) = items[0],
            case .number(let second) = items[1]
        else { throw error("\"\(key)\" is not a pair of numbers [column, row]") }
        for (number, range, name) in [(first, columns, "column"), (second, rows, "row")]
        where Self.wholeNumber(number, in: range) == nil {
            if key == "cell", number.isFinite, number != number.rounded() {
                throw error("the \(name) \(number.plainText) is not a whole number: a cell is a whole column and row")
            }
            if key == "cell" {
                throw error(
                    "the \(name) \(number.plainTextOrDescription) is outside the \(terminal.columns)×\(terminal.rows) terminal"
                )
            }
            throw error(
                "\"\(key)\" has \(name) \(number.plainTextOrDescription), not a whole number from \(range.lowerBound) to \(range.upperBound)"
            )
        }
        return (Int(first), Int(second))
    }

    private func optionalString(_ value: JSONValue, _ key: String) throws -> String? {
        guard let field = value[key] else { return nil }
        guard case .string(let text) = field else { throw error("\"\(key)\" is \(field.kindName), not a string") }
        return String(text.prefix(100))
    }

    private func parse(_ bytes: ArraySlice<UInt8>, what: String) throws -> JSONValue {
        try bytes.withUnsafeBufferPointer { buffer in
            guard String(validating: buffer, as: UTF8.self) != nil else {
                throw error(
                    lineNumber == 1 ? "is not a colourful-ball replay file (not UTF-8 text)" : "is not valid UTF-8 text"
                )
            }
            do {
                return try JSONLineParser.parse(buffer)
            } catch {
                let syntax = error as? JSONSyntaxError ?? JSONSyntaxError(reason: "unreadable")
                throw self.error(
                    lineNumber == 1
                        ? "is not a colourful-ball replay file (its first line is not JSON: \(syntax.reason))"
                        : "is not \(what) (not JSON: \(syntax.reason))")
            }
        }
    }

    /// What is wrong with a `kind` event's `field`, which must be one of `allowed`: missing, not
    /// a string, or a name none of them has (quoted, as it was given).
    private func notOneOf(_ kind: String, _ field: String, _ given: JSONValue?, _ allowed: [String]) -> ReplayError {
        let choices = allowed.dropLast().joined(separator: ", ") + " or " + (allowed.last ?? "")
        switch given {
        case .string(let name)?:
            return error(
                "the \(kind) event's \"\(field)\" is \(String(name.prefix(40)).jsonQuoted), which is none of \(choices)"
            )
        case let other?:
            return error("the \(kind) event's \"\(field)\" is \(other.kindName), not one of \(choices)")
        case nil:
            return error("the \(kind) event has no \"\(field)\": give one of \(choices)")
        }
    }

    private func error(_ problem: String) -> ReplayError {
        ReplayError(file: file, line: lineNumber, problem: problem)
    }

    // MARK: - Lines

    /// The next line (without its newline), and whether a newline ended it.
    private func nextLine() throws -> (bytes: ArraySlice<UInt8>, terminated: Bool)? {
        while true {
            if let newline = buffer[start...].firstIndex(of: 0x0A) {
                let line = buffer[start..<newline]
                start = newline + 1
                lineNumber += 1
                // A CR before the newline is not part of the line (Windows line endings).
                let content = line.last == 0x0D ? line.dropLast() : line
                guard content.count <= ReplayFormat.maximumLineLength else { throw tooLong() }
                return (content, true)
            }
            // The longest line, and a CR, may wait for their newline.
            if buffer.count - start > ReplayFormat.maximumLineLength + 1 {
                lineNumber += 1
                throw tooLong()
            }
            if atEnd {
                guard start < buffer.count else { return nil }
                let line = buffer[start...]
                start = buffer.count
                lineNumber += 1
                return (line, false)
            }
            // Keep only the unread part, then read on.
            if start > 0 {
                buffer.removeSubrange(0..<start)
                start = 0
            }
            if let chunk = try nextChunk(), !chunk.isEmpty {
                buffer.append(contentsOf: chunk)
            } else {
                atEnd = true
            }
        }
    }

    private func tooLong() -> ReplayError {
        error("the line is longer than \(ReplayFormat.maximumLineLength) bytes, far longer than any replay event")
    }
}

// MARK: - The fast path

/// Scans one line for the exact form ``ReplayFormat/line(for:at:)`` writes (see
/// ``ReplayReader``'s fast path): a value type over the line's bytes, so the scan touches
/// nothing shared.
private struct CanonicalLine {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    /// 10^0 … 10^15, each exact.
    static let powersOfTen: [Double] = (0...15).map { exponent in
        (0..<exponent).reduce(1.0) { value, _ in value * 10 }
    }

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// The event, if the line is canonical, its time not before `lastTime` and its cells on
    /// `terminal`.
    mutating func event(after lastTime: Double, on terminal: ScreenSize) -> ReplayEvent? {
        guard literal(#"{"t":"#), let time = time(), time <= ReplayFormat.maximumTime, time >= lastTime,
            literal(#","event":""#), index < bytes.count
        else { return nil }
        let name = bytes[index]
        let intent: Intent
        if literal(#"pressed","cell":["#) || literal(#"dragged","cell":["#) || literal(#"released","cell":["#) {
            guard let column = whole(), literal(","), let row = whole(), literal("]}"), index == bytes.count,
                column < terminal.columns, row < terminal.rows
            else { return nil }
            let cell = Cell(column: column, row: row)
            switch name {
            case UInt8(ascii: "p"): intent = .pressed(at: cell)
            case UInt8(ascii: "d"): intent = .dragged(to: cell)
            default: intent = .released(at: cell)
            }
        } else if literal(#"arrow","direction":""#) {
            let direction: Direction
            if literal(#"up""#) {
                direction = .up
            } else if literal(#"down""#) {
                direction = .down
            } else if literal(#"left""#) {
                direction = .left
            } else if literal(#"right""#) {
                direction = .right
            } else {
                return nil
            }
            guard literal(#","distance":"#), let distance = whole(), literal("}"), index == bytes.count,
                (1...ReplayFormat.maximumDistance).contains(distance)
            else { return nil }
            intent = .arrowPressed(direction, distance: distance)
        } else if literal(#"recentred"}"#), index == bytes.count {
            intent = .recentred
        } else if literal(#"quit"}"#), index == bytes.count {
            intent = .quitRequested
        } else if literal(#"resized","size":["#) {
            guard let columns = whole(), literal(","), let rows = whole(), literal("]}"), index == bytes.count,
                (1...ReplayFormat.maximumTerminal.columns).contains(columns),
                (1...ReplayFormat.maximumTerminal.rows).contains(rows)
            else { return nil }
            intent = .resized(ScreenSize(columns: columns, rows: rows))
        } else {
            return nil
        }
        return ReplayEvent(time: time, intent: intent)
    }

    /// Skips `text` if the line goes on with it.
    private mutating func literal(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard bytes.count - index >= count else { return false }
        let expected = text.utf8Start
        for offset in 0..<count where bytes[index + offset] != expected[offset] { return false }
        index += count
        return true
    }

    /// Skips digits; how many.
    private mutating func digits() -> Int {
        let start = index
        while index < bytes.count, bytes[index] &- 48 < 10 { index += 1 }
        return index - start
    }

    /// A whole number of at most six digits, without a leading zero.
    private mutating func whole() -> Int? {
        let start = index
        let count = digits()
        guard (1...6).contains(count), count == 1 || bytes[start] != 48 else { return nil }
        var value = 0
        for position in start..<index { value = value &* 10 &+ Int(bytes[position] &- 48) }
        return value
    }

    /// A time of at most 15 digits, with an optional fraction: at most 15 digits are a whole
    /// number below 2^53, and 10^15 a power of ten a Double holds exactly, so one division is
    /// the correctly rounded value, as strtod's.
    private mutating func time() -> Double? {
        let start = index
        let integerDigits = digits()
        guard (1...15).contains(integerDigits), integerDigits == 1 || bytes[start] != 48 else { return nil }
        var fractionDigits = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            fractionDigits = digits()
            guard (1...15).contains(fractionDigits) else { return nil }
        }
        guard integerDigits + fractionDigits <= 15 else { return nil }
        var mantissa: Int64 = 0
        for position in start..<index where bytes[position] != UInt8(ascii: ".") {
            mantissa = mantissa &* 10 &+ Int64(bytes[position] &- 48)
        }
        return Double(mantissa) / Self.powersOfTen[fractionDigits]
    }
}
