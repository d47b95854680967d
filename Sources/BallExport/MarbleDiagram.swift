import BallModel
import BallRendering
import BallReplay
import BallStreams
import ColourCore
import TerminalIO
import TextFormats

// MARK: - The marble diagram of a replay

/// A replay's streams as text, the panel's lanes for the whole recording: one column (two
/// characters) per intent, in blocks of `width` characters, each headed by a ruler of intent
/// indices; lines `─`, ghosts `·`, the start `^`, the completion `|` (``MarbleLegend``); below
/// the main lanes, the late subscriptions the recording made, each kind's in its own row
/// (`^○`, `^3`, `!`, …); above a recorded tour's block, a row naming each lesson where it began
/// (``lessonsLine(before:starts:firstColumn:width:)``). A value that is not a mark of its own is
/// drawn with the letter the session's letter book gave it as of the block's last intent (as the
/// live panel drew it then, and the player draws it), and the values line under each block names
/// every letter drawn in it. With `sequences` the marbles are painted
/// in their colours (lines, ghosts and the ruler dim); without, plain text.
///
/// It streams: each block is written as soon as its columns are complete, and only about one
/// block's columns are kept, so memory stays flat for any length of recording.
package enum MarbleDiagram {
    /// The narrowest width: the labels, one column and the cell after it.
    package static let minimumWidth = StreamPanel.labelWidth + 3

    /// Replays `reader` and calls `emit` with each line of the diagram (no newline).
    package static func run(
        reader: ReplayReader, width: Int, sequences: TerminalSequences? = nil, emit: (String) -> Void
    ) throws {
        let width = max(minimumWidth, width)
        let perBlock = StreamPanel.pageSize(width: width)
        var block: [StreamColumn] = []
        // The columns the block draws: each intent's, and one for each late subscription or
        // cancel made after it (``StreamColumn/withMoments(_:)``), as the live panel draws them.
        var drawnCount = 0
        // The session's letter book after the block's last column: each value's letter there.
        var book = ValueLetterBook()
        var late = LateLanesByBlock()
        // A recorded tour's lessons: the one begun before the block, and those begun in it.
        var lessonBefore: LessonStart?
        var lessons: [LessonStart] = []
        var first = true
        var slotUsed = false
        func writeBlock() {
            if !first { emit("") }
            first = false
            let drawnColumns = StreamColumn.withMoments(block)
            if let start = block.first?.index, lessonBefore != nil || !lessons.isEmpty {
                let inBlock = lessons.filter { $0.column >= start }
                let before = lessons.last { $0.column < start } ?? lessonBefore
                // A lesson is marked in the last column it began after: its intent's, or the last
                // of the moments made before it there (the cancels of the lesson before, as the
                // tour made them as it left it; not the subscriptions made in the lesson).
                var own: [Int: Int] = [:]
                for (offset, column) in drawnColumns.enumerated() where column.moment == nil {
                    own[column.index] = offset
                }
                func drawn(_ start: LessonStart) -> Int {
                    let column = block.first { $0.index == start.column }
                    let before = column?.lateMoments.filter { ($0.time ?? .start) <= start.time }.count ?? 0
                    return (own[start.column] ?? 0) + before
                }
                emit(
                    text(
                        lessonsLine(before: before, starts: inBlock, width: width, drawn: drawn),
                        sequences: sequences))
                lessonBefore = lessons.last ?? lessonBefore
                lessons.removeAll()
            }
            var panel = StreamPanel(columns: drawnColumns)
            // Each value with the letter the live panel drew it with after the block's last
            // intent (one the block draws with another value's letter takes a free one).
            panel.homeLetters = book.letters
            // The slot's lane from the block where an operator first goes in, as the panel
            // draws it once the session has used the slot.
            slotUsed = slotUsed || block.contains(where: \.involvesSlot)
            panel.showsSlot = slotUsed
            panel.inputsOfEveryOperator = true
            let last = block.last?.index ?? -1
            let lateLanes = late.lanes(through: last)
            // (The values line names the groups they draw too: `³=(cde) at once`.)
            panel.lateLanes = lateLanes
            for line in panel.blockLines(lateLanes, width: width) { emit(text(line, sequences: sequences)) }
            late.written(through: last)
            block.removeAll(keepingCapacity: true)
            drawnCount = 0
        }
        do {
            try ReplayColumns.forEach(in: reader) { item in
                switch item {
                case .column(let column, let after):
                    let needs = 1 + column.lateMoments.count
                    if !block.isEmpty, drawnCount + needs > perBlock { writeBlock() }
                    block.append(column)
                    drawnCount += needs
                    book = after
                case .late(let kind, let event, let column, _, let moment):
                    late.note(kind, event, column: column, moment: moment)
                case .lesson(let start): lessons.append(start)
                }
            }
        } catch {
            // A bad line later in the file: the columns before it are written all the same.
            if !block.isEmpty { writeBlock() }
            throw error
        }
        // The last block (a recording that did not quit ends without `|`: its streams never
        // completed).
        if !block.isEmpty || first { writeBlock() }
    }

    /// The label of the row above a recorded tour's block, which names the lessons in it.
    static let lessonsLabel = "lesson"

    /// The row above a block of a recorded tour (``lessonsLabel``): the lesson begun before the
    /// block (`before`) named from its first column, then at each of `starts`, `├` in the column
    /// after which it began (the block's drawn column `drawn(start)`) and its name (`Lesson 4 ·
    /// Publish`), shorter where the next begins first (`Lesson 4`, `4`).
    static func lessonsLine(
        before: LessonStart?, starts: [LessonStart], width: Int, drawn: (LessonStart) -> Int
    ) -> [LaneCell] {
        let labelWidth = StreamPanel.labelWidth
        let columnWidth = StreamPanel.columnWidth(time: false)
        var cells = LaneCell.text(" " + Self.lessonsLabel, width: width)
        func cell(of start: LessonStart) -> Int { labelWidth + columnWidth * drawn(start) }
        // The lesson that began before the block: named where there is room for more than `…`.
        let room = min(width, starts.first.map(cell(of:)) ?? width) - labelWidth
        if let before, room > 2 {
            for (offset, drawn) in LaneCell.text(before.label(width: room - 1), width: room - 1).enumerated() {
                cells[labelWidth + offset] = drawn
            }
        }
        // Several begun after one intent: the last, which the intents after it were made in.
        var shown: [LessonStart] = []
        for start in starts {
            if shown.last?.column == start.column { shown.removeLast() }
            shown.append(start)
        }
        for (number, start) in shown.enumerated() {
            let at = cell(of: start)
            guard at < width else { break }
            let end = min(width, number + 1 < shown.count ? cell(of: shown[number + 1]) : width)
            cells[at] = LaneCell(glyph: Glyph.segment)
            for (offset, drawn) in LaneCell.text(start.label(width: end - at - 1), width: end - at - 1).enumerated() {
                cells[at + 1 + offset] = drawn
            }
        }
        return cells
    }

    /// One line as text, painted with `sequences` when given.
    static func text(_ line: [LaneCell], sequences: TerminalSequences?) -> String {
        let end = (line.lastIndex { $0.glyph != " " } ?? -1) + 1
        var bytes: [UInt8] = []
        bytes.reserveCapacity(end * (sequences == nil ? 3 : 15))
        guard let sequences else {
            for cell in line[..<end] { bytes.appendUTF8(cell.glyph) }
            return String(decoding: bytes, as: UTF8.self)
        }
        let reset = sequences.resetAttributes
        let dim = sequences.foregrounds[Int(FlatColour.flatGray.rawValue)]
        for cell in line[..<end] {
            let colour = cell.colour.map { sequences.foregrounds[Int($0.rawValue)] } ?? (cell.dim ? dim : nil)
            if let colour { bytes += colour }
            bytes.appendUTF8(cell.glyph)
            if colour != nil { bytes += reset }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
