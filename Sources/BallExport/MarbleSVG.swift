import BallModel
import BallRendering
import BallReplay
import BallStreams
import ColourCore
import TextFormats

// MARK: - The marble diagram as SVG

/// A replay's lanes as an SVG picture, for slides: blocks of ``perBlock`` intents, one under
/// the other (as the text diagram's blocks are, so that a long recording stays a picture every
/// SVG reader draws), each a lane a row under a ruler of intent indices, a line for as long as
/// the lane's subscription lives, and each marble drawn as the panel draws it, so the kinds
/// differ as they do on screen: an intent its glyph (`▼ • ▲ ← ↑ → ↓ ◙ ↔ q`, its description as
/// a tooltip), a position `○` a white circle (with the letter the session's letter book gave it
/// as of the block's last intent, as the live panel drew it; the block's values line names
/// each), a ball colour `●` a circle filled with it, a screen colour `■` a square filled with it,
/// a value `removeDuplicates()` swallowed `·` a small grey dot, a completion `|` a bar. Under
/// what the slot's operators read, a lane for each inner subscription of `flatMap` and
/// `flatMapLatest` (``innerShapes(columns:first:lane:y:letters:frames:)``): `^` where a press made
/// it, its positions, `!` where it was disposed of. Each operator that goes into the slot is named
/// in full over the pipe's lanes where its part begins (``partNames(_:lines:)``), and a stage's
/// lane that draws several pipes' stages in a block names each part under it with its stage's
/// code (``stagePartNames(columns:stage:y:)``). Below the main lanes, a row for each kind of late
/// subscriber with a lane in the block (another where a lane meets the one before it, as the text
/// export packs them, ``StreamPanel/exportRows(of:)``): `^` where it subscribed, what it was handed (one
/// position, or a group's count in its circle), what it received, `!` where it was cancelled,
/// `|` where its subject completed. A recorded tour's `o` (the screen through a Publish copy of
/// the chain) draws the copy's lanes under the main lanes, `copy.subject`, `copy.ball` and
/// `copy.screen`: a line while the copy lives, `^` where `o` subscribed it (after the column's
/// intent), what it emitted, `!` where `o` bound the screen back. A recorded tour's blocks have a row above the ruler naming
/// each lesson where it began (`Lesson 4 · Publish`). A legend under it all names every mark.
///
/// It streams, as the other exports do: each block is written to a temporary file as soon as
/// its columns are complete (the picture's height is known only at the end), and only one
/// block's columns are kept, so memory stays flat however long the recording. A line the
/// reader refuses later in the file ends the picture there: every block before it is drawn.
package enum MarbleSVG {
    /// Pixels: an intent's column, a lane's row, the labels' column, the margin, the ruler, a
    /// legend line.
    static let column = 14
    static let row = 32
    static let labels = 110
    static let margin = 10
    static let ruler = 22
    static let legendLine = 18
    /// The row above a recorded tour's block that names its lessons.
    static let lessonRow = 16
    /// Intents a block: 1,400 pixels of lanes, far below what SVG readers draw (librsvg and
    /// CairoSVG refuse a picture over 32,767 pixels wide).
    package static let perBlock = 100

    /// The most pixels a side that SVG readers draw (librsvg and CairoSVG refuse more).
    package static let largestSide = 32_767
    /// A block's width, from its labels to the margin after its last intent.
    package static let blockWidth = labels + perBlock * column + margin
    /// The legend's height, with a margin above it and below.
    static var legendHeight: Int { margin + legend.count * legendLine + margin }

    /// Replays `reader` and writes the SVG through `write`.
    ///
    /// Blocks go one under the other, and when a column of them would pass `largestSide` (by
    /// default what readers draw, ``largestSide``) with the legend under it, the next starts a
    /// column to the right; when the picture would be wider than that too, it ends there,
    /// drawn, and an error says so.
    ///
    /// On a time axis (`framing`, `--frame 100ms`), a column is a frame of the session's clock,
    /// not an intent: each event in the frame of its own time (a timer's output at the time it
    /// went off), a quiet stretch empty columns, the ruler the time in seconds, and a lane with
    /// several events in one frame draws the last with their count over it (`×3`).
    package static func run(
        reader: ReplayReader, largestSide: Int = largestSide, framing: MarbleFraming = .perIntent,
        write: ([UInt8]) throws -> Void
    ) throws {
        let body = try Spool()
        var top = margin
        var left = 0
        var tallest = 0
        var widest = 0  // The widest block's width: a short recording's picture is narrow.
        var block: [StreamColumn] = []
        // The session's letter book after the last column with a part in the block.
        var book = ValueLetterBook()
        var late = LateLanesByBlock()
        var main: [StreamLane: Int] = [:]  // Where each main lane completed.
        var slotUsed = false  // Whether an operator has gone into the slot in a block so far.
        var copyUnderWay = false  // Whether a Publish copy (`o`) lives as the next block begins.
        var tooltips: [Intent: [UInt8]] = [:]
        // On a time axis: the frame gathering, the next frame to draw, and how many events each
        // lane had in the frames of the block where it had more than one.
        var gathering: StreamColumn?
        var nextFrame = 0
        var slotNow = SlotPipe.none
        // The inner subscriptions that live after the latest frame, and how many were made by then.
        var innersNow: (live: Range<Int>, made: Int) = (0..<0, 0)
        var counts: [Int: [StreamLane: Int]] = [:]
        // On a time axis: what each inner lane did in each frame of the block where a column's
        // intent came, each column's marble in order (a frame of several intents holds a
        // subscription and a disposal both, which one merged column cannot say).
        var inners: [Int: [StreamLane: [Marble]]] = [:]
        // A recorded tour's lessons, each at its column (on a time axis, its time's frame): the
        // one begun before the block, and those begun in it.
        var lessonBefore: LessonMark?
        var lessons: [LessonMark] = []
        let ruler: (Int) -> String =
            switch framing {
            case .perIntent: { String($0) }
            case .time(let length): { SlotMoment.seconds(SessionTime(microseconds: Int64($0) * length)) }
            }
        func writeBlock() throws {
            guard let first = block.first?.index, let last = block.last?.index else { return }
            let lanes = late.lanes(through: last)
            // The slot's lane from the block where an operator first goes in, as the panel draws
            // it once the session has used the slot.
            slotUsed = slotUsed || block.contains(where: \.involvesSlot)
            let slot = slotUsed
            let inputs =
                slot ? inputLanes(of: block, inners: inners.filter { $0.key <= last }.values.flatMap(\.keys)) : []
            // (A last stage's own lane where it completes on its own, as the panel draws it.)
            let stages = slot ? StreamPanel(columns: block).stageLanes : []
            let blockLessons = (
                before: lessons.last { $0.column < first } ?? lessonBefore,
                starts: lessons.filter { $0.column >= first }
            )
            let named = blockLessons.before != nil || !blockLessons.starts.isEmpty
            // The Publish copy's lanes where one lives in the block (or lived on into it).
            let copy = copyUnderWay || block.contains { $0.copy != nil }
            // The letters of the values that are not themselves a mark, as the text diagram gives
            // them: each its letter in the session's book, as the live panel drew it; the values
            // line under the block names each, in as many lines as the block is wide.
            var panel = StreamPanel(columns: block, lateLanes: lanes)
            panel.homeLetters = book.letters
            panel.showsSlot = slot
            panel.inputsOfEveryOperator = true
            let letters = panel.letters(lateLanes: lanes)
            let values = valuesLines(letters)
            let height = blockHeight(
                lateRows: StreamPanel.exportRows(of: lanes).count, slot: slot, inputs: inputs.count,
                stages: stages.count, lessons: named, copy: copy, values: values.count)
            let newColumn = top + height > largestSide - legendHeight
            guard margin + left + (newColumn ? 2 : 1) * blockWidth <= largestSide else {
                throw MarbleExportError(
                    description:
                        "The recording is too long for one SVG picture: the first \(first) intents fill the \(Self.largestSide) pixels a side that SVG readers draw; export a part of it (its first lines, say: head -n \(first) FILE > part.jsonl).",
                    code: 65)
            }
            if newColumn {
                left += blockWidth
                top = margin
            }
            try drawBlock(
                block, from: first, letters: letters, values: values, slot: slot, inputs: inputs, stages: stages,
                copy: copy ? (underWay: copyUnderWay, lanes: StreamLane.copy) : nil, lateLanes: lanes,
                completed: &main, tooltips: &tooltips,
                counts: counts, inners: framing == .perIntent ? nil : inners, lessons: named ? blockLessons : nil,
                ruler: ruler, at: (left, top), into: body)
            counts.removeAll()
            inners = inners.filter { $0.key > last }
            copyUnderWay = block.last { $0.copy != nil }?.copy?.lives ?? copyUnderWay
            // (Those begun after the block's last column belong to the next.)
            lessonBefore = lessons.last { $0.column <= last } ?? lessonBefore
            lessons.removeAll { $0.column <= last }
            top += height
            tallest = max(tallest, top)
            widest = max(
                widest, left + labels + max(block.count * column, values.map(\.count).max()! * valuesCharacter) + margin
            )
            late.written(through: last)
            block.removeAll(keepingCapacity: true)
        }
        // `after`: the book after the column (on a time axis, the latest column with a part in
        // the frame); nil: a frame with none, the book as it was.
        func take(_ column: StreamColumn, book after: ValueLetterBook?) throws {
            if block.count == perBlock { try writeBlock() }
            block.append(column)
            if let after { book = after }
        }
        // The book after the latest column with a part in the frame gathering.
        var gatheringBook: ValueLetterBook?
        // Draws the frames with nothing from the next to draw up to `frame`, and returns such a
        // frame: it keeps the operator in the slot (its part of the lane goes on), and flatMap's
        // inner subscriptions live on through it.
        func quietFrames(before frame: Int) throws -> StreamColumn {
            var quiet = StreamColumn(index: nextFrame)
            quiet.slot = slotNow
            (quiet.innersBefore, quiet.innersAfter) = (innersNow.live, innersNow.live)
            (quiet.innersMadeBefore, quiet.innersMadeAfter) = (innersNow.made, innersNow.made)
            while nextFrame < frame {
                quiet.index = nextFrame
                try take(quiet, book: nil)
                nextFrame += 1
            }
            return quiet
        }
        // On a time axis: the frame of the latest late subscription's event (a subscription made
        // after the last intent, Completion's after `e`, is drawn in its own frame).
        var lateFrame: Int?
        // Part of a column, in frame `frame`, with the book after that column: the frames before
        // it are drawn (empty ones too).
        func gather(_ frame: Int, _ part: StreamColumn, lanes: [StreamLane], book: ValueLetterBook) throws {
            if let current = gathering, current.index != frame {
                try take(current, book: gatheringBook)
                gathering = nil
            }
            if gathering == nil {
                var quiet = try quietFrames(before: frame)
                quiet.index = frame
                gathering = quiet
                nextFrame = frame + 1
            }
            // (A value removeDuplicates swallowed, `·`, is no emission: it is not counted.)
            func emitted(_ column: StreamColumn, _ lane: StreamLane) -> Bool {
                column.emission(lane).map { $0 != .ghost } ?? false
            }
            for lane in lanes
            where part.emission(lane) != nil || part.completes(lane) || part.failed.contains(lane) {
                if emitted(gathering!, lane), emitted(part, lane) {
                    // (flatMap's inner subscriptions: the slot passed a column's value on that often.)
                    let times = { (column: StreamColumn) in max(1, column.valueCount(lane)) }
                    counts[frame, default: [:]][lane, default: times(gathering!)] += times(part)
                }
                // (A pipe's last stage's end is its own lane's, not `slotted`'s, which lives on.)
                if part.completes(lane) { gathering!.completed.insert(lane) }
                if part.failed.contains(lane) { gathering!.failed.insert(lane) }
            }
            gathering!.merge(part, lanes: lanes)
            gatheringBook = book
            slotNow = gathering!.slot
            innersNow = (gathering!.innersAfter, gathering!.innersMadeAfter)
        }
        let atIntent: [StreamLane] = [.intents, .position, .mirror, .grabbed, .mouse, .keys]
        let atSlot: [StreamLane] = [.slotted, .ballColour, .background]
        var failure: Error?
        do {
            try ReplayColumns.forEach(in: reader) { item in
                switch (item, framing) {
                case (.column(let column, let book), .perIntent):
                    try take(column, book: book)
                case (.column(let column, let book), .time(let length)):
                    // The column's parts, each at its own time, gathered in the order of their times.
                    let time = column.time ?? .start
                    // Each inner's marks in the frames of their times (as the text export and the
                    // time view have them: a disposal with the head at the timer's error), the
                    // lane living through the frames between.
                    for lane in StreamLane.inners(in: [column]) {
                        let events = column.events(lane)
                        var lastFrame: Int?
                        for event in [events.first, events.second].compactMap({ $0 }) + events.rest {
                            let frame = Int((event.time ?? time).microseconds / length)
                            if let lastFrame, lastFrame + 1 < frame {
                                for between in (lastFrame + 1)..<frame {
                                    inners[between, default: [:]][lane, default: []].append(.line)
                                }
                            }
                            inners[frame, default: [:]][lane, default: []].append(event.marble)
                            lastFrame = frame
                        }
                    }
                    var parts: [(at: SessionTime, part: StreamColumn, lanes: [StreamLane])] = [(time, column, atIntent)]
                    // Each stage's values at their own times (after a timed stage, its timer's;
                    // throttle after flatMap passes one copy on at once, the other later).
                    for number in 0..<(SlotPipe.most - 1) {
                        guard let stage = column.stage(number) else { continue }
                        let runs = column.runs(of: .stage(number))
                        if runs.isEmpty { parts.append((stage.completedAt ?? time, column, [.stage(number)])) }
                        for (offset, run) in runs.enumerated() {
                            let part = column.part(.stage(number), values: run.values, last: offset == runs.count - 1)
                            parts.append((run.at, part, [.stage(number)]))
                        }
                    }
                    // The Publish copy's values at the intent's time, and `o`'s subscription and
                    // disposal at theirs.
                    parts += copyParts(of: column).map { ($0.at, $0.part, StreamLane.copy) }
                    let passed = column.passedAt ?? time
                    let runs = column.runs(of: .slotted)
                    for run in runs.dropLast() {
                        parts.append((run.at, column.part(.slotted, values: run.values, last: false), [.slotted]))
                    }
                    var rest = runs.count > 1 ? column.part(.slotted, values: runs[runs.count - 1].values) : column
                    // A colour at the time it was emitted, with the slot's value that made it (the
                    // slot's later ones worked out the same colour, swallowed: `·`).
                    var restLanes = atSlot
                    for lane in [StreamLane.ballColour, .background] {
                        guard let shown = column.emission(lane), shown != .ghost, let at = column.time(of: lane),
                            at != passed
                        else { continue }
                        var colour = column
                        (colour.completed, colour.failed) = ([], [])
                        parts.append((at, colour, [lane]))
                        if lane == .ballColour { rest.ballColour = nil } else { rest.background = nil }
                        if !column.completed.contains(lane), !column.failed.contains(lane) {
                            restLanes.removeAll { $0 == lane }
                        }
                    }
                    let failedAt = max(column.failedAt ?? passed, passed)
                    if column.failed.isEmpty || failedAt == passed {
                        parts.append((passed, rest, restLanes))
                    } else {
                        // What the slot passed on at its time, and its error at the time it came
                        // (a timer's, after the intent), as the text export has it.
                        var values = rest
                        values.failed = []
                        parts.append((passed, values, restLanes))
                        var error = StreamColumn(index: column.index)
                        error.failed = column.failed
                        parts.append((failedAt, error, atSlot))
                    }
                    // (A stable sort: one instant's parts in the order above.)
                    for (_, (at, part, lanes)) in parts.enumerated().sorted(by: {
                        ($0.element.at, $0.offset) < ($1.element.at, $1.offset)
                    }) {
                        try gather(Int(at.microseconds / length), part, lanes: lanes, book: book)
                    }
                case (.late(let kind, let event, let column, _, _), .perIntent):
                    late.note(kind, event, column: column)
                case (.late(let kind, let event, _, let time, _), .time(let length)):
                    let frame = Int(time.microseconds / length)
                    late.note(kind, event, column: frame)
                    lateFrame = max(lateFrame ?? frame, frame)
                case (.lesson(let start), .perIntent):
                    lessons.append(LessonMark(start: start, column: start.column))
                case (.lesson(let start), .time(let length)):
                    lessons.append(LessonMark(start: start, column: Int(start.time.microseconds / length)))
                }
            }
            if let current = gathering { try take(current, book: gatheringBook) }
            // The axis runs on to the last thing recorded: a late subscription after the last intent.
            if let lateFrame { _ = try quietFrames(before: lateFrame + 1) }
        } catch let error as ReplayError {
            failure = error  // The picture of what came before the bad line, then the error.
        } catch let error as MarbleExportError where error.code == 65 {
            failure = error  // The picture of what fits, then the error.
        }
        if !(failure is MarbleExportError) {
            do { try writeBlock() } catch let error as MarbleExportError where error.code == 65 {
                failure = failure ?? error
            }
        }
        let width = max(margin + widest, legendWidth)
        let legendTop = max(tallest, margin) + margin
        let total = legendTop + legend.count * legendLine + margin
        try write(
            Array(
                """
                <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(total)" viewBox="0 0 \(width) \(total)" font-family="DejaVu Sans Mono, monospace" font-size="12">
                <style>.ruler{fill:#888;text-anchor:middle}.label{fill:#222}line.lane{stroke:#222;stroke-width:1.5}\
                .intent{fill:#222;text-anchor:middle;font-size:13px;stroke:#fafafa;stroke-width:3px;paint-order:stroke}.position{fill:#fff;stroke:#333}.colour{stroke:#333}\
                .ghost{fill:#999}.end{stroke:#222;stroke-width:2.5}.mark{fill:#222;text-anchor:middle;font-weight:bold}\
                .count{fill:#222;text-anchor:middle;font-size:9px}.segment{stroke:#888;stroke-dasharray:3,2}.segment-name{fill:#555;font-size:10px}.lesson{fill:#1f5f8b;font-size:11px;font-weight:bold}.lesson-start{stroke:#1f5f8b;stroke-width:1.5}.cancel{fill:#c0392b;text-anchor:middle;font-weight:bold}.error{fill:#c0392b;text-anchor:middle;font-weight:bold}\
                .meaning{fill:#444}</style>
                <rect width="100%" height="100%" fill="#fafafa"/>

                """.utf8))
        try body.copy(to: write)
        try write(Array("\n<g id=\"legend\">\(legendShapes(top: legendTop))</g>\n</svg>\n".utf8))
        if let failure { throw failure }
    }

    /// A block's height with `lateRows` rows of late lanes under the main lanes (and the
    /// slot's, when `slot`, under `inputs` lanes of what its operators read), and the values line.
    static func blockHeight(
        lateRows: Int, slot: Bool = false, inputs: Int = 0, stages: Int = 0, lessons: Bool = false, copy: Bool = false,
        values: Int = 1
    ) -> Int {
        let copyLanes = copy ? StreamLane.copy.count : 0
        return (lessons ? lessonRow : 0) + ruler
            + (StreamLane.main(slot: slot).count + inputs + stages + copyLanes + lateRows) * row + values * legendLine
    }

    /// Pixels a character of the values line takes at most (DejaVu Sans Mono at 12 px: 7.2).
    static let valuesCharacter = 8

    /// The values line of a block whose values are drawn with `letters`: each letter and the value
    /// it stands for (`a=41,12`, in the letters' order), in lines no wider than a full block's
    /// lanes; one line saying there are none where there are none.
    static func valuesLines(_ letters: ValueLetters) -> [String] {
        let named = letters.sorted {
            MarbleValue.letters.firstIndex(of: $0.value)! < MarbleValue.letters.firstIndex(of: $1.value)!
        }
        let entries = zip(named, MarbleValue.words(of: named.map(\.key))).map { "\($0.value)=\($1)" }
        guard !entries.isEmpty else { return ["none: each value here is its own marble"] }
        let most = perBlock * column / valuesCharacter
        var lines = [""]
        for entry in entries {
            if !lines[lines.count - 1].isEmpty, lines[lines.count - 1].count + 1 + entry.count > most {
                lines.append("")
            }
            lines[lines.count - 1] += (lines[lines.count - 1].isEmpty ? "" : " ") + entry
        }
        return lines
    }

    /// The parts of `column` that reach `learn`'s Publish copy (`o`), each at its time, for a time
    /// axis: what the copy emitted for the intent (where one lived as it came), then `o`'s
    /// disposal of it and subscription of a new one, at theirs.
    static func copyParts(of column: StreamColumn) -> [(at: SessionTime, part: StreamColumn)] {
        guard let copy = column.copy else { return [] }
        func part(_ shown: CopyColumn) -> StreamColumn {
            var part = StreamColumn(index: column.index)
            part.copy = shown
            return part
        }
        var parts: [(SessionTime, StreamColumn)] = []
        let time = column.time ?? .start
        if copy.lived {
            var values = CopyColumn(lived: true, lives: true)
            (values.subject, values.ball, values.screen) = (copy.subject, copy.ball, copy.screen)
            parts.append((time, part(values)))
        }
        if let endedAt = copy.endedAt {
            var ended = CopyColumn(lived: true, lives: false)
            ended.endedAt = endedAt
            parts.append((endedAt, part(ended)))
        }
        if let beganAt = copy.beganAt {
            var began = CopyColumn(lived: false, lives: true)
            began.beganAt = beganAt
            parts.append((beganAt, part(began)))
        }
        return parts
    }

    /// A recorded tour's lesson as a block draws it: where it began, and in which column (an
    /// intent's, or on a time axis a frame's).
    struct LessonMark {
        /// The lesson and where it began.
        var start: LessonStart
        /// The column it is drawn at.
        var column: Int
    }

    /// The lanes of what the operators in the slot in `columns` read beyond the position, in
    /// ``SlotInput``'s order: each part of the slot's lane is drawn under what its operator read.
    /// `inners`: more inner lanes to draw (on a time axis, those of the frames' own columns).
    static func inputLanes(of columns: [StreamColumn], inners more: [StreamLane] = []) -> [StreamLane] {
        let read = Set(columns.flatMap { StreamLane.inputs(of: $0.slot) })
        var numbers = StreamLane.inners(in: columns).compactMap(\.innerNumber)
        numbers += more.compactMap(\.innerNumber)
        let inners = numbers.min().map { ($0...numbers.max()!).map(StreamLane.inner) } ?? []
        return SlotInput.allCases.map(StreamLane.init).filter(read.contains) + inners
    }

    /// Draws one block of `columns` (intents from `first`) with its corner at `at` into
    /// `spool`, each value with its letter in `letters` (the block's, from the session's book) and
    /// `values` (``valuesLines(_:)``) under it, with the late lanes that reach it (and the slot's
    /// lane, when `slot`); `completed` keeps where each main lane completed.
    private static func drawBlock(
        _ columns: [StreamColumn], from first: Int, letters: ValueLetters, values: [String], slot showsSlot: Bool,
        inputs: [StreamLane], stages: [StreamLane],
        copy: (underWay: Bool, lanes: [StreamLane])?, lateLanes: [LateLane],
        completed: inout [StreamLane: Int],
        tooltips: inout [Intent: [UInt8]], counts: [Int: [StreamLane: Int]], inners: [Int: [StreamLane: [Marble]]]?,
        lessons: (before: LessonMark?, starts: [LessonMark])?, ruler: (Int) -> String,
        at corner: (x: Int, y: Int), into spool: Spool
    ) throws {
        let lastIndex = columns.last!.index
        // Each kind's lanes in rows as the text export packs them: two that meet (one subscribed
        // where the other ended) each in a row of its own, as the live panel draws them.
        let lateRows = StreamPanel.exportRows(of: lateLanes)
        // A recorded tour's block has a row above its ruler for its lessons.
        let above = lessons == nil ? 0 : lessonRow
        try spool.append(
            Array(#"<g class="block" transform="translate(\#(corner.x),\#(corner.y - margin + above))">"#.utf8))
        if let lessons { try drawLessons(lessons, first: first, into: spool) }
        // The ruler: every tenth intent, and the block's first.
        for column in columns where column.index % 10 == 0 || column.index == first {
            try spool.append(
                Array(
                    #"<text x="\#(centre(of: column.index - first))" y="\#(margin + 14)" class="ruler">\#(ruler(column.index))</text>"#
                        .utf8))
        }
        let mainLanes = StreamLane.main(slot: showsSlot, inputs: inputs, stages: stages)
        let firstPipeLane = mainLanes.first { $0.isPipeLane }
        var panel = StreamPanel(columns: columns, lateLanes: lateLanes)
        panel.showsSlot = showsSlot
        panel.inputsOfEveryOperator = true
        let positions = Dictionary(columns.compactMap { column in column.position.map { (column.index, $0) } }) { $1 }
        for (slot, lane) in mainLanes.enumerated() {
            let y = middle(of: slot)
            // A pipe's lane goes on after a stage's end (the next pipe's stages pass on along it):
            // only the session's end, or an error that ends `slotted`, ends it for good.
            let endsForGood: (StreamColumn) -> Bool =
                lane.isPipeLane
                ? { $0.completed.contains(.slotted) || $0.failed.contains(.slotted) }
                : { $0.completed.contains(lane) || $0.failed.contains(lane) }
            if completed[lane] == nil, let ended = columns.first(where: endsForGood) {
                completed[lane] = ended.index
            }
            // The line: the block's columns, up to the completion when it is in them.
            let lastDrawn = min(lastIndex, completed[lane] ?? lastIndex)
            // The slot's lane is labelled `slotted`, as the panel labels it; the operator of the
            // block's first column is named above its start, and each operator chosen in the block
            // starts its part with a dashed bar and its name above.
            // A stage's lane is labelled with its code, as the panel labels it (cut to … where the
            // label column is narrow: the label's title says it in full).
            let label = panel.pipeLabel(lane).xmlEscaped
            let code = panel.pipeCode(lane).map { "<title>\($0.xmlEscaped)</title>" } ?? ""
            guard completed[lane].map({ $0 >= first }) ?? true else {
                // Ended before the block (a time axis runs on after the session's end to the late
                // subscriptions made then): its label over nothing, as the panel draws it.
                try spool.append(
                    Array(
                        #"<g class="lane" data-lane="\#(lane.label)"><text x="\#(margin)" y="\#(y + 4)" class="label">\#(label)\#(code)</text></g>"#
                            .utf8))
                continue
            }
            let end = centre(of: lastDrawn - first) + (completed[lane] == lastDrawn ? 7 : column / 2)
            // An inner subscription's lane: a line while it lives, `^` and `!` where it was made
            // and disposed of, `|` where it completed, as the text export draws it.
            // So is each subscription retry made anew (`^`, what it passed on, its end).
            let line =
                if case .inner = lane {
                    innerShapes(columns: columns, first: first, lane: lane, y: y, letters: letters, frames: inners)
                } else if lane.isRetried {
                    innerShapes(columns: columns, first: first, lane: lane, y: y, letters: letters)
                } else {
                    #"<line x1="\#(centre(of: 0) - column / 2)" y1="\#(y)" x2="\#(end)" y2="\#(y)" class="lane"/>"#
                }
            try spool.append(
                Array(
                    #"<g class="lane" data-lane="\#(lane.label)"><text x="\#(margin)" y="\#(y + 4)" class="label">\#(label)\#(code)</text>\#(line)"#
                        .utf8))
            // A stage's lane that draws the stages of several pipes in the block (labelled
            // `stage 1`): each part named under its line with the code of its stage, as the live
            // panel labels the lane on a page of that pipe.
            if case .stage(let number) = lane, panel.pipeCode(lane) == nil {
                try spool.append(Array(stagePartNames(columns: columns, stage: number, y: y).utf8))
            }
            // Each pipe lane starts a part with a dashed bar where a pipe is built; the first
            // names the pipe of each part above it.
            if lane.isPipeLane, lane != firstPipeLane {
                for start in panel.segmentStarts {
                    let x = centre(of: start.offset) - column / 2
                    try spool.append(
                        Array(#"<line x1="\#(x)" y1="\#(y - 9)" x2="\#(x)" y2="\#(y + 9)" class="segment"/>"#.utf8))
                }
            }
            if lane == firstPipeLane {
                let starts = panel.segmentStarts
                var names: [PartName] = []
                // The part that began before the block, named over its first column onwards.
                if starts.first?.offset != 0 {
                    let name = columns[0].slot.laneLabel
                    names.append(
                        PartName(
                            x: centre(of: 0) - column / 2 + 2, text: name, attribute: "data-segment",
                            title: "#\(columns[0].index) \(name) was in the slot"))
                }
                for start in starts {
                    let x = centre(of: start.offset) - column / 2
                    try spool.append(
                        Array(#"<line x1="\#(x)" y1="\#(y - 14)" x2="\#(x)" y2="\#(y + 9)" class="segment"/>"#.utf8))
                    let name = start.slot.laneLabel
                    names.append(
                        PartName(
                            x: x + 2, text: name, attribute: "data-segment",
                            title: "#\(columns[start.offset].index) \(name) went into the slot"))
                }
                // Over the line: the first line just above it, the second above that; the first
                // leaves room for the counts over the lane's marbles (`×2`).
                let countsAt = columns.filter { column in
                    counts[column.index]?[lane] != nil || column.valueCount(lane) > 1
                }.map { centre(of: $0.index - first) }
                try spool.append(Array(partNames(names, lines: (y - 7, y - 17), countsAt: countsAt).utf8))
            }
            for column in columns {
                // (An inner lane's values are its shapes', and a retried subscription's.)
                if case .inner = lane { break }
                if lane.isRetried { break }
                let x = centre(of: column.index - first)
                try drawMarble(column, lane: lane, x: x, y: y, letters: letters, tooltips: &tooltips, into: spool)
                if let count = counts[column.index]?[lane]
                    ?? (column.valueCount(lane) > 1 ? column.valueCount(lane) : nil)
                {
                    try spool.append(Array(#"<text x="\#(x)" y="\#(y - 9)" class="count">×\#(count)</text>"#.utf8))
                }
            }
            try spool.append(Array("</g>".utf8))
        }
        // The Publish copy's lanes, under the main lanes.
        let copyLanes = copy?.lanes ?? []
        for (offset, lane) in copyLanes.enumerated() {
            let y = middle(of: mainLanes.count + offset)
            try spool.append(
                Array(
                    #"<g class="lane" data-lane="\#(lane.label)"><text x="\#(margin)" y="\#(y + 4)" class="label">\#(lane.label)<title>\#(lane.expression.xmlEscaped)</title></text>"#
                        .utf8))
            try spool.append(
                Array(copyShapes(columns: columns, first: first, underWay: copy?.underWay ?? false, y: y).utf8))
            for column in columns where column.copy != nil {
                let x = centre(of: column.index - first)
                try drawMarble(column, lane: lane, x: x, y: y, letters: letters, tooltips: &tooltips, into: spool)
                if let count = counts[column.index]?[lane] {
                    try spool.append(Array(#"<text x="\#(x)" y="\#(y - 9)" class="count">×\#(count)</text>"#.utf8))
                }
            }
            try spool.append(Array("</g>".utf8))
        }
        for (offset, row) in lateRows.enumerated() {
            let label = StreamLane.late(row[0].kind).label
            let y = middle(of: mainLanes.count + copyLanes.count + offset)
            try spool.append(
                Array(
                    #"<g class="lane" data-lane="\#(label)"><text x="\#(margin)" y="\#(y + 4)" class="label">\#(label)</text>"#
                        .utf8))
            for lane in row {
                try spool.append(
                    Array(
                        lateShapes(lane, first: first, last: lastIndex, y: y, letters: letters, positions: positions)
                            .utf8))
            }
            try spool.append(Array("</g>".utf8))
        }
        // The values line: what each letter stands for, a line of text a line.
        let valuesY = middle(of: mainLanes.count + copyLanes.count + lateRows.count) - row / 2 + legendLine / 2 + 4
        try spool.append(
            Array(#"<text x="\#(margin)" y="\#(valuesY)" class="label" data-values="">values</text>"#.utf8))
        for (number, line) in values.enumerated() {
            try spool.append(
                Array(
                    #"<text x="\#(margin + labels)" y="\#(valuesY + number * legendLine)" class="meaning">\#(line.xmlEscaped)</text>"#
                        .utf8))
        }
        try spool.append(Array("</g>\n".utf8))
    }

    /// The names under stage `number`'s lane (on the row at `y`) in the block of `columns`, where
    /// the lane draws the stages of several pipes: where the stage it draws changes (or it begins
    /// to draw one), that stage's code as the live panel labels its lane on a page of that pipe
    /// (``SlotOperator/stageLabel(width:)``; its title says it in full).
    static func stagePartNames(columns: [StreamColumn], stage number: Int, y: Int) -> String {
        var names: [PartName] = []
        var previous: SlotOperator?
        for (offset, column) in columns.enumerated() {
            let stages = column.slot.stages
            let shown = stages.count > 1 && number < stages.count ? stages[number] : nil
            if let shown, shown != previous {
                names.append(
                    PartName(
                        x: centre(of: offset) - Self.column / 2 + 2,
                        text: shown.stageLabel(width: StreamPanel.labelRoom),
                        attribute: "data-stage", full: shown.stageCode,
                        title: "#\(column.index) \(shown.stageCode), stage \(number + 1) of \(column.slot.code)"))
            }
            previous = shown
        }
        // Under the line: the first line just below it, the second below that.
        return partNames(names, lines: (y + 16, y + 26))
    }

    /// A name drawn over or under a lane where a part of it begins (in 10 px text).
    struct PartName {
        /// Where it begins.
        var x: Int
        /// What it says.
        var text: String
        /// The attribute that holds what it names in full, for a reader of the picture.
        var attribute: String
        /// What it names in full (where it says less: a stage's code).
        var full: String?
        /// Its title: what it names, in full.
        var title: String
    }

    /// `names` (in the order of their `x`) on two `lines` (their y), each whole where it fits: on
    /// the first line where the name before it there ends before it begins; where neither does,
    /// on the line where that one keeps the most of itself, cut `…` to end before it (its title
    /// says it in full). A name that would cover a count drawn over the lane's marbles (`×2`, at
    /// `countsAt`, their x) goes on the second line.
    static func partNames(_ names: [PartName], lines: (Int, Int), countsAt: [Int] = []) -> String {
        // (6 px a character at 10 px, and 4 between two names; a count 6 px either side of its x.)
        func end(_ name: PartName, _ shown: String) -> Int { name.x + shown.count * 6 + 4 }
        func clearOfCounts(_ name: PartName) -> Bool {
            !countsAt.contains { $0 + 6 >= name.x && $0 - 6 <= end(name, name.text) }
        }
        var shown = names.map(\.text)
        var line = Array(repeating: 0, count: names.count)
        var last: [Int?] = [nil, nil]
        for (index, name) in names.enumerated() {
            // The first line only where it is clear of the counts.
            let usable = clearOfCounts(name) ? [0, 1] : [1]
            let ends = last.map { $0.map { end(names[$0], shown[$0]) } ?? .min }
            if let free = usable.first(where: { ends[$0] <= name.x }) {
                line[index] = free
            } else {
                // The line where the name before keeps the most of itself.
                let room = { (line: Int) in max(0, (name.x - 4 - names[last[line]!].x) / 6) }
                let roomier = usable.max { room($0) < room($1) }!
                let before = last[roomier]!
                shown[before] = String(shown[before].prefix(max(0, room(roomier) - 1))) + "\(Glyph.ellipsis)"
                line[index] = roomier
            }
            last[line[index]] = index
        }
        var drawn = ""
        for (index, name) in names.enumerated() {
            let y = line[index] == 0 ? lines.0 : lines.1
            drawn +=
                #"<text x="\#(name.x)" y="\#(y)" class="segment-name" \#(name.attribute)="\#((name.full ?? name.text).xmlEscaped)">\#(shown[index].xmlEscaped)<title>\#(name.title.xmlEscaped)</title></text>"#
        }
        return drawn
    }

    /// The row above a recorded tour's block (in the block's coordinates, above its ruler): the
    /// lesson begun before the block named from its first column, then each begun in it, a bar
    /// at the column after whose intent it began and its name (`Lesson 4 · Publish`; the full
    /// name in `data-lesson`, shorter where the next begins first: `Lesson 4`, `4`).
    private static func drawLessons(
        _ lessons: (before: LessonMark?, starts: [LessonMark]), first: Int, into spool: Spool
    ) throws {
        let y = margin - lessonRow + 12
        try spool.append(Array(#"<text x="\#(margin)" y="\#(y)" class="lesson">lesson</text>"#.utf8))
        // Several begun in one column: the last, which the intents after it were made in.
        var starts: [LessonMark] = []
        for start in lessons.starts {
            if starts.last?.column == start.column { starts.removeLast() }
            starts.append(start)
        }
        // The name as far as the next start (7 px a character at 11 px), shorter where it must be.
        func shown(_ mark: LessonMark, room: Int) -> String { mark.start.label(width: room) }
        if let before = lessons.before, starts.first?.column != first {
            let name = before.start.label
            let room = starts.first.map { ($0.column - first) * column / 7 } ?? .max
            try spool.append(
                Array(
                    #"<text x="\#(centre(of: 0) - column / 2 + 2)" y="\#(y)" class="lesson" data-lesson="\#(name.xmlEscaped)">\#(shown(before, room: room).xmlEscaped)<title>\#(name.xmlEscaped), begun before intent \#(first)</title></text>"#
                        .utf8))
        }
        for (number, start) in starts.enumerated() {
            let x = centre(of: start.column - first) - column / 2
            let name = start.start.label
            let room = number + 1 < starts.count ? (starts[number + 1].column - start.column) * column / 7 : .max
            try spool.append(
                Array(
                    #"<line x1="\#(x)" y1="\#(y - 11)" x2="\#(x)" y2="\#(margin + ruler)" class="lesson-start"/><text x="\#(x + 3)" y="\#(y)" class="lesson" data-lesson="\#(name.xmlEscaped)">\#(shown(start, room: room).xmlEscaped)<title>\#(name.xmlEscaped), begun after intent \#(start.start.column)</title></text>"#
                        .utf8))
        }
    }

    /// One column's marble on `lane` at (`x`, `y`), and its completion's bar.
    private static func drawMarble(
        _ column: StreamColumn, lane: StreamLane, x: Int, y: Int, letters: ValueLetters,
        tooltips: inout [Intent: [UInt8]], into spool: Spool
    ) throws {
        // Several values at once on the slot's lane or a stage's (flatMap's inner subscriptions):
        // the last, counted `×2` above it.
        // (What a subject hands a pipe put in here as it subscribes is the pipe's, not a value
        // the subject sent: its lane draws nothing for it, as the panel's.)
        let emission =
            column.valueCount(lane) > 1
            ? column.lastValue(lane).map { .value(MarbleValue($0)) } : column.emission(lane)
        let completed = column.completes(lane)
        let failed = column.failed.contains(lane)
        guard emission != nil || completed || failed else { return }
        try spool.append { bytes in
            func shape(_ start: [UInt8], _ attributes: [UInt8], end: [UInt8], title: (inout [UInt8]) -> Void) {
                bytes += start
                bytes.appendDecimal(x)
                bytes += Bytes.y
                bytes.appendDecimal(y)
                bytes += attributes
                bytes.appendDecimal(column.index)
                bytes.append(UInt8(ascii: " "))
                title(&bytes)
                bytes += end
            }
            switch emission {
            case .intent(let intent)?:
                bytes += Bytes.textX
                bytes.appendDecimal(x)
                bytes += Bytes.textY
                bytes.appendDecimal(y + 5)
                bytes += Bytes.intent
                bytes.appendUTF8(Marble.glyph(of: intent))
                bytes += Bytes.titleStart
                bytes.appendDecimal(column.index)
                bytes.append(UInt8(ascii: " "))
                if let tooltip = tooltips[intent] {
                    bytes += tooltip
                } else {
                    let tooltip = Array(Marble.describe(intent).xmlEscaped.utf8)
                    if tooltips.count < 65_536 { tooltips[intent] = tooltip }
                    bytes += tooltip
                }
                bytes += Bytes.textEnd
            case .value(let value)?:
                shape(Bytes.circleX, Bytes.position, end: Bytes.circleEnd) { bytes in
                    switch value {
                    case .count(let count): bytes.appendDecimal(count)
                    case .flag(let on): bytes += Array((on ? "true" : "false").utf8)
                    case .position(let position):
                        bytes.appendDecimal(position.centre.column)
                        bytes.append(UInt8(ascii: ","))
                        bytes.appendDecimal(position.centre.row)
                        bytes += Bytes.on
                        bytes.appendDecimal(position.screen.columns)
                        bytes += Bytes.times
                        bytes.appendDecimal(position.screen.rows)
                    }
                }
                // The value in the marble: itself where it fits (a count, T, F), else its letter.
                let text =
                    value.glyph.map { String($0) } ?? value.wideGlyphs.map { "\($0.0)\($0.1)" }
                    ?? letters[value].map { String($0) } ?? ""
                bytes += Array(#"<text x="\#(x)" y="\#(y + 3)" class="count">\#(text)</text>"#.utf8)
            case .colour(let colour, let background)?:
                if background {
                    // A square, as the panel's ■: its corner 5 px up and left of the centre.
                    bytes += Bytes.squareX
                    bytes.appendDecimal(x - 5)
                    bytes += Bytes.textY
                    bytes.appendDecimal(y - 5)
                    bytes += Bytes.square[Int(colour.rawValue)]
                    bytes.appendDecimal(column.index)
                    bytes.append(UInt8(ascii: " "))
                    bytes += Bytes.names[Int(colour.rawValue)]
                    bytes += Bytes.squareEnd
                } else {
                    shape(Bytes.circleX, Bytes.colour[Int(colour.rawValue)], end: Bytes.circleEnd) {
                        $0 += Bytes.names[Int(colour.rawValue)]
                    }
                }
            case .ghost?:
                shape(Bytes.circleX, Bytes.ghost, end: Bytes.circleEnd) { $0 += Bytes.swallowed }
            default: break
            }
            if completed {
                bytes += Array(#"<line x1="\#(x + 7)" y1="\#(y - 8)" x2="\#(x + 7)" y2="\#(y + 8)" class="end"/>"#.utf8)
            }
            if failed {
                bytes += Array(
                    #"<text x="\#(x + 7)" y="\#(y + 5)" class="error">#<title>#\#(column.index) an error: the stream ends</title></text>"#
                        .utf8)
            }
        }
    }

    /// A late subscription's part in the block of intents `first...last`, on the row at `y`:
    /// its line over the columns it lives in there, `^` and what it was handed where it
    /// subscribed, each value it received, and `!` or `|` where it ended.
    static func lateShapes(
        _ lane: LateLane, first: Int, last: Int, y: Int, letters: ValueLetters = [:],
        positions: [Int: BallPosition] = [:]
    ) -> String {
        let from = max(lane.start, first)
        let to = min(lane.end?.column ?? last, last)
        guard from <= to else { return "" }
        let x = { (index: Int) in centre(of: index - first) }
        let endsHere = lane.end.map { $0.column <= last } ?? false
        var shapes =
            #"<line x1="\#(lane.start >= first ? x(from) - 4 : x(from) - column / 2)" y1="\#(y)" x2="\#(x(to) + (endsHere ? 7 : column / 2))" y2="\#(y)" class="lane"/>"#
        if lane.start >= first {
            let start = x(lane.start)
            shapes +=
                #"<text x="\#(start - 9)" y="\#(y + 8)" class="mark">^<title>#\#(lane.start) subscribed</title></text>"#
            let handed = lane.handedPositions.map { "\($0.centre)" }.joined(separator: " · ")
            if lane.handed == 1 {
                let letter = letters[.position(lane.handedPositions[0])].map { String($0) } ?? ""
                shapes +=
                    #"<circle cx="\#(start)" cy="\#(y)" r="5" class="position"><title>#\#(lane.start) handed \#(handed)</title></circle><text x="\#(start)" y="\#(y + 3)" class="count">\#(letter)</text>"#
            } else if lane.handed > 1 {
                shapes +=
                    #"<circle cx="\#(start)" cy="\#(y)" r="6" class="position"><title>#\#(lane.start) handed \#(handed) at once</title></circle><text x="\#(start)" y="\#(y + 3)" class="count">\#(Glyph.group(lane.handed))</text>"#
            }
        }
        for received in lane.received.sorted() where (from...to).contains(received) && received != lane.start {
            let letter = positions[received].flatMap { letters[.position($0)] }.map { String($0) } ?? ""
            shapes +=
                #"<circle cx="\#(x(received))" cy="\#(y)" r="5" class="position"><title>#\#(received)</title></circle><text x="\#(x(received))" y="\#(y + 3)" class="count">\#(letter)</text>"#
        }
        if let end = lane.end, endsHere {
            let at = x(end.column) + 7
            switch end.ending {
            case .completed:
                shapes += #"<line x1="\#(at)" y1="\#(y - 8)" x2="\#(at)" y2="\#(y + 8)" class="end"/>"#
            case .unsubscribed:
                shapes +=
                    #"<text x="\#(at)" y="\#(y + 5)" class="cancel">!<title>#\#(end.column) unsubscribed</title></text>"#
            case .failed:
                shapes +=
                    #"<text x="\#(at)" y="\#(y + 5)" class="error">#<title>#\#(end.column) an error</title></text>"#
            }
        }
        return shapes
    }

    /// An inner subscription's lane (`flatMap`'s or `flatMapLatest`'s for a press,
    /// ``StreamLane/inner(_:)``) in the block of `columns` (from intent `first`), on the row at `y`,
    /// as the text export and the panel draw it (``StreamColumn/marble(_:)``): a line for as long
    /// as it lives in the block (from the block's start where it lived before), `^` where its press
    /// (or the operator going in with the button down) subscribed it, each position it received
    /// (the last of a column, with its letter in `letters`), `!` where it was disposed of (the
    /// release, for `flatMapLatest`; another operator chosen; an error), `|` where the position
    /// completed. On a time axis, `frames` holds each frame's columns' marbles (a frame without
    /// one, the lane as its frame's column says: living on, or nothing).
    static func innerShapes(
        columns: [StreamColumn], first: Int, lane: StreamLane, y: Int, letters: ValueLetters = [:],
        frames: [Int: [StreamLane: [Marble]]]? = nil
    ) -> String {
        guard let last = columns.last?.index else { return "" }
        // The lines first, under the marks and values drawn over them.
        var (lines, shapes) = ("", "")
        // Where the line under way began.
        var start: Int?
        func line(to end: Int) {
            if let start { lines += #"<line x1="\#(start)" y1="\#(y)" x2="\#(end)" y2="\#(y)" class="lane"/>"# }
            start = nil
        }
        for (offset, column) in columns.enumerated() {
            let x = centre(of: column.index - first)
            let marbles =
                frames.map { $0[column.index]?[lane] ?? [column.marble(lane)].compactMap { $0 } }
                ?? [column.marble(lane)].compactMap { $0 }
            // Living on: from the block's start where it lived before it.
            if offset == 0, !marbles.isEmpty, !marbles.contains(where: \.subscribes) { start = x - Self.column / 2 }
            if marbles.isEmpty { line(to: x - Self.column / 2) }
            if marbles.contains(where: \.subscribes) {
                line(to: x - 4)
                start = x - 4
                shapes +=
                    #"<text x="\#(x - 9)" y="\#(y + 8)" class="mark">^<title>#\#(column.index) subscribed, handed the position</title></text>"#
            }
            if case .position(let position)? = marbles.compactMap(\.drawnValue).last {
                let letter = letters[.position(position)].map { String($0) } ?? ""
                shapes +=
                    #"<circle cx="\#(x)" cy="\#(y)" r="5" class="position"><title>#\#(column.index) \#(position.centre.column),\#(position.centre.row) on \#(position.screen.columns)×\#(position.screen.rows)</title></circle><text x="\#(x)" y="\#(y + 3)" class="count">\#(letter)</text>"#
            }
            let at = x + 7
            if marbles.contains(where: { $0.ending == .unsubscribed }) {
                line(to: at)
                shapes +=
                    #"<text x="\#(at)" y="\#(y + 5)" class="cancel">!<title>#\#(column.index) unsubscribed: disposed of</title></text>"#
            }
            if marbles.contains(where: { $0.ending == .completed }) {
                line(to: at)
                shapes += #"<line x1="\#(at)" y1="\#(y - 8)" x2="\#(at)" y2="\#(y + 8)" class="end"/>"#
            }
            if marbles.contains(where: { $0.ending == .failed }) {
                line(to: at)
                shapes +=
                    #"<text x="\#(at)" y="\#(y + 5)" class="error">#<title>#\#(column.index) an error</title></text>"#
            }
            // A frame that subscribed it again after its disposal (an operator chosen, then a
            // press; the release after it leaves the new one living): it lives on from there.
            if let lastMarble = marbles.last, lastMarble.ending == nil, start == nil {
                start = at
            }
        }
        line(to: centre(of: last - first) + column / 2)
        return lines + shapes
    }

    /// A Publish copy's lane's line and marks (the same on its three lanes) in the block of `columns` (from intent
    /// `first`), on the row at `y` (its values are drawn as the main lanes' are): a line for as
    /// long as a copy lives (from the block's start where one was `underWay`), `^` where `o`
    /// subscribed one after a column's intent (a Publish subject hands nothing), `!` where `o`
    /// bound the screen back, disposing of it; both after one intent, in the order they came.
    static func copyShapes(columns: [StreamColumn], first: Int, underWay: Bool, y: Int) -> String {
        guard let last = columns.last?.index else { return "" }
        var shapes = ""
        // Where the line of the copy under way began.
        var start: Int? = underWay ? centre(of: 0) - column / 2 : nil
        func subscribed(_ x: Int, _ index: Int) {
            start = x
            shapes +=
                #"<text x="\#(x)" y="\#(y + 8)" class="mark">^<title>#\#(index) o: the screen through a Publish copy, subscribed, handed nothing</title></text>"#
        }
        func unsubscribed(_ x: Int, _ index: Int) {
            if let start {
                shapes += #"<line x1="\#(start)" y1="\#(y)" x2="\#(x)" y2="\#(y)" class="lane"/>"#
            }
            start = nil
            shapes +=
                #"<text x="\#(x)" y="\#(y + 5)" class="cancel">!<title>#\#(index) o again: the screen bound back to the chain, the copy unsubscribed</title></text>"#
        }
        for column in columns {
            guard let copy = column.copy else { continue }
            let x = centre(of: column.index - first)
            if copy.lived, start == nil { start = x - Self.column / 2 }
            switch (copy.endedAt != nil, copy.beganAt != nil) {
            case (true, true) where copy.lives:
                // Bound back, then through a new copy.
                unsubscribed(x + 4, column.index)
                subscribed(x + 11, column.index)
            case (true, true):
                // A copy subscribed and bound back after one intent.
                subscribed(x + 4, column.index)
                unsubscribed(x + 11, column.index)
            case (true, false): unsubscribed(x + 7, column.index)
            case (false, true): subscribed(x + 7, column.index)
            case (false, false): break
            }
        }
        if let start {
            let end = centre(of: last - first) + column / 2
            shapes += #"<line x1="\#(start)" y1="\#(y)" x2="\#(end)" y2="\#(y)" class="lane"/>"#
        }
        return shapes
    }

    /// The legend's entries: the marks a picture can hold, each with its meaning (the panel's
    /// legend, ``MarbleLegend``, without what a replay never draws: a skip).
    package static var legend: [(symbol: String, meaning: String)] {
        MarbleLegend.entries.filter { !$0.symbol.unicodeScalars.contains(Glyph.skipped) }
    }

    /// How wide the legend is.
    static var legendWidth: Int { 2 * margin + 130 + (legend.map { $0.meaning.count }.max() ?? 0) * 8 }

    /// The legend from `top`: each entry's marks drawn as the lanes draw them, then its meaning.
    static func legendShapes(top: Int) -> String {
        var shapes = ""
        for (line, entry) in legend.enumerated() {
            let y = top + line * legendLine + legendLine / 2
            var x = margin + 8
            for symbol in entry.symbol.split(separator: " ") {
                switch symbol.unicodeScalars.first! {
                case Glyph.value: shapes += #"<circle cx="\#(x)" cy="\#(y)" r="5" class="position"/>"#
                case Glyph.ball:
                    shapes += #"<circle cx="\#(x)" cy="\#(y)" r="5" fill="\#(FlatColour.flatRed.hex)" class="colour"/>"#
                case Glyph.background:
                    shapes +=
                        #"<rect x="\#(x - 5)" y="\#(y - 5)" width="10" height="10" fill="\#(FlatColour.flatMint.hex)" class="colour"/>"#
                case Glyph.ghost: shapes += #"<circle cx="\#(x)" cy="\#(y)" r="2" class="ghost"/>"#
                case Glyph.completed:
                    shapes += #"<line x1="\#(x)" y1="\#(y - 8)" x2="\#(x)" y2="\#(y + 8)" class="end"/>"#
                case Glyph.line: shapes += #"<line x1="\#(x - 6)" y1="\#(y)" x2="\#(x + 6)" y2="\#(y)" class="lane"/>"#
                case Glyph.unsubscribed: shapes += #"<text x="\#(x)" y="\#(y + 5)" class="cancel">!</text>"#
                case Glyph.error: shapes += #"<text x="\#(x)" y="\#(y + 5)" class="error">#</text>"#
                case Glyph.subscribed: shapes += #"<text x="\#(x)" y="\#(y + 8)" class="mark">^</text>"#
                case Glyph.groupOfTwo, Glyph.groupOfThree:
                    shapes +=
                        #"<circle cx="\#(x)" cy="\#(y)" r="6" class="position"/><text x="\#(x)" y="\#(y + 3)" class="count">\#(symbol)</text>"#
                default: shapes += #"<text x="\#(x)" y="\#(y + 5)" class="intent">\#(String(symbol).xmlEscaped)</text>"#
                }
                x += 16
            }
            shapes += #"<text x="\#(margin + 130)" y="\#(y + 4)" class="meaning">\#(entry.meaning.xmlEscaped)</text>"#
        }
        return shapes
    }

    /// The shapes' fixed parts, made once.
    enum Bytes {
        static let circleX = Array(#"<circle cx=""#.utf8)
        static let y = Array(#"" cy=""#.utf8)
        static let textX = Array(#"<text x=""#.utf8)
        static let textY = Array(#"" y=""#.utf8)
        static let squareX = Array(#"<rect x=""#.utf8)
        static let intent = Array(#"" class="intent">"#.utf8)
        static let titleStart = Array("<title>".utf8)
        static let textEnd = Array("</title></text>".utf8)
        static let position = Array(#"" r="5" class="position"><title>#"#.utf8)
        static let ghost = Array(#"" r="2" class="ghost"><title>#"#.utf8)
        static let colour = FlatColour.allCases.map {
            Array(#"" r="5" fill="\#($0.hex)" class="colour"><title>#"#.utf8)
        }
        static let square = FlatColour.allCases.map {
            Array(#"" width="10" height="10" fill="\#($0.hex)" class="colour"><title>#"#.utf8)
        }
        static let names = FlatColour.allCases.map { Array($0.name.utf8) }
        static let swallowed = Array("swallowed by distinctUntilChanged".utf8)
        static let circleEnd = Array("</title></circle>".utf8)
        static let squareEnd = Array("</title></rect>".utf8)
        static let on = Array(" on ".utf8)
        static let times = Array("×".utf8)
    }

    /// The x of intent `index`'s column centre.
    package static func centre(of index: Int) -> Int { margin + labels + index * column + column / 2 }

    /// The y of lane `slot`'s line.
    static func middle(of slot: Int) -> Int { margin + ruler + slot * row + row / 2 }
}

extension [UInt8] {
    /// `value` in decimal digits, appended.
    fileprivate mutating func appendDecimal(_ value: Int) {
        if value < 0 {
            append(UInt8(ascii: "-"))
            appendDecimal(-value)
            return
        }
        if value >= 10 { appendDecimal(value / 10) }
        append(UInt8(ascii: "0") + UInt8(value % 10))
    }
}

extension String {
    /// The text with XML's five special characters escaped.
    fileprivate var xmlEscaped: String {
        guard utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 }) else {
            return self
        }
        var escaped = ""
        for character in self {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&apos;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}

extension StreamColumn {
    /// How many values `lane` passed on in the column, where it can pass on several (the slot's
    /// lane and a stage's: flatMap's inner subscriptions each pass a position on); else 0.
    fileprivate func valueCount(_ lane: StreamLane) -> Int {
        switch lane {
        case .slotted: slottedCount
        case .stage(let number): passed(byStage: number)?.count ?? 0
        default: 0
        }
    }

    /// The last value `lane` passed on in the column, for the slot's lane and a stage's.
    fileprivate func lastValue(_ lane: StreamLane) -> SlotOutput? {
        switch lane {
        case .slotted: slotted
        case .stage(let number): passed(byStage: number)?.value
        default: nil
        }
    }

    /// The column with only the values `run` (indices) of those `lane` passed on (the slot's
    /// lane or a stage's), and its completion or error only when `last`.
    fileprivate func part(_ lane: StreamLane, values run: Range<Int>, last: Bool = true) -> StreamColumn {
        var part = self
        switch lane {
        case .slotted:
            let values = slottedValues[run]
            part.slotted = values.last
            part.slottedEarlier = Array(values.dropLast())
            part.slottedCount = values.count
            part.slottedTimes = Array(slottedTimes[run])
            part.passedAt = part.slottedTimes.last
        case .stage(let number):
            part.stagesPassed[number].values = Array(stagesPassed[number].values[run])
            part.stagesPassed[number].times = Array(stagesPassed[number].times[run])
            part.stagesPassed[number].at = part.stagesPassed[number].times.first
            if !last { (part.stagesPassed[number].completedAt, part.stagesPassed[number].failedAt) = (nil, nil) }
        default: break
        }
        if !last {
            part.completed.remove(lane)
            part.failed.remove(lane)
        }
        return part
    }

    /// Takes what `part` emitted on `lanes` (the latest of a frame wins), with the intent's facts
    /// when `lanes` holds the intents'.
    fileprivate mutating func merge(_ part: StreamColumn, lanes: [StreamLane]) {
        for lane in lanes {
            switch lane {
            case .intents:
                // (The frame's first intent says which inner subscriptions lived before it, and how
                // many were made.)
                if intent == nil { (innersBefore, innersMadeBefore) = (part.innersBefore, part.innersMadeBefore) }
                if let intent = part.intent { self.intent = intent }
                // The state after the frame's last intent: the position a press's inner was handed.
                state = part.state
                slot = part.slot
                mirror = part.mirror
                held = part.held
                time = part.time
                innersAfter = part.innersAfter
                innersMadeAfter = part.innersMadeAfter
            case .position: if let position = part.position { self.position = position }
            case .mirror: if let sent = part.mirrorSent { mirrorSent = sent }
            case .grabbed: if let sent = part.grabbed { grabbed = sent }
            case .mouse: if let sent = part.mouse { mouse = sent }
            case .keys: if let sent = part.keys { keys = sent }
            case .slotted:
                if let output = part.slotted {
                    slotted = output
                    slottedCount = part.slottedCount
                    slottedEarlier = part.slottedEarlier
                    slottedTimes = part.slottedTimes
                    passedAt = part.passedAt
                }
            case .ballColour: if let colour = part.ballColour { ballColour = colour }
            case .background: if let colour = part.background { background = colour }
            case .stage(let number):
                if let passed = part.stage(number) {
                    while stagesPassed.count <= number { stagesPassed.append(StagePassed()) }
                    stagesPassed[number] = passed
                }
            case .retried(let number, _):
                // The subscriptions retry made anew are the stage's, with the error before them.
                if let passed = part.stage(number), part.resubscriptions(ofStage: number) > 0 {
                    while stagesPassed.count <= number { stagesPassed.append(StagePassed()) }
                    stagesPassed[number] = passed
                }
            case .copy:
                // The copy's parts (``MarbleSVG/copyParts(of:)``): lived as the frame began, lives
                // after its last part, subscribed and bound back where any part was.
                guard let shown = part.copy else { break }
                guard var merged = copy else {
                    copy = shown
                    break
                }
                merged.lived = merged.lived || shown.lived
                merged.lives = shown.lives
                merged.beganAt = shown.beganAt ?? merged.beganAt
                merged.endedAt = shown.endedAt ?? merged.endedAt
                merged.subject = shown.subject ?? merged.subject
                merged.ball = shown.ball ?? merged.ball
                merged.screen = shown.screen ?? merged.screen
                copy = merged
            // (Stage lanes are gathered by their place, ``StreamLane/stage(_:)``.)
            case .late, .inner, .part: break
            }
        }
    }
}

extension Marble {
    /// Whether this is a subscription's start (`^`).
    fileprivate var subscribes: Bool {
        if case .subscribed = self { true } else { false }
    }

    /// How the lane ended here (`!`, `|`, `#`), if it did.
    fileprivate var ending: LaneEnding? {
        switch self {
        case .subscribed(_, let ending): ending
        case .unsubscribed, .resubscribed: .unsubscribed
        case .ended: .completed
        case .failed: .failed
        default: nil
        }
    }

    /// The value drawn in it, if any: itself, or what it was handed or received before its mark.
    fileprivate var drawnValue: MarbleValue? {
        switch self {
        case .value(let value), .repeated(let value, _): value
        case .subscribed(let handed?, _), .ended(let handed?), .unsubscribed(let handed?), .failed(let handed?),
            .resubscribed(let handed?):
            handed.drawnValue
        default: nil
        }
    }
}

extension StreamLane {
    /// The number of an inner subscription's lane (``StreamLane/inner(_:)``); nil for the others.
    fileprivate var innerNumber: Int? {
        if case .inner(let number) = self { number } else { nil }
    }
}
