import BallExport
import BallModel
import BallReplay
import BallStreams
import BallTestSupport
import Foundation
import FoundationXML
import Testing

/// `replay --marbles --svg`: the diagram as a picture, checked to be SVG with one mark per value
/// each lane emitted, of the kind the panel draws it as, and the late subscriptions' rows.
@Suite("The marble diagram as SVG")
struct MarbleSVGTests {
    @Test(
        "random recordings with late subscribers: well-formed SVG, each emission its kind's mark (glyph, ○, ●, ■, ·), each late subscription ^, its values and ! or |"
    )
    func marksPerEmission() throws {
        var generator = SeededGenerator()
        for _ in 0..<10 {
            var lines = String(
                decoding: RandomRecording.bytes(
                    count: 1 + generator.below(300), observations: true, operators: true, using: &generator),
                as: UTF8.self
            ).split(separator: "\n").map(String.init)
            if Bool.random(using: &generator) { lines.removeLast() }
            let bytes = Array(lines.map { $0 + "\n" }.joined().utf8)
            var svg: [UInt8] = []
            try MarbleSVG.run(reader: .inMemory(bytes)) { svg += $0 }
            let document = try XMLDocument(data: Data(svg))
            let root = try #require(document.rootElement())
            #expect(root.name == "svg" && root.uri == "http://www.w3.org/2000/svg")
            // The lanes as the panel records them, the late subscribers made where they were.
            let player = try ReplayPlayer(reader: .inMemory(bytes))
            let recorder = StreamRecorder(session: player.session, capacity: 100_000)
            var lanes: [LateLane] = []
            let ends = recorder.lateEvents.sink { kind, event in
                if case .disposed = event, let lane = recorder.lateLane(kind) { lanes.append(lane) }
            }
            player.observed = { recorder.apply($0.observation) }
            // Where a pipe's last stage completed before the session's end (a recovery's
            // fallback, then the end), from the chain's own taps: that stage's own lane ends there.
            var pipeEnds = 0
            var quitting = false
            let session = player.session
            let stageEnds = session.viewModel.stageEvents.enumerated().map { number, events in
                events.sink { ending in
                    if ending == .completed, !quitting, number == session.state.slot.stages.count - 1 {
                        pipeEnds += 1
                    }
                }
            }
            while let event = try player.nextEvent() {
                quitting = event.intent.endsSession
                player.apply(event)
            }
            stageEnds.forEach { $0.cancel() }
            lanes += recorder.lateLanes.filter(\.isLive)
            ends.cancel()
            let columns = recorder.columns
            // A lane's shapes, gathered from every block it is drawn in.
            func elements(_ lane: String) throws -> [XMLElement] {
                let groups = try root.nodes(forXPath: "//*[local-name()='g'][@data-lane='\(lane)']")
                return groups.flatMap { ($0.children ?? []).compactMap { $0 as? XMLElement } }
            }
            // Blocks of a hundred intents, one under the other, so every reader draws it.
            let blocks = try root.nodes(forXPath: "//*[local-name()='g'][@class='block']")
            #expect(blocks.count == (columns.count + MarbleSVG.perBlock - 1) / MarbleSVG.perBlock, "\(generator)")
            #expect((Int(attribute("width", of: root) ?? "") ?? .max) < 2_000)
            func count(_ marble: (Marble?) -> Bool, _ lane: StreamLane) -> Int {
                columns.filter { marble($0.emission(lane)) }.count
            }
            let intents = try elements("intents").filter { attribute("class", of: $0) == "intent" }
            #expect(intents.count == count({ if case .intent? = $0 { true } else { false } }, .intents))
            #expect(
                intents.map { $0.stringValue?.unicodeScalars.first }
                    == columns.compactMap { $0.intent.map { Marble.glyph(of: $0) } }, "each intent its glyph")
            let positions = try elements("position").filter { $0.name == "circle" }
            #expect(
                positions.count == count({ if case .value(.position)? = $0 { true } else { false } }, .position),
                "\(generator)")
            // The slot's lane, from the block where an operator first goes in: a circle each
            // position it passed on, titled with it.
            var slotted: [String] = []
            var slotUsed = false
            for start in stride(from: 0, to: columns.count, by: MarbleSVG.perBlock) {
                let block = columns[start..<min(columns.count, start + MarbleSVG.perBlock)]
                slotUsed = slotUsed || block.contains { $0.involvesSlot }
                guard slotUsed else { continue }
                for output in block.compactMap({ $0.slotted }) {
                    switch output {
                    case .position(let position): slotted.append("\(position.centre.column),\(position.centre.row)")
                    case .count(let count): slotted.append(String(count))
                    }
                }
            }
            let slottedCircles = try elements("slotted").filter { $0.name == "circle" }
            let titled: [String] = slottedCircles.map { circle in
                let words = (circle.stringValue ?? "").split(separator: " ")
                return words.count > 1 ? String(words[1]) : ""
            }
            #expect(titled == slotted, "\(generator)")
            let balls = try elements("ballColour").filter { attribute("class", of: $0) == "colour" }
            #expect(
                balls.map { attribute("fill", of: $0) } == columns.compactMap { $0.ballColour?.hex }, "\(generator)")
            let ghosts = try elements("ballColour").filter { attribute("class", of: $0) == "ghost" }
            #expect(ghosts.count == count({ $0 == .ghost }, .ballColour))
            let squares = try elements("background").filter { $0.name == "rect" }
            #expect(
                squares.map { attribute("fill", of: $0) } == columns.compactMap { $0.background?.hex }, "\(generator)")
            // A quit completes every lane, but for the slot's and the colours after it while a
            // stage holds the completion back (throttle holding a position keeps it for its
            // window's end, which a recording's time never reaches; sample after it, for good):
            // as the chain's slotted ended.
            // An error (tryMap in a corner) ends the slot's lane and the colours' with a `#` instead.
            let holding: Bool
            if case .finished? = player.session.viewModel.slotted.completion { holding = false } else { holding = true }
            let failed = player.session.state.failure != nil
            for lane in StreamLane.main(slot: slotUsed) {
                let bars = try elements(lane.label).filter { attribute("class", of: $0) == "end" }
                let errors = try elements(lane.label).filter { attribute("class", of: $0) == "error" }
                let afterSlot = lane != .intents && lane != .position
                let completes = recorder.ended && (!afterSlot || (!holding && !failed))
                // (slotted, switchToLatest's output, included: a pipe's own end is its last
                // stage's, on that stage's lane.)
                #expect(bars.count == (completes ? 1 : 0), "\(lane.label): a bar only where it completed, \(generator)")
                #expect(errors.count == (afterSlot && failed ? 1 : 0), "\(lane.label): # where it failed, \(generator)")
            }
            let stageBars = try (1...SlotPipe.most).map { number in
                try elements("stage\(number)").filter { attribute("class", of: $0) == "end" }.count
            }
            #expect(stageBars.reduce(0, +) >= pipeEnds, "each pipe's own end on its last stage's lane, \(generator)")
            // Each kind's row: a ^ a subscription, a circle a value it received or was handed
            // (a group one circle with its count), a ! a cancel, a bar a completion.
            for kind in LateSubscriber.allCases {
                let ofKind = lanes.filter { $0.kind == kind }
                let label = StreamLane.late(kind).label
                guard !ofKind.isEmpty else {
                    #expect(try elements(label).isEmpty)
                    continue
                }
                let shapes = try elements(label)
                let marks = shapes.filter { attribute("class", of: $0) == "mark" }
                #expect(marks.count == ofKind.count, "\(label): \(generator)")
                let values = shapes.filter { $0.name == "circle" }
                #expect(values.count == ofKind.map { $0.received.count + ($0.handed > 0 ? 1 : 0) }.reduce(0, +))
                let cancels = shapes.filter { attribute("class", of: $0) == "cancel" }
                #expect(cancels.count == ofKind.filter { $0.end?.ending == .unsubscribed }.count)
                let bars = shapes.filter { attribute("class", of: $0) == "end" }
                #expect(bars.count == ofKind.filter { $0.end?.ending == .completed }.count)
            }
            // The legend names every mark a picture holds.
            let legendGroup = try #require(
                try root.nodes(forXPath: "//*[local-name()='g'][@id='legend']").first as? XMLElement)
            let legend = (legendGroup.children ?? []).compactMap { $0 as? XMLElement }.filter {
                attribute("class", of: $0) == "meaning"
            }
            #expect(legend.count == MarbleSVG.legend.count)
        }
    }

    @Test(
        "--frame: a column a frame of the session's clock, the ruler in seconds, a quiet stretch empty columns, several events of a lane in one frame the last with their count"
    )
    func timeAxis() throws {
        var svg: [UInt8] = []
        try MarbleSVG.run(reader: .inMemory(SampleRecording.bytes), framing: .time(microseconds: 100_000)) {
            svg += $0
        }
        let root = try #require(try XMLDocument(data: Data(svg)).rootElement())
        // The sample ends with its quit at 1.093492 s: frames 0 to 10, one block.
        #expect(try root.nodes(forXPath: "//*[local-name()='g'][@class='block']").count == 1)
        let ruler = try root.nodes(forXPath: "//*[local-name()='text'][@class='ruler']").map { $0.stringValue ?? "" }
        #expect(ruler == ["0.000 s", "1.000 s"], "\(ruler)")
        func shapes(_ lane: String, _ name: String) throws -> [XMLElement] {
            try root.nodes(forXPath: "//*[local-name()='g'][@data-lane='\(lane)']/*[local-name()='\(name)']")
                .compactMap { $0 as? XMLElement }
        }
        // The positions: the start in frame 0; 41,12 at 0.495 s and 43,12 at 0.554 s in frames 4
        // and 5; two drags in each of frames 6 and 7; the last drag and the three arrows in 8.
        let circles = try shapes("position", "circle").compactMap { attribute("cx", of: $0).flatMap(Int.init) }
        #expect(circles == [0, 4, 5, 6, 7, 8].map(MarbleSVG.centre(of:)), "\(circles)")
        let counts = try shapes("position", "text")
            .filter { attribute("class", of: $0) == "count" && $0.stringValue?.hasPrefix("×") == true }
            .map { "\(attribute("x", of: $0) ?? ""):\($0.stringValue ?? "")" }
        #expect(
            counts == [
                "\(MarbleSVG.centre(of: 6)):×2", "\(MarbleSVG.centre(of: 7)):×2", "\(MarbleSVG.centre(of: 8)):×4",
            ])
        // The lanes run to the quit's frame, 10, and end there.
        let line = try #require(try shapes("position", "line").first)
        #expect(Int(attribute("x2", of: line) ?? "") == MarbleSVG.centre(of: 10) + 7)
    }

    @Test(
        "on a time axis the error is drawn in the frame it came in, a timer's after its intent, as the text export has it"
    )
    func errorAtItsTime() throws {
        // debounce holds the move into the corner; its timer, 300 ms later, hands it to tryMap,
        // which throws then: frame 6 of 100 ms, not the intent's frame, 3.
        let lines = [
            #"{"format":"colourful-ball-replay","version":6,"terminal":{"columns":80,"rows":24},"colourRules":1}"#,
            #"{"t":0.1,"event":"operator","name":"debounce,tryMap"}"#,
            #"{"t":0.2,"event":"arrow","direction":"right","distance":30}"#,
            #"{"t":0.3,"event":"arrow","direction":"down","distance":6}"#, #"{"t":1.0,"event":"quit"}"#,
        ]
        let bytes = Array((lines.joined(separator: "\n") + "\n").utf8)
        var text: [UInt8] = []
        try MarbleTestExport.run(reader: .inMemory(bytes), syntax: .rxjs, framing: .time(microseconds: 100_000)) {
            text += $0
        }
        let slotted = try #require(
            String(decoding: text, as: UTF8.self).split(separator: "\n").first { $0.contains(#""lane":"slotted""#) })
        let marbles = try #require(slotted.firstMatch(of: /"marbles":"([^"]*)"/)).output.1
        #expect(marbles == "a-----#", "\(slotted)")
        var svg: [UInt8] = []
        try MarbleSVG.run(reader: .inMemory(bytes), framing: .time(microseconds: 100_000)) { svg += $0 }
        let errors = String(decoding: svg, as: UTF8.self).matches(of: /class="error">#<title>#(\d+) an error/).map {
            String($0.output.1)
        }
        // slotted, ballColour and background, each in frame 6.
        #expect(errors == ["6", "6", "6"], "\(errors)")
    }

    @Test(
        "on a time axis each value the slot and a stage passed on is in its own frame: throttle after flatMap's two presses, a drag's copies at once and at the window's end; flatMap's own copies, at once, one marble counted ×2"
    )
    func copiesAtTheirTimes() throws {
        let lines = [
            #"{"format":"colourful-ball-replay","version":6,"terminal":{"columns":80,"rows":24},"colourRules":1}"#,
            #"{"t":0.1,"event":"operator","name":"flatMap,throttle,map"}"#,
            #"{"t":0.2,"event":"pressed","cell":[40,11]}"#, #"{"t":0.3,"event":"released","cell":[40,11]}"#,
            #"{"t":0.4,"event":"pressed","cell":[40,11]}"#, #"{"t":0.8,"event":"dragged","cell":[45,11]}"#,
            #"{"t":1.3,"event":"quit"}"#,
        ]
        var svg: [UInt8] = []
        try MarbleSVG.run(
            reader: .inMemory(Array((lines.joined(separator: "\n") + "\n").utf8)), framing: .time(microseconds: 100_000)
        ) { svg += $0 }
        let root = try #require(try XMLDocument(data: Data(svg)).rootElement())
        func shapes(_ lane: String, _ name: String) throws -> [XMLElement] {
            try root.nodes(forXPath: "//*[local-name()='g'][@data-lane='\(lane)']/*[local-name()='\(name)']")
                .compactMap { $0 as? XMLElement }
        }
        func counted(_ lane: String) throws -> [String] {
            try shapes(lane, "text").filter {
                attribute("class", of: $0) == "count" && $0.stringValue?.hasPrefix("×") == true
            }
            .map { "\(attribute("x", of: $0) ?? ""):\($0.stringValue ?? "")" }
        }
        // The presses' values at 0.2 s and at the window's end, 0.5 s; the drag's copies at
        // 0.8 s and 1.1 s, each alone (no ×2).
        for lane in ["stage2", "slotted"] {
            let circles = try shapes(lane, "circle").compactMap { attribute("cx", of: $0).flatMap(Int.init) }
            #expect(circles.suffix(4) == [2, 5, 8, 11].map(MarbleSVG.centre(of:)), "\(lane): \(circles)")
            #expect(try counted(lane).isEmpty, "\(lane)")
        }
        // flatMap's lane: each press's position, and the drag's two copies at once, counted.
        let flatMap = try shapes("stage1", "circle").compactMap { attribute("cx", of: $0).flatMap(Int.init) }
        #expect(flatMap == [2, 4, 8].map(MarbleSVG.centre(of:)), "\(flatMap)")
        #expect(try counted("stage1") == ["\(MarbleSVG.centre(of: 8)):×2"])
    }

    @Test("a bad line after good ones: the picture of what came before it, whole, then the error")
    func partialPicture() throws {
        var generator = SeededGenerator()
        let bytes = RandomRecording.bytes(count: 250, thenBadLine: #"{"t":1,"intent":"fly"}"#, using: &generator)
        var svg: [UInt8] = []
        #expect(throws: ReplayError.self) { try MarbleSVG.run(reader: .inMemory(bytes)) { svg += $0 } }
        let document = try XMLDocument(data: Data(svg))
        let root = try #require(document.rootElement())
        let blocks = try root.nodes(forXPath: "//*[local-name()='g'][@class='block']")
        #expect(blocks.count == 3, "250 intents before the bad line: three blocks (\(generator))")
        #expect(try root.nodes(forXPath: "//*[local-name()='g'][@id='legend']").count == 1)
    }

    @Test(
        "a long recording: columns of blocks, no side past what readers draw; past that, the picture of what fits, and a sentence"
    )
    func largestSide() throws {
        var generator = SeededGenerator()
        let side = 3_100  // Two columns of blocks, each some twenty blocks tall.
        for (count, fits) in [(2_500, true), (5_000, false)] {
            let bytes = RandomRecording.bytes(count: count, using: &generator)
            // A column for each intent, and one before them all: the subject's first value.
            let columns = String(decoding: bytes, as: UTF8.self).split(separator: "\n").count
            var svg: [UInt8] = []
            var refused: MarbleExportError?
            do {
                try MarbleSVG.run(reader: .inMemory(bytes), largestSide: side) { svg += $0 }
            } catch let error as MarbleExportError {
                refused = error
            }
            let root = try #require(try XMLDocument(data: Data(svg)).rootElement())
            #expect(
                Int(attribute("width", of: root) ?? "")! <= side && Int(attribute("height", of: root) ?? "")! <= side)
            let blocks = try root.nodes(forXPath: "//*[local-name()='g'][@class='block']").compactMap {
                $0 as? XMLElement
            }
            let corners = Set(blocks.compactMap { attribute("transform", of: $0)?.split(separator: ",").first })
            #expect(corners == ["translate(0", "translate(\(MarbleSVG.blockWidth)"], "two columns of blocks")
            if fits {
                #expect(refused == nil && blocks.count == (columns + 99) / 100, "\(generator)")
            } else {
                #expect(refused?.code == 65 && blocks.count < columns / 100, "\(generator)")
                #expect(refused?.description.contains("too long for one SVG picture") == true)
            }
        }
    }

    /// An element's attribute by name (the document's default namespace is SVG's).
    private func attribute(_ name: String, of element: XMLElement) -> String? {
        element.attributes?.first { $0.name == name }?.stringValue
    }

    @Test(
        "the mirror's lane is the subject's: its value once at the start, none where combineLatest went in and was handed it, per intent and on a time axis"
    )
    func mirrorHandedAtSubscription() throws {
        let recording = [
            #"{"format":"colourful-ball-replay","version":7,"terminal":{"columns":80,"rows":24},"colourRules":1}"#,
            #"{"t":0.1,"event":"arrow","direction":"left","distance":5}"#,
            #"{"t":0.2,"event":"operator","name":"combineLatest"}"#, #"{"t":0.4,"event":"quit"}"#,
        ]
        let bytes = Array(recording.map { $0 + "\n" }.joined().utf8)
        for framing in [MarbleFraming.perIntent, .time(microseconds: 100_000)] {
            var written: [UInt8] = []
            try MarbleSVG.run(reader: .inMemory(bytes), framing: framing) { written += $0 }
            let svg = String(decoding: written, as: UTF8.self)
            let start = try #require(svg.range(of: #"data-lane="mirror""#), "\(svg)")
            let group: String = String(svg[start.lowerBound...]).components(separatedBy: "</g>")[0]
            // The F the subject held at the start, once: what it handed combineLatest as it
            // subscribed (#2) is combineLatest's, not a value mirror sent.
            #expect(group.components(separatedBy: #"class="count">F<"#).count - 1 == 1, "\(framing): \(group)")
            #expect(group.contains("<title>#0 false</title>"), "\(framing): \(group)")
            #expect(!group.contains("<title>#2 "), "\(framing): \(group)")
            #expect(!group.contains(#"class="mark">^"#), "\(framing): \(group)")
        }
    }
}
