import BallModel
import BallReplay
import BallStreams
import ColourCore
import TextFormats

// MARK: - The marble diagram as SVG

/// A replay's four main lanes as an SVG picture, for slides: one lane a row under a ruler of
/// intent indices, a line for as long as the lane's subscription lives, one circle for each
/// value the lane emitted (a colour's circle filled with it, a position's white, an intent's
/// grey with its description as a tooltip), a small grey square where `removeDuplicates()`
/// swallowed a value, and a bar where the lane completed.
///
/// It streams, as the other exports do: each lane's shapes wait in a temporary file (the
/// picture's width is known only at the end), so memory stays flat however long the recording.
package enum MarbleSVG {
    /// Pixels: an intent's column, a lane's row, the labels' column, the margin, the ruler.
    static let column = 14
    static let row = 32
    static let labels = 110
    static let margin = 10
    static let ruler = 22

    /// Replays `reader` and writes the SVG through `write`.
    package static func run(reader: ReplayReader, write: ([UInt8]) throws -> Void) throws {
        let lanes = StreamLane.main
        let spools = try lanes.map { _ in try Spool() }
        let rulerSpool = try Spool()
        var next = 0
        var ends: [Int?] = lanes.map { _ in nil }
        // Each intent's tooltip, made once (a drag over the same cells repeats them).
        var tooltips: [Intent: [UInt8]] = [:]
        try ReplayColumns.forEach(in: reader) { column in
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
                    func circle(_ attributes: [UInt8], title: (inout [UInt8]) -> Void) {
                        bytes += Bytes.circleX
                        bytes.appendDecimal(x)
                        bytes += Bytes.cy
                        bytes.appendDecimal(y)
                        bytes += attributes
                        bytes.appendDecimal(column.index)
                        bytes.append(UInt8(ascii: " "))
                        title(&bytes)
                        bytes += Bytes.circleEnd
                    }
                    switch emission {
                    case .intent(let intent)?:
                        circle(Bytes.intent) { bytes in
                            if let tooltip = tooltips[intent] { return bytes += tooltip }
                            let tooltip = Array(Marble.describe(intent).xmlEscaped.utf8)
                            if tooltips.count < 65_536 { tooltips[intent] = tooltip }
                            bytes += tooltip
                        }
                    case .value?:
                        circle(Bytes.position) { bytes in
                            guard let position = column.position else { return }
                            bytes.appendDecimal(position.centre.column)
                            bytes.append(UInt8(ascii: ","))
                            bytes.appendDecimal(position.centre.row)
                            bytes += Bytes.on
                            bytes.appendDecimal(position.screen.columns)
                            bytes += Bytes.times
                            bytes.appendDecimal(position.screen.rows)
                        }
                    case .colour(let colour, _)?:
                        circle(Bytes.colour[Int(colour.rawValue)]) { $0 += Bytes.names[Int(colour.rawValue)] }
                    case .ghost?:
                        bytes += Bytes.rectX
                        bytes.appendDecimal(x - 2)
                        bytes += Bytes.rectY
                        bytes.appendDecimal(y - 2)
                        bytes += Bytes.rectEnd
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
        let count = max(1, next)
        let width = labels + count * column + 2 * margin
        let height = ruler + lanes.count * row + 2 * margin
        try write(
            Array(
                """
                <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" viewBox="0 0 \(width) \(height)" font-family="DejaVu Sans Mono, monospace" font-size="12">
                <style>.ruler{fill:#888;text-anchor:middle}.label{fill:#222}.lane{stroke:#222;stroke-width:1.5}\
                .intent{fill:#ddd;stroke:#333}.position{fill:#fff;stroke:#333}.colour{stroke:#333}\
                .ghost{fill:#999}.end{stroke:#222;stroke-width:2.5}</style>
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
        try write(Array("\n</svg>\n".utf8))
    }

    /// The shapes' fixed parts, made once.
    enum Bytes {
        static let circleX = Array(#"<circle cx=""#.utf8)
        static let cy = Array(#"" cy=""#.utf8)
        static let intent = Array(#"" r="5" class="intent"><title>#"#.utf8)
        static let position = Array(#"" r="5" class="position"><title>#"#.utf8)
        static let colour = FlatColour.allCases.map {
            Array(#"" r="5" fill="\#($0.hex)" class="colour"><title>#"#.utf8)
        }
        static let names = FlatColour.allCases.map { Array($0.name.utf8) }
        static let circleEnd = Array("</title></circle>".utf8)
        static let on = Array(" on ".utf8)
        static let times = Array("×".utf8)
        static let rectX = Array(#"<rect x=""#.utf8)
        static let rectY = Array(#"" y=""#.utf8)
        static let rectEnd = Array(#"" width="4" height="4" class="ghost"/>"#.utf8)
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
