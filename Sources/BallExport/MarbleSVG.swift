import BallModel
import BallReplay
import BallStreams
import ColourCore
import TextFormats

// MARK: - The marble diagram as SVG

/// A replay's lanes as an SVG picture, for slides: one lane a row under a ruler of intent
/// indices, a line for as long as the lane's subscription lives, and each marble drawn as the
/// panel draws it, so the kinds differ as they do on screen: an intent its glyph (`▼ • ▲ ← ↑ →
/// ↓ ◙ ↔ q`, its description as a tooltip), a position `○` a white circle, a ball colour `●` a
/// circle filled with it, a screen colour `■` a square filled with it, a value `removeDuplicates()`
/// swallowed `·` a small grey dot, a completion `|` a bar. Below the main lanes, a row for each
/// kind of late subscriber the recording subscribed: `^` where it subscribed, what it was
/// handed (one position, or a group's count in its circle), what it received, `!` where it was
/// cancelled, `|` where its subject completed. A legend under it all names every mark.
///
/// It streams, as the other exports do: each row's shapes wait in a temporary file (the
/// picture's width is known only at the end), so memory stays flat however long the recording.
package enum MarbleSVG {
    /// Pixels: an intent's column, a lane's row, the labels' column, the margin, the ruler, a
    /// legend line.
    static let column = 14
    static let row = 32
    static let labels = 110
    static let margin = 10
    static let ruler = 22
    static let legendLine = 18

    /// Replays `reader` and writes the SVG through `write`.
    package static func run(reader: ReplayReader, write: ([UInt8]) throws -> Void) throws {
        let lanes = StreamLane.main
        let spools = try lanes.map { _ in try Spool() }
        let lateSpools = try LateSubscriber.allCases.map { _ in try Spool() }
        var lateUsed = Set<LateSubscriber>()
        let rulerSpool = try Spool()
        var next = 0
        var ends: [Int?] = lanes.map { _ in nil }
        var late = LateSubscriptions()
        // Each intent's tooltip, made once (a drag over the same cells repeats them).
        var tooltips: [Intent: [UInt8]] = [:]
        try ReplayColumns.forEach(in: reader) { item in
            guard case .column(let column) = item else {
                guard case .late(let kind, let event, let at) = item, let lane = late.note(kind, event, column: at)
                else { return }
                lateUsed.insert(kind)
                try lateSpools[LateSubscriber.allCases.firstIndex(of: kind)!].append(Array(lateShapes(lane).utf8))
                return
            }
            let x = centre(of: column.index)
            if column.index % 10 == 0 {
                try rulerSpool.append(
                    Array(#"<text x="\#(x)" y="\#(margin + 14)" class="ruler">\#(column.index)</text>"#.utf8))
            }
            for (slot, lane) in lanes.enumerated() {
                let emission = column.emission(lane)
                let completed = column.completed.contains(lane)
                if completed { ends[slot] = column.index }
                guard emission != nil || completed else { continue }
                let y = middle(of: slot)
                try spools[slot].append { bytes in
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
                    case .value?:
                        shape(Bytes.circleX, Bytes.position, end: Bytes.circleEnd) { bytes in
                            guard let position = column.position else { return }
                            bytes.appendDecimal(position.centre.column)
                            bytes.append(UInt8(ascii: ","))
                            bytes.appendDecimal(position.centre.row)
                            bytes += Bytes.on
                            bytes.appendDecimal(position.screen.columns)
                            bytes += Bytes.times
                            bytes.appendDecimal(position.screen.rows)
                        }
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
                        bytes +=
                            Array(
                                #"<line x1="\#(x + 7)" y1="\#(y - 8)" x2="\#(x + 7)" y2="\#(y + 8)" class="end"/>"#
                                    .utf8)
                    }
                }
            }
            next = column.index + 1
        }
        // The late subscriptions still subscribed at the end of the recording.
        for kind in LateSubscriber.allCases {
            guard let lane = late.live[kind] else { continue }
            lateUsed.insert(kind)
            try lateSpools[LateSubscriber.allCases.firstIndex(of: kind)!].append(
                Array(lateShapes(lane, lastColumn: next - 1).utf8))
        }
        let lateRows = LateSubscriber.allCases.filter { lateUsed.contains($0) }
        let count = max(1, next)
        let width = max(labels + count * column + 2 * margin, legendWidth)
        let legendTop = margin + ruler + (lanes.count + lateRows.count) * row + margin
        let height = legendTop + legend.count * legendLine + margin
        try write(
            Array(
                """
                <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" viewBox="0 0 \(width) \(height)" font-family="DejaVu Sans Mono, monospace" font-size="12">
                <style>.ruler{fill:#888;text-anchor:middle}.label{fill:#222}.lane{stroke:#222;stroke-width:1.5}\
                .intent{fill:#222;text-anchor:middle;font-size:13px;stroke:#fafafa;stroke-width:3px;paint-order:stroke}.position{fill:#fff;stroke:#333}.colour{stroke:#333}\
                .ghost{fill:#999}.end{stroke:#222;stroke-width:2.5}.mark{fill:#222;text-anchor:middle;font-weight:bold}\
                .count{fill:#222;text-anchor:middle;font-size:9px}.cancel{fill:#c0392b;text-anchor:middle;font-weight:bold}\
                .meaning{fill:#444}</style>
                <rect width="100%" height="100%" fill="#fafafa"/>

                """.utf8))
        try rulerSpool.copy(to: write)
        for (slot, lane) in lanes.enumerated() {
            let y = middle(of: slot)
            let last = ends[slot] ?? (count - 1)
            try write(
                Array(
                    """

                    <g id="lane-\(lane.label)"><text x="\(margin)" y="\(y + 4)" class="label">\(lane.label)</text>\
                    <line x1="\(centre(of: 0))" y1="\(y)" x2="\(centre(of: last) + (ends[slot] == nil ? column / 2 : 7))" y2="\(y)" class="lane"/>
                    """.utf8))
            try spools[slot].copy(to: write)
            try write(Array("</g>".utf8))
        }
        for (offset, kind) in lateRows.enumerated() {
            let label = StreamLane.late(kind).label
            let slot = LateSubscriber.allCases.firstIndex(of: kind)!
            try write(
                Array(
                    """

                    <g id="lane-\(label)" transform="translate(0,\((lanes.count + offset) * row))"><text x="\(margin)" y="\(middle(of: 0) + 4)" class="label">\(label)</text>
                    """.utf8))
            try lateSpools[slot].copy(to: write)
            try write(Array("</g>".utf8))
        }
        try write(Array("\n<g id=\"legend\">\(legendShapes(top: legendTop))</g>\n</svg>\n".utf8))
    }

    /// A late subscription's row (drawn at the first row's height; its group moves it down):
    /// its line from where it subscribed to where it ended (or the recording's last column,
    /// `lastColumn`, when it did not), `^`, what it was handed, each value it received, and `!`
    /// or `|`.
    static func lateShapes(_ lane: LateLane, lastColumn: Int? = nil) -> String {
        let y = middle(of: 0)
        let start = centre(of: lane.start)
        let endColumn = lane.end?.column ?? lastColumn ?? lane.start
        var shapes =
            #"<line x1="\#(start - 4)" y1="\#(y)" x2="\#(centre(of: endColumn) + 7)" y2="\#(y)" class="lane"/>"#
        shapes +=
            #"<text x="\#(start - 9)" y="\#(y + 8)" class="mark">^<title>#\#(lane.start) subscribed</title></text>"#
        let handed = lane.handedPositions.map { "\($0.centre)" }.joined(separator: " · ")
        if lane.handed == 1 {
            shapes +=
                #"<circle cx="\#(start)" cy="\#(y)" r="5" class="position"><title>#\#(lane.start) handed \#(handed)</title></circle>"#
        } else if lane.handed > 1 {
            shapes +=
                #"<circle cx="\#(start)" cy="\#(y)" r="6" class="position"><title>#\#(lane.start) handed \#(handed) at once</title></circle><text x="\#(start)" y="\#(y + 3)" class="count">\#(lane.handed)</text>"#
        }
        for received in lane.received.sorted() {
            shapes +=
                #"<circle cx="\#(centre(of: received))" cy="\#(y)" r="5" class="position"><title>#\#(received)</title></circle>"#
        }
        if let end = lane.end {
            let x = centre(of: end.column) + 7
            switch end.ending {
            case .completed:
                shapes += #"<line x1="\#(x)" y1="\#(y - 8)" x2="\#(x)" y2="\#(y + 8)" class="end"/>"#
            case .unsubscribed:
                shapes +=
                    #"<text x="\#(x)" y="\#(y + 5)" class="cancel">!<title>#\#(end.column) unsubscribed</title></text>"#
            }
        }
        return shapes
    }

    /// The legend's entries: the marks a picture can hold, each with its meaning (the panel's
    /// legend, ``MarbleLegend``, without what a replay never draws: a skip, an error).
    package static var legend: [(symbol: String, meaning: String)] {
        MarbleLegend.entries.filter { !$0.symbol.contains("#") && !$0.symbol.unicodeScalars.contains(Glyph.skipped) }
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
                case Glyph.subscribed: shapes += #"<text x="\#(x)" y="\#(y + 8)" class="mark">^</text>"#
                case let digit where ("2"..."9").contains(digit):
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
        static let swallowed = Array("swallowed by removeDuplicates".utf8)
        static let circleEnd = Array("</title></circle>".utf8)
        static let squareEnd = Array("</title></rect>".utf8)
        static let on = Array(" on ".utf8)
        static let times = Array("×".utf8)
    }

    /// The x of intent `index`'s column centre.
    static func centre(of index: Int) -> Int { margin + labels + index * column + column / 2 }

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
