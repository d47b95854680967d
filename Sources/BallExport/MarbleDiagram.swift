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
/// indices; lines `─`, ghosts `·`, the start `^`, the completion `|` (``MarbleLegend``). With `sequences` the marbles are
/// painted in their colours (lines, ghosts and the ruler dim); without, plain text.
///
/// It streams: each block is written as soon as its columns are complete, and only about one
/// block's columns are kept, so memory stays flat for any length of recording.
package enum MarbleDiagram {
    /// The narrowest width: the labels and one column.
    package static let minimumWidth = StreamPanel.labelWidth + 2

    /// Replays `reader` and calls `emit` with each line of the diagram (no newline).
    package static func run(
        reader: ReplayReader, width: Int, sequences: TerminalSequences? = nil, emit: (String) -> Void
    ) throws {
        let width = max(minimumWidth, width)
        let perBlock = StreamPanel.pageSize(width: width)
        let player = try ReplayPlayer(reader: reader)
        let recorder = StreamRecorder(session: player.session, capacity: perBlock + 1)
        var blockStart = 0
        var first = true
        func writeBlock(_ columns: [StreamColumn]) {
            if !first { emit("") }
            first = false
            for line in StreamPanel(columns: columns).mainLines(width: width) {
                emit(text(line, sequences: sequences))
            }
        }
        do {
            while let event = try player.nextEvent() {
                player.apply(event)
                if recorder.latestIndex == blockStart + perBlock - 1 {
                    writeBlock(recorder.columns(from: blockStart))
                    blockStart += perBlock
                }
            }
        } catch {
            // A bad line later in the file: the columns before it are written all the same.
            let rest = recorder.columns(from: blockStart)
            if !rest.isEmpty { writeBlock(rest) }
            throw error
        }
        // The last block (a recording that did not quit ends without `|`: its streams never
        // completed).
        let rest = recorder.columns(from: blockStart)
        if !rest.isEmpty || first { writeBlock(rest) }
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
