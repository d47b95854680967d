import BallExport
import BallModel
import BallReplay
import BallStreams
import BallTestSupport
import Foundation
import FoundationXML
import Testing

/// `replay --marbles --svg`: the diagram as a picture, checked to be SVG with one circle per
/// value each lane emitted.
@Suite("The marble diagram as SVG")
struct MarbleSVGTests {
    @Test("random recordings: well-formed SVG, one circle per emission in each lane, a colour's circle filled with it")
    func circlesPerEmission() throws {
        var generator = SeededGenerator()
        for _ in 0..<10 {
            var lines = String(
                decoding: RandomRecording.bytes(count: 1 + generator.below(300), using: &generator), as: UTF8.self
            ).split(separator: "\n").map(String.init)
            if Bool.random(using: &generator) { lines.removeLast() }
            let bytes = Array(lines.map { $0 + "\n" }.joined().utf8)
            var svg: [UInt8] = []
            try MarbleSVG.run(reader: .inMemory(bytes)) { svg += $0 }
            let document = try XMLDocument(data: Data(svg))
            let root = try #require(document.rootElement())
            #expect(root.name == "svg" && root.uri == "http://www.w3.org/2000/svg")
            // The lanes as the panel records them.
            let player = try ReplayPlayer(reader: .inMemory(bytes))
            let recorder = StreamRecorder(session: player.session, capacity: 100_000)
            while let event = try player.nextEvent() { player.apply(event) }
            let columns = recorder.columns
            for lane in StreamLane.main {
                let group = try #require(
                    try root.nodes(forXPath: "//*[local-name()='g'][@id='lane-\(lane.label)']").first as? XMLElement)
                let circles = (group.children ?? []).compactMap { $0 as? XMLElement }.filter { $0.name == "circle" }
                let emitted = columns.filter {
                    switch $0.emission(lane) {
                    case .intent?, .value?, .colour?: true
                    default: false
                    }
                }
                #expect(circles.count == emitted.count, "\(lane.label), \(generator)")
                if lane == .ballColour {
                    let fills = circles.compactMap { attribute("fill", of: $0) }
                    #expect(fills == emitted.compactMap { $0.ballColour?.hex }, "\(generator)")
                }
                let ends = (group.children ?? []).compactMap { $0 as? XMLElement }.filter {
                    attribute("class", of: $0) == "end"
                }
                #expect(ends.count == (recorder.ended ? 1 : 0), "\(lane.label): a bar only where it completed")
            }
        }
    }

    /// An element's attribute by name (the document's default namespace is SVG's).
    private func attribute(_ name: String, of element: XMLElement) -> String? {
        element.attributes?.first { $0.name == name }?.stringValue
    }
}
