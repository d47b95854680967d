import BallModel
import BallProgram
import BallRendering
import BallTestSupport
import Foundation
import Testing

/// What `sample` and `merge` pass on the instant the operators box puts them in, as the tour
/// draws it at 80×24: RxSwift's. `sample` subscribes to its source, then to its sampler
/// (`SampleSequenceSink.run`), and a Behavior subject hands each new subscriber its value
/// (`BehaviorSubject._synchronized_subscribe`): the mirror's value samples the position at once.
/// `merge` reads two Publish subjects, which hand a new subscriber nothing.
@Suite("Operators put in: sample and merge")
struct PutInTests {
    /// Row `label`'s number on the screen and the cells drawn right of its name.
    static func lane(_ pilot: Pilot<Learn>, _ label: String) throws -> (row: Int, drawn: String) {
        let name = " \(label)".padding(toLength: StreamPanel.labelWidth, withPad: " ", startingAt: 0)
        let row = try #require(pilot.lines.firstIndex { $0.hasPrefix(name) }, "\(label): \(pilot.lines)")
        return (row, String(pilot.lines[row].dropFirst(StreamPanel.labelWidth)).trimmingTrailingSpaces)
    }

    /// The hover line's words, pointing at column `index` of row `row`.
    static func pointed(_ pilot: Pilot<Learn>, row: Int, column index: Int) -> String {
        pilot.hover(at: Cell(column: StreamPanel.labelWidth + 2 * index, row: row))
        return pilot.lines[pilot.lines.count - 2]
    }

    @Test(
        "sample put in passes the latest position at once, sampled by the mirror's value handed to it alone (the mirror's lane draws nothing new) and its words say so; merge put in is handed nothing (Publish subjects, not position)"
    )
    func sampleAndMergePutIn() throws {
        let behavior = LearnTests.index("behavior")
        let pilot = Pilot<Learn>(first: LearnTests.index("combine-latest"), done: [behavior])
        pilot.type("2")  // The lesson's guess.
        pilot.press(.right)  // #1: b.
        pilot.type("f")
        // The box says sample passes on a value as it subscribes, not only at a flip.
        let box = pilot.lines.joined(separator: "\n")
        #expect(box.contains("7    position.sample(mirror): the latest position, if new, each time mirror"), "\(box)")
        #expect(box.contains("sends: as sample subscribes (it hands its value), then at each flip (i)"), "\(box)")
        pilot.type("7")  // #2: sample in.
        #expect(pilot.learn.play.session.state.slot == [.sample])
        var slotted = try Self.lane(pilot, "slotted")
        var mirror = try Self.lane(pilot, "mirror")
        // b passed on as sample went in; mirror sent nothing: its value went to sample alone.
        #expect(slotted.drawn == "^a─b├b", "\(slotted.drawn)")
        #expect(mirror.drawn == "^F────", "\(mirror.drawn)")
        let mirrorSaid = Self.pointed(pilot, row: mirror.row, column: 2)
        #expect(
            mirrorSaid.contains("#2: nothing new: the pipe was handed F false as it subscribed"), "\(mirrorSaid)")
        let sampleSaid = Self.pointed(pilot, row: slotted.row, column: 2)
        #expect(sampleSaid.contains("#2: ○ 41,3, sampled at once by mirror's value"), "\(sampleSaid)")
        // A flip with no new position samples nothing; a move, then a flip, samples it.
        pilot.type("i")  // #3.
        pilot.press(.right)  // #4: c, held.
        pilot.type("i")  // #5: c sampled.
        slotted = try Self.lane(pilot, "slotted")
        mirror = try Self.lane(pilot, "mirror")
        #expect(slotted.drawn == "^a─b├b─────c", "\(slotted.drawn)")
        #expect(mirror.drawn == "^F─────T───F", "\(mirror.drawn)")
        // merge reads mouse and keys, not position: nothing as it goes in.
        pilot.type("f")
        pilot.type("0")  // #6.
        #expect(pilot.learn.play.session.state.slot == [.merge])
        slotted = try Self.lane(pilot, "slotted")
        #expect(slotted.drawn == "^a─b├b─────c├─", "\(slotted.drawn)")
        let (mouse, keys) = (try Self.lane(pilot, "mouse").drawn, try Self.lane(pilot, "keys").drawn)
        #expect(mouse == "^─────────────", "the mouse made nothing: \(mouse)")
        #expect(keys == "^──b─────c────", "the keys made b and c: \(keys)")
        #expect(!pilot.lines.contains { $0.hasPrefix(" mirror ") }, "merge reads no mirror")
        let mergeSaid = Self.pointed(pilot, row: slotted.row, column: 6)
        #expect(mergeSaid.contains("#6: nothing: it reads mouse and keys, not position"), "\(mergeSaid)")
        // The keys' next move goes through.
        pilot.press(.right)  // #7: d.
        #expect(try Self.lane(pilot, "slotted").drawn == "^a─b├b─────c├──d", "\(pilot.lines)")
    }
}

extension String {
    /// The string without the spaces at its end.
    fileprivate var trimmingTrailingSpaces: String {
        String(self.reversed().drop { $0 == " " }.reversed())
    }
}
