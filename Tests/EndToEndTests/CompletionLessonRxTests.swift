import BallModel
import BallProgram
import BallRendering
import BallStreams
import BallTestSupport
import Foundation
import Testing
import TextFormats

/// Completion's late lanes (`learn`, lesson 18) against RxPY's own subjects on its TestScheduler:
/// each key a subscription of its own, what each was handed as it subscribed, whether it completed
/// there, and a cancel's `!`.
@Suite("Completion's late lanes are Rx's")
struct CompletionLessonRxTests {
    /// The keys after a move down: b subscribes and b cancels before the end, then e, then a
    /// subscriber of each kind.
    static let keys: [Unicode.Scalar] = ["b", "b", "2", "e", "b", "p", "r", "v"]

    /// What RxPY's subscribers got as each subscribed, in the order they subscribed: for each,
    /// the values handed at once (`column,row`), whether it completed at once, and whether it was
    /// disposed of before anything more came. `start` and `moved`: the position before and after
    /// the move.
    static func rxpy(start: Cell, moved: Cell) throws -> [String] {
        let script = """
            from reactivex.subject import BehaviorSubject, ReplaySubject, Subject
            from reactivex.notification import OnCompleted, OnNext
            from reactivex.testing import TestScheduler
            scheduler = TestScheduler()
            start, moved = "\(start.column),\(start.row)", "\(moved.column),\(moved.row)"
            position = BehaviorSubject(start)
            published, replayed = Subject(), ReplaySubject(\(LateSubscriber.replayBufferSize))
            replayed.on_next(start)
            relay = BehaviorSubject(start)  # a BehaviorRelay: never completed
            subjects = {"b": position, "p": published, "r": replayed, "v": relay}
            got = []
            def move(*_):
                for subject in subjects.values():
                    subject.on_next(moved)
            def end(*_):
                for subject in (position, published, replayed):
                    subject.on_completed()
            live = {}
            def key(k):
                def press(*_):
                    if k in live:
                        live.pop(k).dispose()
                        next(g for g in reversed(got) if g[0] == k).append("!")
                        return
                    observer = scheduler.create_observer()
                    subscription = subjects[k].subscribe(observer, scheduler=scheduler)
                    values = [m.value.value for m in observer.messages if isinstance(m.value, OnNext)]
                    completed = any(isinstance(m.value, OnCompleted) for m in observer.messages)
                    got.append([k, " ".join(values), "|" if completed else ""])
                    if not completed:
                        live[k] = subscription
                return press
            scheduler.schedule_absolute(10, move)
            time = 20
            for k in "\(String(String.UnicodeScalarView(keys.filter { $0 != "2" })))":
                scheduler.schedule_absolute(time, end if k == "e" else key(k))
                time += 10
            scheduler.start()
            for entry in got:
                print(entry[0], "[" + entry[1] + "]", "".join(entry[2:]))
            """
        return try MarbleSyntaxTests.rxpyLines(script)
    }

    @Test(
        "↓ b b e b p r v at 80×24: each late lane drawn is one of RxPY's subscriptions, handed what RxPY handed, ending | or ! as RxPY's did",
        .enabled(
            if: MarbleSyntaxTests.hasRxPY,
            "RxPY is not installed (scripts/setup --tests makes .build/rxpy with reactivex)"))
    func lanesAreRx() throws {
        let index = Lesson.all.firstIndex { $0.id == "completion" } ?? 0
        let pilot = Pilot<Learn>(first: index, done: Set(0..<index))
        let start = pilot.learn.play.session.state.position.centre
        pilot.press(.down)
        let moved = pilot.learn.play.session.state.position.centre
        for key in Self.keys { pilot.type(key) }
        let expected = try Self.rxpy(start: start, moved: moved)
        // The drawn lanes, in the panel's order of kinds (each kind's oldest first), read back
        // as RxPY's lines: the key, the values handed at once by the values line's letters, then
        // `|` and `!`.
        let rows = pilot.lines
        let values = try #require(rows.first { $0.hasPrefix(" values") })
        var named: [Character: String] = [:]
        for entry in values.split(separator: " ") where entry.count > 2 && entry.dropFirst().first == "=" {
            named[entry.first!] = String(entry.dropFirst(2))
        }
        let kinds = Dictionary(uniqueKeysWithValues: LateSubscriber.allCases.map { (" late \($0.plainName)", $0) })
        var drawn: [String] = []
        for row in rows {
            guard let kind = kinds.first(where: { row.hasPrefix($0.key) })?.value, row.contains("^") else { continue }
            // A row draws each lane that ended before the next began: a lane from each `^`.
            let cells = row.dropFirst(StreamPanel.labelWidth).filter { $0 != " " && $0 != "─" }
            let starts = cells.indices.filter { cells[$0] == "^" }
            for (number, first) in starts.enumerated() {
                let marks = cells[first..<(number + 1 < starts.count ? starts[number + 1] : cells.endIndex)]
                let handed = marks.dropFirst().filter { $0 != "|" && $0 != "!" }
                let group = handed.first.flatMap { glyph in
                    (2...LateSubscriber.replayBufferSize).first { String(Glyph.group($0)) == String(glyph) }
                }
                let handedValues =
                    group.map { count in
                        // A group: the last `count` positions, oldest first (the Replay subject's buffer).
                        Array([start, moved].suffix(count)).map { "\($0.column),\($0.row)" }.joined(separator: " ")
                    } ?? handed.compactMap { named[$0] }.joined(separator: " ")
                drawn.append(
                    "\(kind.key) [\(handedValues)] \(marks.contains("|") ? "|" : "")\(marks.contains("!") ? "!" : "")")
            }
        }
        // RxPY's in the panel's order of kinds, each kind's in the order subscribed.
        let order = LateSubscriber.allCases.map { String($0.key) }
        let rx = expected.enumerated().sorted { left, right in
            let (l, r) = (
                order.firstIndex(of: String(left.element.prefix(1)))!,
                order.firstIndex(of: String(right.element.prefix(1)))!
            )
            return l != r ? l < r : left.offset < right.offset
        }.map { $0.element.trimmingCharacters(in: .whitespaces) }
        #expect(drawn.map { $0.trimmingCharacters(in: .whitespaces) } == rx, "drawn \(drawn)\nRxPY \(expected)")
        #expect(rx.count == 5, "\(expected)")
    }
}
