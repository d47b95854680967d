import BallModel
import BallProgram
import BallTestSupport
import Foundation
import Testing

/// The share lesson's counts (`learn`, `u`) against RxPY's own operators: what `map` over a
/// Behavior subject runs, shared with a replay of one and not, for two subscribers each.
@Suite("The share lesson's counts are Rx's")
struct ShareLessonRxTests {
    /// RxPY's counts, each line `positions shared unshared`: as the four subscribe to a
    /// `BehaviorSubject`'s two copies of `map` (one `replay(1)` and `ref_count`, as RxSwift's
    /// `share(replay: 1)`; one not), then after each of `moves` new positions.
    static func rxpyCounts(moves: Int) throws -> [String] {
        let script = """
            from reactivex import operators as ops
            from reactivex.subject import BehaviorSubject
            position = BehaviorSubject(0)
            counts = {"positions": 0, "shared": 0, "unshared": 0}
            def counted(name):
                def run(value):
                    counts[name] += 1
                    return value % 7
                return run
            shared = position.pipe(
                ops.map(counted("shared")), ops.distinct_until_changed(), ops.replay(buffer_size=1), ops.ref_count())
            unshared = position.pipe(ops.map(counted("unshared")), ops.distinct_until_changed())
            position.subscribe(lambda value: counts.__setitem__("positions", counts["positions"] + 1))
            for copy in (shared, shared, unshared, unshared):
                copy.subscribe(lambda value: None)
            def say():
                print(counts["positions"], counts["shared"], counts["unshared"])
            say()
            for move in range(1, \(moves) + 1):
                position.on_next(move)
                say()
            """
        return try MarbleSyntaxTests.rxpyLines(script)
    }

    @Test(
        "as u subscribes and after each of three moves, the card's counts are RxPY's: map runs at once on the Behavior subject's value, once shared, once a subscriber unshared",
        .enabled(
            if: MarbleSyntaxTests.hasRxPY,
            "RxPY is not installed (scripts/setup --tests makes .build/rxpy with reactivex)"))
    func countsAreRx() throws {
        let expected = try Self.rxpyCounts(moves: 3)
        let pilot = Pilot<Learn>(first: Lesson.all.firstIndex { $0.id == "share" } ?? 0)
        var counted: [String] = []
        func note() throws {
            let counts = try #require(pilot.learn.facts.mapRuns)
            counted.append("\(counts.positions) \(counts.shared) \(counts.unshared)")
        }
        pilot.type("u")
        try note()
        for direction: Direction in [.right, .right, .left] {
            pilot.press(direction)
            try note()
        }
        #expect(counted == expected)
        #expect(expected.first == "1 1 2", "RxPY itself: map ran at subscribing")
        #expect(pilot.learn.isDone)
    }
}
