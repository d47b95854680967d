import BallExport
import BallModel
import BallRendering
import Foundation
import FoundationXML
import Testing

/// `replay --marbles --svg`: the names of the pipe's parts. A stage's lane that draws the stages
/// of several pipes in a block names each part as the text export (and the live panel) label the
/// lane where only that pipe is drawn; the operators named over the slot's lanes are whole.
@Suite("The pipe's names in the SVG")
struct PipeNameSVGTests {
    /// `.map.scan` (the counter) and eight moves, then `.flatMapLatest.filter.map` and three
    /// drags, six moves and the quit: 31 intents, one SVG block.
    static let twoPipes: [UInt8] = {
        var lines = [
            #"{"format":"colourful-ball-replay","version":6,"terminal":{"columns":80,"rows":24},"colourRules":1}"#
        ]
        func event(_ body: String) { lines.append(#"{"t":\#(Double(lines.count) / 10),\#(body)}"#) }
        event(#""event":"operator","name":"map""#)
        event(#""event":"stage","name":"scan""#)
        for _ in 0..<8 { event(#""event":"arrow","direction":"right","distance":1"#) }
        event(#""event":"operator","name":"flatMapLatest""#)
        event(#""event":"stage","name":"filter""#)
        event(#""event":"stage","name":"map""#)
        for drag in 0..<3 {
            let column = 44 + 2 * drag
            event(#""event":"pressed","cell":[\#(column),11]"#)
            event(#""event":"dragged","cell":[\#(column + 2),11]"#)
            event(#""event":"released","cell":[\#(column + 2),11]"#)
        }
        for _ in 0..<6 { event(#""event":"arrow","direction":"left","distance":1"#) }
        event(#""event":"quit""#)
        return Array(lines.map { $0 + "\n" }.joined().utf8)
    }()

    /// debounce, eight moves 60 ms apart, a second's wait, throttle, as many moves back, a
    /// second's wait and the quit.
    static let quickChoices: [UInt8] = {
        var lines = [
            #"{"format":"colourful-ball-replay","version":6,"terminal":{"columns":80,"rows":24},"colourRules":1}"#
        ]
        var time = 0.1
        func event(_ body: String, after wait: Double = 0.06) {
            time += wait
            lines.append(#"{"t":\#(String(format: "%.2f", time)),\#(body)}"#)
        }
        event(#""event":"operator","name":"debounce""#, after: 0)
        for _ in 0..<8 { event(#""event":"arrow","direction":"right","distance":1"#) }
        event(#""event":"operator","name":"throttle""#, after: 1)
        for _ in 0..<8 { event(#""event":"arrow","direction":"left","distance":1"#) }
        event(#""event":"quit""#, after: 1)
        return Array(lines.map { $0 + "\n" }.joined().utf8)
    }()

    /// The SVG of `bytes` on `framing`'s axis.
    static func svg(_ bytes: [UInt8], framing: MarbleFraming = .perIntent) throws -> XMLElement {
        var svg: [UInt8] = []
        try MarbleSVG.run(reader: .inMemory(bytes), framing: framing) { svg += $0 }
        return try #require(try XMLDocument(data: Data(svg)).rootElement())
    }

    /// The texts in `root` with the attribute `name`, in the picture's order.
    static func texts(with name: String, in root: XMLElement) throws -> [XMLElement] {
        try root.nodes(forXPath: "//*[local-name()='text'][@\(name)]").compactMap { $0 as? XMLElement }
    }

    /// An element's attribute by name (the document's default namespace is SVG's).
    static func attribute(_ name: String, of element: XMLElement) -> String? {
        element.attributes?.first { $0.name == name }?.stringValue
    }

    @Test(
        "a stage's lane drawing two pipes' stages in one block: each part named as the text export labels the lane in a block of that pipe alone, the code in full in its title"
    )
    func stagePartsNamed() throws {
        let root = try Self.svg(Self.twoPipes)
        // The text export 40 wide: blocks of 12 columns, each drawing one pipe's stages, each
        // stage's lane labelled with its code (the last's on `slotted` where it is the only one).
        var text: [String] = []
        try MarbleDiagram.run(reader: .inMemory(Self.twoPipes), width: 40) { text.append($0) }
        let textLabels = Set(
            text.map { String($0.prefix(StreamPanel.labelWidth)).trimmingCharacters(in: .whitespaces) })
        let expected = [
            "stage1": [".map {_ in 1}", "grabbed.flatM…"], "stage2": [".scan(0) { … }", ".filter { … }"],
        ]
        for (lane, names) in expected {
            let group = try #require(
                try root.nodes(forXPath: "//*[local-name()='g'][@data-lane='\(lane)']").first as? XMLElement)
            let parts = try group.nodes(forXPath: "*[local-name()='text'][@data-stage]").compactMap {
                $0 as? XMLElement
            }
            let shown = parts.map { $0.children?.first?.stringValue ?? "" }
            #expect(shown == names, "\(lane): \(shown)")
            // As the text export labels the lane where only that pipe is drawn (scan, the last of
            // map.scan, is on `slotted` there).
            for name in names where name != ".scan(0) { … }" {
                #expect(textLabels.contains(name), "\(name): \(text.joined(separator: "\n"))")
            }
            // Each part's full code in its attribute and its title.
            for part in parts {
                let code = Self.attribute("data-stage", of: part) ?? ""
                let title = part.children?.compactMap { $0 as? XMLElement }.first { $0.name == "title" }
                #expect(code.hasPrefix(".") || code.hasPrefix("grabbed"), "\(code)")
                #expect(title?.stringValue?.contains(code) == true, "\(String(describing: title))")
            }
        }
    }

    @Test(
        "operators chosen one column (or one frame) after another: each named over the slot's lanes in full, no two names on one line overlapping, per intent and on a time axis"
    )
    func segmentNamesWhole() throws {
        for framing in [MarbleFraming.perIntent, .time(microseconds: 50_000)] {
            let root = try Self.svg(Self.quickChoices, framing: framing)
            let names = try Self.texts(with: "data-segment", in: root)
            let said = names.map { $0.children?.first?.stringValue ?? "" }
            #expect(said == ["none", ".debounce", ".throttle"], "\(framing): \(said)")
            for name in names {
                #expect(name.children?.first?.stringValue == Self.attribute("data-segment", of: name), "\(framing)")
            }
            // 6 px a character at 10 px: the names on one line end before the next begins.
            var lines: [Int: [(x: Int, end: Int)]] = [:]
            for (name, text) in zip(names, said) {
                let x = Int(Self.attribute("x", of: name) ?? "") ?? 0
                lines[Int(Self.attribute("y", of: name) ?? "") ?? 0, default: []].append((x, x + text.count * 6))
            }
            for (y, spans) in lines {
                for (one, next) in zip(spans, spans.dropFirst()) {
                    #expect(one.end < next.x, "\(framing): names overlap on the line at \(y): \(spans)")
                }
            }
        }
    }

    @Test(
        "flatMap chosen again with the button down, then a press: the name of the part does not cover the ×2 counts over the slot's lane, which start three columns after it"
    )
    func namesClearOfCounts() throws {
        var lines = [
            #"{"format":"colourful-ball-replay","version":6,"terminal":{"columns":80,"rows":24},"colourRules":1}"#
        ]
        func event(_ body: String) { lines.append(#"{"t":\#(Double(lines.count) / 10),\#(body)}"#) }
        event(#""event":"operator","name":"flatMap""#)
        event(#""event":"pressed","cell":[40,11]"#)
        event(#""event":"dragged","cell":[42,11]"#)
        // A new inner for the button down; the release keeps it, the press makes another: ×2.
        event(#""event":"operator","name":"flatMap""#)
        event(#""event":"released","cell":[42,11]"#)
        event(#""event":"pressed","cell":[42,11]"#)
        for column in stride(from: 44, to: 52, by: 2) { event(#""event":"dragged","cell":[\#(column),11]"#) }
        event(#""event":"quit""#)
        let root = try Self.svg(Array(lines.map { $0 + "\n" }.joined().utf8))
        let lane = try #require(
            try root.nodes(forXPath: "//*[local-name()='g'][@data-lane='slotted']").first as? XMLElement)
        let texts = try lane.nodes(forXPath: "*[local-name()='text']").compactMap { $0 as? XMLElement }
        let counts = texts.filter { ($0.stringValue ?? "").hasPrefix("×") }.compactMap {
            Int(Self.attribute("x", of: $0) ?? "")
        }
        #expect(counts.count == 4, "\(texts.map { $0.stringValue ?? "" })")
        let countY = texts.first { ($0.stringValue ?? "").hasPrefix("×") }.flatMap { Self.attribute("y", of: $0) }
        let names = try Self.texts(with: "data-segment", in: lane)
        #expect(names.count == 3, "\(names)")
        for name in names {
            let x = Int(Self.attribute("x", of: name) ?? "") ?? 0
            let end = x + (name.children?.first?.stringValue ?? "").count * 6
            // On the line nearest the lane (two pixels under the counts' baseline), none covers one.
            guard let y = Int(Self.attribute("y", of: name) ?? ""), let countY = countY.flatMap(Int.init),
                y == countY + 2
            else { continue }
            #expect(counts.allSatisfy { $0 + 6 < x || $0 - 6 > end }, "\(name) over the counts at \(counts)")
        }
    }
}
