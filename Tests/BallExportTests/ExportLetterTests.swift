import BallExport
import BallModel
import BallProgram
import BallRendering
import BallReplay
import BallStreams
import BallTestSupport
import Foundation
import FoundationXML
import TerminalIO
import Testing

/// The exports' letters (`replay --marbles`, `--svg`): each value drawn with the letter the live
/// panel drew it with, the session's letter book as of the block's last intent, never a letter
/// given out afresh in each block; each block's values line names every letter drawn in it.
@Suite("A value's letter in the exports, as the live panel drew it")
struct ExportLetterTests {
    /// The terminal the sessions are played in: the live panel's page is then as wide as the text
    /// export's block at `--width 80`, and the block ending at a place is the page live drew there.
    static let screen = ScreenSize(columns: 80, rows: 40)

    /// `a=41,12 b=36,5 (63×22)` in a values line: each letter and the words it names.
    static func entries(_ line: Substring) -> [(letter: Unicode.Scalar, words: String)] {
        let entry = /([A-Za-z])=([0-9]+,[0-9]+(?: \([0-9]+×[0-9]+\))?|true|false)/
        return line.matches(of: entry).map { ($0.output.1.unicodeScalars.first!, String($0.output.2)) }
    }

    /// What the live panel's values line named after each intent, by place: played through the
    /// real loop with the panel open, and recorded.
    struct Played {
        /// The recording.
        var bytes: [UInt8]
        /// The live values line's entries at each place (the last frame before the next intent).
        var named: [Int: [Unicode.Scalar: String]] = [:]
        /// The last place recorded.
        var last = 0
    }

    /// Plays `steps` (each makes one intent) in ``screen`` with the panel open, noting
    /// what the values line names after each, then one more intent (the last place lasts until
    /// it) and a quit.
    static func play(_ steps: [(Pilot<Play>) -> Void]) throws -> Played {
        let recorded = try RecordedPlay(screen: screen)
        let driver = recorded.pilot
        driver.toggleStreams()
        var played = Played(bytes: [])
        func note() {
            guard let row = driver.lines.first(where: { $0.hasPrefix(" values") }) else { return }
            played.named[driver.streams.latestIndex] = Dictionary(
                entries(row.dropFirst(StreamPanel.labelWidth)).map { ($0.letter, $0.words) }
            ) { first, _ in first }
        }
        note()
        for step in steps {
            step(driver)
            note()
        }
        played.last = driver.streams.latestIndex
        driver.press(.left)
        driver.type("q")
        played.bytes = recorded.bytes()
        return played
    }

    /// The text export's blocks at `width`: each block's lines (its ruler first).
    static func textBlocks(_ bytes: [UInt8], width: Int) throws -> [[String]] {
        var lines: [String] = []
        try MarbleDiagram.run(reader: .inMemory(bytes), width: width) { lines.append($0) }
        return lines.split(separator: "", omittingEmptySubsequences: false).map(Array.init)
    }

    /// A text block's letters: those its lanes draw, and what its values line names each.
    static func letters(ofTextBlock block: [String]) -> (drawn: Set<Unicode.Scalar>, named: [Unicode.Scalar: String]) {
        let letters = Set(MarbleValue.letters)
        guard let values = block.firstIndex(where: { $0.hasPrefix(" values") }) else { return ([], [:]) }
        var drawn: Set<Unicode.Scalar> = []
        // The ruler and the lesson row hold no lanes.
        for line in block[1..<values] where !line.hasPrefix(" lesson") && !line.hasPrefix(" in the slot") {
            drawn.formUnion(line.unicodeScalars.dropFirst(StreamPanel.labelWidth).filter(letters.contains))
        }
        var named: [Unicode.Scalar: String] = [:]
        for line in block[values...] {
            for entry in entries(line.dropFirst(StreamPanel.labelWidth)) {
                #expect(named[entry.letter] == nil, "\(entry.letter) named twice in one block: \(block)")
                named[entry.letter] = entry.words
            }
        }
        return (drawn, named)
    }

    /// The attribute `name` of `element` (FoundationXML finds none by name in SVG's namespace).
    static func attribute(_ name: String, of element: XMLElement) -> String? {
        element.attributes?.first { $0.name == name }?.stringValue
    }

    /// Each of the SVG's blocks: the letter each position circle holds, with the value its title
    /// names (`41,12 on 80×24`), and what its values line names each letter.
    static func svgBlocks(_ bytes: [UInt8]) throws -> [(
        drawn: [(letter: Unicode.Scalar, words: String)], named: [Unicode.Scalar: String]
    )] {
        var svg: [UInt8] = []
        try MarbleSVG.run(reader: .inMemory(bytes)) { svg += $0 }
        let root = try #require(try XMLDocument(data: Data(svg)).rootElement())
        let blocks = try root.nodes(forXPath: "//*[local-name()='g'][@class='block']").compactMap { $0 as? XMLElement }
        let width = try #require(Self.attribute("width", of: root).flatMap(Int.init))
        return blocks.map { block in
            var drawn: [(letter: Unicode.Scalar, words: String)] = []
            let children = (block.children ?? []).compactMap { $0 as? XMLElement }
            let lanes = children.filter { $0.name == "g" && Self.attribute("class", of: $0) == "lane" }
            for lane in lanes {
                let shapes = (lane.children ?? []).compactMap { $0 as? XMLElement }
                for (offset, shape) in shapes.enumerated()
                where shape.name == "circle" && Self.attribute("class", of: shape) == "position"
                    && offset + 1 < shapes.count
                {
                    // `#12 41,12 on 80×24`: the value, as the values line names it (`41,12`, with
                    // the screen's size only where two values share a centre).
                    let title = (shape.stringValue ?? "").split(separator: " ")
                    guard title.count >= 2, title[1].contains(","),
                        let letter = shapes[offset + 1].stringValue?.unicodeScalars.first,
                        MarbleValue.letters.contains(letter)
                    else { continue }
                    drawn.append((letter, String(title[1])))
                }
            }
            // The values line, in as many lines of text as it takes, each within the picture (at
            // 7.2 px a character, DejaVu Sans Mono's at 12 px).
            let meanings = children.filter { $0.name == "text" && Self.attribute("class", of: $0) == "meaning" }
            for line in meanings {
                let end =
                    Double(Self.attribute("x", of: line).flatMap(Int.init) ?? .max)
                    + 7.2 * Double((line.stringValue ?? "").count)
                #expect(end <= Double(width), "a values line ends at \(end), the picture at \(width)")
            }
            var named: [Unicode.Scalar: String] = [:]
            for line in meanings {
                for entry in entries((line.stringValue ?? "")[...]) {
                    #expect(named[entry.letter] == nil, "\(entry.letter) named twice in one SVG block")
                    named[entry.letter] = entry.words
                }
            }
            return (drawn, named)
        }
    }

    /// Arrow moves, `count` of them, in turn `run` to the right and `run` to the left, after
    /// `first` to the right: few enough values that the book never goes round.
    static func backAndForth(first: Int, run: Int, count: Int) -> [(Pilot<Play>) -> Void] {
        (0..<count).map { step in
            let right = step < first || ((step - first) / run) % 2 == 1
            return { $0.press(right ? .right : .left) }
        }
    }

    @Test(
        "fewer values than the letters, more intents than a block: one letter names one value across the whole text export and SVG, each block's values line names each letter drawn, and it is the letter the live panel drew"
    )
    func oneLetterOneValue() throws {
        let played = try Self.play(Self.backAndForth(first: 7, run: 15, count: 130))
        let size = StreamPanel.pageSize(width: Self.screen.columns)
        let blocks = try Self.textBlocks(played.bytes, width: Self.screen.columns)
        #expect(blocks.count > 3, "\(blocks.count) blocks")
        var letterOf: [String: Unicode.Scalar] = [:]
        var valueOf: [Unicode.Scalar: String] = [:]
        func note(_ letter: Unicode.Scalar, _ words: String, _ context: String) {
            #expect(
                letterOf[words, default: letter] == letter, "\(words) is \(letterOf[words]!) and \(letter): \(context)")
            #expect(
                valueOf[letter, default: words] == words, "\(letter) is \(valueOf[letter]!) and \(words): \(context)")
            (letterOf[words], valueOf[letter]) = (letter, words)
        }
        for (number, block) in blocks.enumerated() {
            let (drawn, named) = Self.letters(ofTextBlock: block)
            #expect(drawn == Set(named.keys), "block \(number): drawn \(drawn), named \(named)")
            for (letter, words) in named { note(letter, words, "text block \(number)") }
            // The live panel at the block's last place drew the block's columns: the same letters.
            let place = min(played.last, (number + 1) * size - 1)
            let live = try #require(played.named[place], "live's values line at \(place)")
            for (letter, words) in live where named[letter] != nil {
                #expect(named[letter] == words, "\(letter): live \(words), export \(named[letter]!), block \(number)")
            }
        }
        let svg = try Self.svgBlocks(played.bytes)
        #expect(svg.count == 2, "\(svg.count) SVG blocks")
        for (number, block) in svg.enumerated() {
            #expect(!block.drawn.isEmpty)
            for (letter, words) in block.drawn {
                #expect(
                    block.named[letter] == words,
                    "SVG block \(number): \(letter) drawn for \(words), named \(block.named[letter] ?? "nothing")")
                note(letter, words, "SVG block \(number)")
            }
        }
    }

    @Test(
        "more values than the letters (the book goes round): each text block's letters are those the live panel drew for its columns, and its values line names them"
    )
    func pastFortyValues() throws {
        var generator = SeededGenerator()
        print("ExportLetterTests.pastFortyValues: \(generator)")
        var steps: [(Pilot<Play>) -> Void] = []
        // Each press a jump to a place no press went to before, so the first SVG block's forty
        // presses make forty values and the session's hundred go round the forty letters: the
        // presses take turns between the top rows (the centre held at row 5) and rows 12 to 15,
        // which the ball at the other place never covers (on 80×40 its disc reaches 5 rows up
        // and down, an arrow's step more), both above the panel; each turn's columns are drawn
        // without replacement from those the centre can take.
        let columns = (0..<2).map { _ in Array(10..<70).shuffled(using: &generator) }
        var presses = 0
        for step in 0..<150 {
            if step % 3 == 2 {
                let direction = Direction.allCases[generator.below(Direction.allCases.count)]
                steps.append { $0.press(direction) }
            } else {
                // (On the panel a press inspects a column.)
                let (turn, row) = (presses % 2, generator.below(4))
                let cell = Cell(column: columns[turn][presses / 2], row: turn == 0 ? row : 12 + row)
                presses += 1
                steps.append { $0.send(.pressed(at: cell)) }
                steps.append { $0.send(.released(at: cell)) }
            }
        }
        let played = try Self.play(steps)
        let size = StreamPanel.pageSize(width: Self.screen.columns)
        let blocks = try Self.textBlocks(played.bytes, width: Self.screen.columns)
        var compared = 0
        var valuesOf: [Unicode.Scalar: Set<String>] = [:]
        for (number, block) in blocks.enumerated() {
            let (drawn, named) = Self.letters(ofTextBlock: block)
            #expect(drawn == Set(named.keys), "block \(number): drawn \(drawn), named \(named)")
            for (letter, words) in named { valuesOf[letter, default: []].insert(words) }
            let place = min(played.last, (number + 1) * size - 1)
            let live = try #require(played.named[place], "live's values line at \(place)")
            for (letter, words) in live where named[letter] != nil {
                compared += 1
                #expect(
                    named[letter] == words,
                    "\(letter): live \(words), export \(named[letter]!), block \(number), \(generator)")
            }
            let liveLetters = Dictionary(live.map { ($1, $0) }) { first, _ in first }
            for (letter, words) in named {
                guard let own = liveLetters[words] else { continue }
                #expect(own == letter, "\(words): live \(own), export \(letter), block \(number), \(generator)")
            }
        }
        #expect(compared > 50, "\(compared) letters compared")
        // The SVG's blocks (a hundred intents, up to forty values): each letter drawn is named
        // with its value, on values lines within the picture.
        let svg = try Self.svgBlocks(played.bytes)
        // (The first block's hundred intents draw more values than a line of text holds.)
        #expect(Set(svg.first?.drawn.map(\.letter) ?? []).count > 25, "\(generator)")
        for (number, block) in svg.enumerated() {
            for (letter, words) in block.drawn {
                #expect(block.named[letter] == words, "SVG block \(number): \(letter) drawn for \(words), \(generator)")
            }
        }
        // The book went round: a letter named two values, in two blocks.
        #expect(valuesOf.values.contains { $0.count > 1 }, "\(generator)")
    }
}
