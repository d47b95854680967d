import BallModel
import BallProgram
import BallTestSupport
import Foundation
import Testing

/// `replay --marbles --syntax rxjs|rxpy`: the lanes as the expected side of a marble test, read
/// back by RxPY's own parser (`reactivex`, which scripts/setup --tests installs in .build/rxpy).
@Suite("Marbles in the Rx test syntax")
struct MarbleSyntaxTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let sample = root.appendingPathComponent("Tests/BallReplayTests/Replays/sample.jsonl").path
    /// A Python that has RxPY: .build/rxpy's, or RXPY_PYTHON.
    static let python =
        ProcessInfo.processInfo.environment["RXPY_PYTHON"] ?? root.appendingPathComponent(".build/rxpy/bin/python").path
    static let hasRxPY = (try? run([python, "-c", "import reactivex.observable.marbles"]))?.status == 0

    /// The lines a Python `script` run with RxPY prints; a failing script is an issue recorded here.
    static func rxpyLines(_ script: String) throws -> [String] {
        let result = try run([python, "-c", script])
        #expect(result.status == 0, "\(result.error)")
        return result.output.split(separator: "\n").map(String.init)
    }

    @Test("the sample in RxJS's syntax: a letter a value, five frames an intent, (l|) the quit and its completion")
    func rxjsSample() throws {
        let result = try run([programPath, "replay", Self.sample, "--marbles", "--syntax", "rxjs"])
        #expect(result.status == 0, "\(result.error)")
        let lanes = result.output.split(separator: "\n").map(String.init)
        #expect(lanes.count == 9)
        #expect(
            lanes[1]
                == #"{"lane":"position","syntax":"rxjs","framesPerIntent":5,"marbles":"a---------b----c----d----e----f----g----h---------i----g----j----|","values":{"a":{"cell":[40,11],"screen":[80,24]},"b":{"cell":[41,12],"screen":[80,24]},"c":{"cell":[43,12],"screen":[80,24]},"d":{"cell":[45,12],"screen":[80,24]},"e":{"cell":[47,12],"screen":[80,24]},"f":{"cell":[49,12],"screen":[80,24]},"g":{"cell":[51,12],"screen":[80,24]},"h":{"cell":[53,12],"screen":[80,24]},"i":{"cell":[52,12],"screen":[80,24]},"j":{"cell":[51,7],"screen":[80,24]}}}"#
        )
        #expect(
            lanes[0].contains(#""marbles":"-----a----b----c----d----e----f----g----h----i----j----j----k----(l|)""#))
        #expect(lanes[0].contains(#""l":{"event":"quit"}"#))
        // With nothing in the slot, it passes every position on: one segment, from the start.
        #expect(
            lanes[2]
                == lanes[1].replacingOccurrences(of: #""lane":"position""#, with: #""lane":"slotted""#).dropLast()
                + #","segments":[{"frame":0,"operator":"none","label":"none"}]}"#)
        // A value swallowed by removeDuplicates is no emission: flatBlackDark, then the next colour.
        #expect(
            lanes[3].contains(
                #""marbles":"a---------b---------c----d----------------------------------b----|","values":{"a":"flatRed","b":"flatBlackDark","c":"flatPlumDark","d":"flatMaroonDark"}"#
            ))
        let rxpy = try run([programPath, "replay", Self.sample, "--marbles", "--syntax", "rxpy"])
        #expect(
            rxpy.output.contains(
                #""marbles":"-------a------b------c------d------e------f------g------h------i------j------j------k------(l,|)""#
            )
        )
    }

    @Test(
        "RxPY's parser reads every lane of fresh random recordings as the headless trace has them, each late lane as RxPY's own subject of its kind gives it, and, exported with --frame 1ms, the slot's lane as RxPY's own filter, map, debounce, combine_latest, sample, flat_map_latest, flat_map, map then scan (the counter), merge, skip then start_with, distinct_until_changed and switch_latest (and a port of RxSwift's throttle) give it from the exported input lanes, for every operator",
        .tags(.slow), .skippedInQuickRuns,
        .enabled(if: hasRxPY, "RxPY is not installed (scripts/setup --tests makes .build/rxpy with reactivex)"))
    func rxpyReadsTheLanes() throws {
        var generator = SeededGenerator()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("rxpy-\(getpid()).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        // First a recording written out: combineLatest through flips and moves, then sample
        // holding two moves for a flip, a flip with nothing new, and a quit while it holds one.
        let written = [
            #"{"format":"colourful-ball-replay","version":3,"terminal":{"columns":80,"rows":24},"colourRules":1}"#,
            #"{"t":0.1,"event":"operator","name":"combineLatest"}"#,
            #"{"t":0.2,"event":"arrow","direction":"left","distance":5}"#, #"{"t":0.3,"event":"mirror"}"#,
            #"{"t":0.4,"event":"arrow","direction":"up","distance":3}"#, #"{"t":0.5,"event":"mirror"}"#,
            #"{"t":0.6,"event":"operator","name":"sample"}"#,
            #"{"t":0.7,"event":"arrow","direction":"left","distance":5}"#,
            #"{"t":0.8,"event":"arrow","direction":"left","distance":5}"#, #"{"t":0.9,"event":"mirror"}"#,
            #"{"t":1.0,"event":"mirror"}"#, #"{"t":1.1,"event":"arrow","direction":"down","distance":5}"#,
            #"{"t":1.2,"event":"quit"}"#,
        ]
        try checkWritten(written, slotted: 10, in: file)
        // Then flatMapLatest, the drag: a key move with the button up, a press away from the
        // ball, a drag, a key move while held, a release away from the last drag, a key move and
        // a release with the button up, a press, the slot emptied and filled mid-drag, a quit held.
        let drag = [
            #"{"format":"colourful-ball-replay","version":3,"terminal":{"columns":80,"rows":24},"colourRules":1}"#,
            #"{"t":0.1,"event":"operator","name":"flatMapLatest"}"#,
            #"{"t":0.2,"event":"arrow","direction":"left","distance":5}"#,
            #"{"t":0.3,"event":"pressed","cell":[60,8]}"#, #"{"t":0.4,"event":"dragged","cell":[62,9]}"#,
            #"{"t":0.5,"event":"arrow","direction":"up","distance":2}"#,
            #"{"t":0.6,"event":"released","cell":[64,9]}"#,
            #"{"t":0.7,"event":"arrow","direction":"left","distance":5}"#,
            #"{"t":0.8,"event":"released","cell":[10,5]}"#, #"{"t":0.9,"event":"pressed","cell":[59,8]}"#,
            #"{"t":1.0,"event":"operator","name":"none"}"#, #"{"t":1.1,"event":"operator","name":"flatMapLatest"}"#,
            #"{"t":1.2,"event":"dragged","cell":[30,8]}"#, #"{"t":1.3,"event":"quit"}"#,
        ]
        try checkWritten(drag, slotted: 10, in: file)
        // Then the counter: chosen after a move, counting moves of every kind (keys, a press, a
        // drag, a resize's clamp), not a flip; chosen again, a new count; then map, and a quit.
        let counted = [
            #"{"format":"colourful-ball-replay","version":3,"terminal":{"columns":80,"rows":24},"colourRules":1}"#,
            #"{"t":0.1,"event":"arrow","direction":"left","distance":5}"#,
            #"{"t":0.2,"event":"operator","name":"counter"}"#,
            #"{"t":0.3,"event":"arrow","direction":"left","distance":5}"#,
            #"{"t":0.4,"event":"pressed","cell":[60,8]}"#, #"{"t":0.5,"event":"dragged","cell":[62,9]}"#,
            #"{"t":0.6,"event":"released","cell":[62,9]}"#, #"{"t":0.7,"event":"resized","size":[60,20]}"#,
            #"{"t":0.8,"event":"mirror"}"#, #"{"t":0.9,"event":"operator","name":"counter"}"#,
            #"{"t":1.0,"event":"recentred"}"#, #"{"t":1.1,"event":"operator","name":"map"}"#,
            #"{"t":1.2,"event":"quit"}"#,
        ]
        try checkWritten(counted, slotted: 11, in: file)
        let values = try run([programPath, "replay", file, "--marbles", "--syntax", "rxjs"]).output
        // A count from 1 to 9 is its own digit, in the marbles and in the values map.
        #expect(values.contains(#""1":1,"2":2,"3":3,"4":4,"5":5"#), "\(values)")
        #expect(values.contains(#""marbles":"a----b----1----2----3----4---------5---------1----2----c----|""#))
        #expect(
            values.contains(
                #""segments":[{"frame":0,"operator":"none","label":"none"},{"frame":10,"operator":"mapToOne,scan","label":".map.scan"},{"frame":45,"operator":"mapToOne,scan","label":".map.scan"},{"frame":55,"operator":"map","label":".map"}]"#
            ), "\(values)")
        // Then throttle holding a position at the last intent, and a late subscriber after its
        // window ended: the recording's time runs to its last line, so the window's end is in it.
        try checkWritten(
            [
                #"{"format":"colourful-ball-replay","version":3,"terminal":{"columns":80,"rows":24},"colourRules":1}"#,
                #"{"t":0.1,"event":"operator","name":"throttle"}"#,
                #"{"t":0.2,"event":"arrow","direction":"left","distance":5}"#,
                #"{"t":0.3,"event":"arrow","direction":"left","distance":5}"#,
                #"{"t":0.6,"event":"subscribed","subject":"behavior"}"#,
            ], slotted: 3, in: file)
        // Then startWith: chosen after a move (the middle first), moves, a resize (a new middle
        // when chosen again), a press, a quit.
        try checkWritten(
            [
                #"{"format":"colourful-ball-replay","version":3,"terminal":{"columns":80,"rows":24},"colourRules":1}"#,
                #"{"t":0.1,"event":"arrow","direction":"left","distance":5}"#,
                #"{"t":0.2,"event":"operator","name":"startWith"}"#,
                #"{"t":0.3,"event":"arrow","direction":"left","distance":5}"#,
                #"{"t":0.4,"event":"resized","size":[60,20]}"#, #"{"t":0.5,"event":"operator","name":"startWith"}"#,
                #"{"t":0.6,"event":"pressed","cell":[10,5]}"#, #"{"t":0.7,"event":"quit"}"#,
            ], slotted: 8, in: file)
        // Then merge: keys, a press, a drag, a release, a resize's clamp (neither's), a recentre,
        // a flip, keys, a quit.
        let merged = [
            #"{"format":"colourful-ball-replay","version":3,"terminal":{"columns":80,"rows":24},"colourRules":1}"#,
            #"{"t":0.1,"event":"operator","name":"merge"}"#,
            #"{"t":0.2,"event":"arrow","direction":"left","distance":5}"#,
            #"{"t":0.3,"event":"pressed","cell":[60,8]}"#, #"{"t":0.4,"event":"dragged","cell":[62,9]}"#,
            #"{"t":0.5,"event":"released","cell":[62,9]}"#, #"{"t":0.6,"event":"resized","size":[40,12]}"#,
            #"{"t":0.7,"event":"recentred"}"#, #"{"t":0.8,"event":"mirror"}"#,
            #"{"t":0.9,"event":"arrow","direction":"right","distance":3}"#, #"{"t":1.0,"event":"quit"}"#,
        ]
        try checkWritten(merged, slotted: 7, in: file)
        // Then random recordings, until every operator has been chosen in one (at most 45: a
        // recording refused is not checked): each operator's lane, at --frame 1ms, as RxPY's own
        // operator gives it from the exported inputs.
        print("RxPY's marble test of the operators: \(generator)")
        var chosen = Set<String>()
        // The intervals of the timed stages chosen (`debounce:1000ms`; alone, 300 ms).
        var intervals = Set<String>()
        var refused: [String] = []
        // The stage lanes checked against RxPY's pipe of the stages up to each: stage1, stage2.
        var stagesChecked = Set<String>()
        /// Checks `bytes` with scripts/check_rxpy_marbles.py, and notes what it checked.
        func check(_ bytes: [UInt8]) throws {
            try Data(bytes).write(to: URL(fileURLWithPath: file))
            let checked = try run([
                Self.python, Self.root.appendingPathComponent("scripts/check_rxpy_marbles.py").path, programPath, file,
            ])
            // Status 3: the program refused the export of a recording with more values in one
            // intent than its frames hold (flatMap after four presses), in its one sentence.
            if checked.status == 3 {
                refused.append(checked.output)
                print("RxPY's marble test: one recording refused, not checked: \(checked.output)")
                return
            }
            #expect(checked.status == 0, "\(generator): \(checked.output)\(checked.error)")
            for stage in ["stage1", "stage2"]
            where checked.output.contains("; \(stage)'s ")
                && checked.output.contains("as RxPY's pipe of the stages up to it")
            {
                stagesChecked.insert(stage)
            }
            guard let names = checked.output.firstRange(of: "(operators chosen: ") else { return }
            // Each pipe chosen (`filter,debounce:1000ms`), by its stages.
            let stages = checked.output[names.upperBound...].prefix { $0 != ")" }.split(separator: ", ")
                .flatMap { $0.split(separator: ",") }
            chosen.formUnion(stages.map { String($0.prefix { $0 != ":" }) })
            intervals.formUnion(
                stages.filter { $0.hasPrefix("debounce") || $0.hasPrefix("throttle") }.map {
                    $0.contains(":") ? String($0.drop { $0 != ":" }.dropFirst()) : "300ms"
                })
        }
        for _ in 0..<45 where chosen.count < SlotOperator.allCases.count {
            // A recording ends with its quit; half of them lose it (a session that never quit).
            var lines = String(
                decoding: RandomRecording.bytes(
                    count: 1 + generator.below(400), observations: true, operators: true, spaced: true,
                    using: &generator),
                as: UTF8.self
            )
            .split(separator: "\n").map(String.init)
            if Bool.random(using: &generator) { lines.removeLast() }
            try check(Array(lines.map { $0 + "\n" }.joined().utf8))
        }
        // Each operator, interval and pipe length is drawn at random, so now and then one is in
        // no recording: it is then checked on a recording of its own (moves, a flip, a drag, a
        // corner), and every run checks every operator, interval and stage lane.
        let missedOperators = SlotOperator.allCases.map(\.name).filter { !chosen.contains($0) }.sorted()
        // (Each as the operator event's fields: its name, and an interval where it has one.)
        let missedIntervals = ["100", "300", "1000"].filter { !intervals.contains("\($0)ms") }.map {
            #"debounce","interval":\#($0)"#
        }
        let missedStages = stagesChecked.count < 2 ? [#"filter,mapToOne,scan""#] : []
        for missed in missedOperators.map({ "\(SlotOperator(rawValue: $0)?.alone.rawValue ?? $0)\"" })
            + missedIntervals + missedStages
        {
            print(#"RxPY's marble test: in no random recording, checked on one of its own: "name":"\#(missed)"#)
            let own = [
                #"{"format":"colourful-ball-replay","version":7,"terminal":{"columns":80,"rows":24},"colourRules":1}"#,
                #"{"t":0.1,"event":"operator","name":"\#(missed)}"#,
                #"{"t":0.2,"event":"arrow","direction":"left","distance":5}"#, #"{"t":0.3,"event":"mirror"}"#,
                #"{"t":0.4,"event":"pressed","cell":[35,11]}"#, #"{"t":0.5,"event":"dragged","cell":[30,8]}"#,
                #"{"t":0.6,"event":"released","cell":[30,8]}"#,
                #"{"t":1.0,"event":"arrow","direction":"left","distance":40}"#,
                #"{"t":1.1,"event":"arrow","direction":"up","distance":20}"#, #"{"t":1.2,"event":"mirror"}"#,
                #"{"t":1.3,"event":"arrow","direction":"right","distance":5}"#, #"{"t":2.0,"event":"quit"}"#,
            ]
            try check(Array(own.map { $0 + "\n" }.joined().utf8))
        }
        #expect(
            intervals == ["100ms", "300ms", "1000ms"], "\(generator): every interval checked, \(intervals.sorted())")
        #expect(chosen == Set(SlotOperator.allCases.map(\.name)), "\(generator): \(chosen.sorted())")
        #expect(
            stagesChecked == ["stage1", "stage2"], "\(generator): every stage lane checked, \(stagesChecked.sorted())")
        #expect(refused.count <= 3, "\(generator): \(refused)")
        #expect(refused.allSatisfy { $0.contains("more events at") }, "\(generator): \(refused)")
    }

    @Test(
        "sample and merge put in as a learner did: sample passes the latest position at once (the mirror, a Behavior subject, hands it its value), merge nothing (mouse and keys are Publish subjects), as RxPY's sample and merge give them; a sample blind to that value, or a merge of position, fails",
        .tags(.slow), .skippedInQuickRuns,
        .enabled(if: hasRxPY, "RxPY is not installed (scripts/setup --tests makes .build/rxpy with reactivex)"))
    func putInAsRxPYGives() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("put-in-\(getpid()).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        // A move (b); sample in, the mirror never flipped (b again, at once); a flip with nothing
        // new (nothing); a move (held), a flip (c); merge in (nothing); a key move (d); the quit.
        let recording = [
            #"{"format":"colourful-ball-replay","version":6,"terminal":{"columns":80,"rows":24},"colourRules":1}"#,
            #"{"t":0.1,"event":"arrow","direction":"right","distance":1}"#,
            #"{"t":0.2,"event":"operator","name":"sample"}"#, #"{"t":0.3,"event":"mirror"}"#,
            #"{"t":0.4,"event":"arrow","direction":"right","distance":1}"#, #"{"t":0.5,"event":"mirror"}"#,
            #"{"t":0.6,"event":"operator","name":"merge"}"#,
            #"{"t":0.7,"event":"arrow","direction":"right","distance":1}"#, #"{"t":0.8,"event":"quit"}"#,
        ]
        // The start, b, b at sample's put-in, c, d, the completion.
        try checkWritten(recording, slotted: 6, in: file)
        let lanes = try run([programPath, "replay", file, "--marbles", "--syntax", "rxpy"]).output
        let slotted = try #require(lanes.split(separator: "\n").first { $0.contains(#""lane":"slotted""#) })
        // Seven frames an intent: b at the move (7) and at sample's put-in (14); nothing at merge's (42).
        #expect(
            slotted.contains(#""marbles":"a------b------b--------------------c-------------d------|""#), "\(slotted)")
        let script = Self.root.appendingPathComponent("scripts/check_rxpy_marbles.py").path
        for wrong in [
            "sample=upstream.pipe(ops.sample(mirror.pipe(ops.skip(1))))",
            #"merge=subject.pipe(ops.merge(sources["keys"]))"#,
        ] {
            let checked = try run([Self.python, script, programPath, file, "--replace", wrong])
            #expect(checked.status == 1, "\(wrong): \(checked.output)\(checked.error)")
            #expect(checked.output.contains("slotted at --frame 1ms: event "), "\(wrong): \(checked.output)")
        }
    }

    @Test(
        "the marble test of the operators can fail: a wrong form of an operator (Combine's throttle, a debounce 1 ms short, a filter of the other half) gives lanes the exported ones are not",
        .tags(.slow), .skippedInQuickRuns,
        .enabled(if: hasRxPY, "RxPY is not installed (scripts/setup --tests makes .build/rxpy with reactivex)"))
    func wrongFormsFail() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("wrong-\(getpid()).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        // Each operator chosen, then moves: quick ones, a stop of 300 ms, and a quit.
        let recording = [
            #"{"format":"colourful-ball-replay","version":3,"terminal":{"columns":80,"rows":24},"colourRules":1}"#,
            #"{"t":0.1,"event":"operator","name":"throttle"}"#,
            #"{"t":0.2,"event":"arrow","direction":"right","distance":5}"#,
            #"{"t":0.25,"event":"arrow","direction":"right","distance":5}"#,
            #"{"t":0.7,"event":"operator","name":"debounce"}"#,
            #"{"t":0.8,"event":"arrow","direction":"left","distance":5}"#,
            #"{"t":1.1,"event":"arrow","direction":"left","distance":5}"#,
            #"{"t":1.5,"event":"operator","name":"filter"}"#,
            #"{"t":1.6,"event":"arrow","direction":"right","distance":20}"#,
            #"{"t":1.7,"event":"quit"}"#,
        ]
        try Data((recording.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: file))
        let script = Self.root.appendingPathComponent("scripts/check_rxpy_marbles.py").path
        let right = try run([Self.python, script, programPath, file])
        #expect(right.status == 0, "\(right.output)\(right.error)")
        for wrong in [
            "throttle=subject.pipe(ops.skip(1), throttle_latest(scheduler, INTERVAL))",
            "throttle=subject.pipe(ops.throttle_first(300.0))",
            "debounce=subject.pipe(ops.debounce(299.0))",
            "filter=subject.pipe(ops.filter(lambda position: not in_right_half(position)))",
        ] {
            let checked = try run([Self.python, script, programPath, file, "--replace", wrong])
            #expect(checked.status == 1, "\(wrong): \(checked.output)\(checked.error)")
            #expect(checked.output.contains("slotted at --frame 1ms: event "), "\(wrong): \(checked.output)")
        }
        // The intervals chosen (version 7): debounce at 1000 ms, then throttle at 100 ms after a
        // filter, each with stops between moves longer than 300 ms and shorter than 1000 ms. The
        // check gives each stage its own interval; forms that wait the usual 300 ms whatever the
        // recording says fail.
        let timed = [
            #"{"format":"colourful-ball-replay","version":7,"terminal":{"columns":80,"rows":24},"colourRules":1}"#,
            #"{"t":0.1,"event":"operator","name":"debounce","interval":1000}"#,
            #"{"t":0.2,"event":"arrow","direction":"right","distance":5}"#,
            #"{"t":0.7,"event":"arrow","direction":"right","distance":5}"#,
            #"{"t":2.0,"event":"operator","name":"filter,throttle","interval":100}"#,
            #"{"t":2.1,"event":"arrow","direction":"right","distance":5}"#,
            #"{"t":2.15,"event":"arrow","direction":"right","distance":5}"#,
            #"{"t":2.2,"event":"arrow","direction":"right","distance":5}"#,
            #"{"t":2.5,"event":"unstage"}"#, #"{"t":2.6,"event":"stage","name":"debounce","interval":100}"#,
            #"{"t":2.7,"event":"arrow","direction":"right","distance":5}"#,
            #"{"t":2.75,"event":"arrow","direction":"right","distance":5}"#,
            #"{"t":3.0,"event":"arrow","direction":"left","distance":5}"#, #"{"t":3.5,"event":"quit"}"#,
        ]
        try Data((timed.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: file))
        let timedRight = try run([Self.python, script, programPath, file])
        #expect(timedRight.status == 0, "\(timedRight.output)\(timedRight.error)")
        #expect(
            timedRight.output.contains("debounce:1000ms") && timedRight.output.contains("filter,throttle:100ms")
                && timedRight.output.contains("filter,debounce:100ms"), "\(timedRight.output)")
        for wrong in [
            "debounce=upstream.pipe(ops.debounce(300.0))", "throttle=upstream.pipe(throttle_latest(scheduler, 300))",
        ] {
            let checked = try run([Self.python, script, programPath, file, "--replace", wrong])
            #expect(checked.status == 1, "\(wrong): \(checked.output)\(checked.error)")
        }
    }

    @Test(
        "flatMap before a timed stage at --frame 1ms: throttle passes a drag's first copy at once and the second at its window's end, each at its own frame on the slot's lane and the stage's, as RxPY's flat_map and throttle give them",
        .tags(.slow), .skippedInQuickRuns,
        .enabled(if: hasRxPY, "RxPY is not installed (scripts/setup --tests makes .build/rxpy with reactivex)"))
    func flatMapBeforeATimedStage() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("copies-\(getpid()).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        // Two presses (two inner subscriptions), then a drag at 0.8 s that goes through each.
        func recording(_ pipe: String) -> [String] {
            [
                #"{"format":"colourful-ball-replay","version":6,"terminal":{"columns":80,"rows":24},"colourRules":1}"#,
                #"{"t":0.1,"event":"operator","name":"\#(pipe)"}"#, #"{"t":0.2,"event":"pressed","cell":[40,11]}"#,
                #"{"t":0.3,"event":"released","cell":[40,11]}"#, #"{"t":0.4,"event":"pressed","cell":[40,11]}"#,
                #"{"t":0.8,"event":"dragged","cell":[45,11]}"#, #"{"t":1.3,"event":"quit"}"#,
            ]
        }
        // The start; the first press's position at once (0.2 s), the second's at the window's end
        // (0.5 s); the drag's first copy at once (0.8 s), the second at the window's end (1.1 s);
        // the completion.
        try checkWritten(recording("flatMap,throttle"), slotted: 6, in: file)
        try checkWritten(recording("flatMap,throttle,map"), slotted: 6, in: file)
        let lanes = try run([programPath, "replay", file, "--marbles", "--syntax", "rxpy", "--frame", "1ms"]).output
        for lane in ["slotted", "stage2"] {
            let line = try #require(lanes.split(separator: "\n").first { $0.contains(#""lane":"\#(lane)""#) })
            let marbles = try #require(
                line.firstRange(of: #""marbles":""#).map { line[$0.upperBound...].prefix { $0 != "\"" } })
            // Each copy alone in its frame: 800 and 1100, not a group at either.
            let frames = marbles.enumerated().filter { $0.element != "-" }.map(\.offset)
            #expect(frames.contains(800) && frames.contains(1_100), "\(lane): \(frames)")
            #expect(!marbles.contains("("), "\(lane): \(marbles.prefix(40))")
        }
        // debounce after flatMap: the copies come at once; debounce passes the last on 300 ms after.
        try checkWritten(recording("flatMap,debounce"), slotted: 4, in: file)
    }

    @Test(
        "flatMapLatest's and flatMap's inner lanes, one a press, as RxPY's flat_map_latest and flat_map subscribe to the position, receive from it and dispose of it; flat_map for flat_map_latest fails",
        .tags(.slow), .skippedInQuickRuns,
        .enabled(if: hasRxPY, "RxPY is not installed (scripts/setup --tests makes .build/rxpy with reactivex)"))
    func innerLanesAsRxPYHasThem() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("inners-\(getpid()).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        // flatMapLatest: a press, a drag, its release (which ends inner 1), a key, a second press
        // and drag; flatMap built mid-drag (ending inner 2, subscribing its own inner 1), a drag,
        // the release (which ends none), a press (inner 2), the quit (which completes both).
        let recording = [
            #"{"format":"colourful-ball-replay","version":6,"terminal":{"columns":80,"rows":24},"colourRules":1}"#,
            #"{"t":0.1,"event":"operator","name":"flatMapLatest"}"#, #"{"t":0.2,"event":"pressed","cell":[40,11]}"#,
            #"{"t":0.3,"event":"dragged","cell":[42,11]}"#, #"{"t":0.4,"event":"released","cell":[44,11]}"#,
            #"{"t":0.5,"event":"arrow","direction":"left","distance":1}"#,
            #"{"t":0.6,"event":"pressed","cell":[43,11]}"#, #"{"t":0.7,"event":"dragged","cell":[47,12]}"#,
            #"{"t":0.8,"event":"operator","name":"flatMap,debounce"}"#,
            #"{"t":0.9,"event":"dragged","cell":[49,12]}"#, #"{"t":1.0,"event":"released","cell":[49,12]}"#,
            #"{"t":1.1,"event":"pressed","cell":[50,12]}"#, #"{"t":1.3,"event":"quit"}"#,
        ]
        try Data((recording.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: file))
        let script = Self.root.appendingPathComponent("scripts/check_rxpy_marbles.py").path
        let right = try run([Self.python, script, programPath, file])
        #expect(right.status == 0, "\(right.output)\(right.error)")
        #expect(
            right.output.contains("; 4 inner lanes as RxPY's flat_map and flat_map_latest subscribe to the position"),
            "\(right.output)")
        // The lanes as written: flatMapLatest's first from its press to its release, three
        // positions; flatMap's second from its press to the quit's completion.
        let lanes = try run([programPath, "replay", file, "--marbles", "--syntax", "rxjs", "--frame", "1ms"]).output
            .split(separator: "\n").filter { $0.contains(#""lane":"inner "#) }
        #expect(lanes.count == 4, "\(lanes)")
        #expect(
            lanes.first?.contains(
                #""lane":"inner 1","syntax":"rxjs","frameMs":1,"subscription":" 200ms ^ 199ms !","subscribedFrame":200,"unsubscribedFrame":400,"marbles":" 200ms a 99ms b 99ms c""#
            )
                == true, "\(lanes)")
        #expect(
            lanes.last?.contains(
                #""lane":"inner 2","syntax":"rxjs","frameMs":1,"subscription":" 1100ms ^ 199ms !","subscribedFrame":1100,"unsubscribedFrame":1300,"marbles":" 1100ms a 199ms |""#
            )
                == true, "\(lanes)")
        // flat_map where flat_map_latest belongs: its inner is never disposed of at the release.
        let wrong = try run([
            Self.python, script, programPath, file, "--replace",
            "flatMapLatest=grabbed.pipe(ops.flat_map(lambda on: subject if on else reactivex.empty()))",
        ])
        #expect(wrong.status == 1, "\(wrong.output)\(wrong.error)")
        #expect(wrong.output.contains("inner lanes at --frame 1ms: subscription 0: "), "\(wrong.output)")
        // Inners ended by an error a timer set off, and one completed by a quit before it.
        for (recording, _, slotted) in Self.endedByATimer {
            try checkWritten(recording, slotted: slotted, in: file)
        }
    }

    /// Recordings on 80×24 (its corner: the centre at 70,17) where `debounce` between the head and
    /// `tryMap` holds the corner 100 ms before tryMap throws; each with its inner lane at
    /// --frame 1ms and how many events the slot's lane has.
    static let endedByATimer: [(recording: [String], inner: String, slotted: Int)] = {
        let header =
            #"{"format":"colourful-ball-replay","version":7,"terminal":{"columns":80,"rows":24},"colourRules":1}"#
        let corner = [
            header, #"{"t":0.1,"event":"pressed","cell":[40,11]}"#, #"{"t":0.2,"event":"dragged","cell":[70,17]}"#,
            #"{"t":0.4,"event":"operator","name":"flatMapLatest,debounce,tryMap","interval":100}"#,
        ]
        return [
            // The ball held in the corner as the pipe is built: its inner subscribes then (400),
            // handed the corner; the error, 100 ms later, disposes of it (500).
            (
                corner + [#"{"t":1.5,"event":"quit"}"#],
                #""subscription":" 400ms ^ 99ms !","subscribedFrame":400,"unsubscribedFrame":500,"marbles":" 400ms a 100ms ","values":{"a":{"cell":[70,17],"screen":[80,24]}}"#,
                3
            ),
            // A quit before the timer completes the position, and the inner with it, first (450).
            (
                corner + [#"{"t":0.45,"event":"quit"}"#],
                #""subscription":" 400ms ^ 49ms !","subscribedFrame":400,"unsubscribedFrame":450,"marbles":" 400ms a 49ms |","values":{"a":{"cell":[70,17],"screen":[80,24]}}"#,
                3
            ),
            // flatMap's inner outlives the release that drops the ball in the corner (400): the
            // error disposes of it (500).
            (
                [
                    header, #"{"t":0.1,"event":"operator","name":"flatMap,debounce,tryMap","interval":100}"#,
                    #"{"t":0.2,"event":"pressed","cell":[40,11]}"#, #"{"t":0.3,"event":"dragged","cell":[60,15]}"#,
                    #"{"t":0.4,"event":"released","cell":[70,17]}"#, #"{"t":1.5,"event":"quit"}"#,
                ],
                #""subscription":" 200ms ^ 299ms !","subscribedFrame":200,"unsubscribedFrame":500,"marbles":" 200ms a 99ms b 99ms c 100ms ","values":{"a":{"cell":[40,11],"screen":[80,24]},"b":{"cell":[60,15],"screen":[80,24]},"c":{"cell":[70,17],"screen":[80,24]}}"#,
                2
            ),
        ]
    }()

    @Test(
        "an inner subscription ended by an error debounce's timer set off is exported from the frame it subscribed at to the timer's, as Rx has it: not from the error's frame, not ended at flatMap's release; a quit before the timer completes it"
    )
    func innerEndedByATimersError() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("timer-\(getpid()).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        for (recording, inner, _) in Self.endedByATimer {
            try Data((recording.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: file))
            let lanes = try run([programPath, "replay", file, "--marbles", "--syntax", "rxjs", "--frame", "1ms"]).output
                .split(separator: "\n")
            let inners = lanes.filter { $0.contains(#""lane":"inner "#) }.map(String.init)
            #expect(
                inners == [#"{"lane":"inner 1","syntax":"rxjs","frameMs":1,"# + inner + "}"],
                "\(recording.dropFirst()): \(inners)")
        }
        // What the chain did: its head passed the corner on as the pipe was built, at 400.
        try Data((Self.endedByATimer[0].recording.joined(separator: "\n") + "\n").utf8)
            .write(to: URL(fileURLWithPath: file))
        let head = try run([programPath, "replay", file, "--marbles", "--syntax", "rxjs", "--frame", "1ms"]).output
            .split(separator: "\n").first { $0.contains(#""lane":"stage1""#) }
        #expect(head?.contains(#""marbles":" 400ms a"#) == true, "\(head ?? "no stage1")")
    }

    @Test(
        "an error as RxPY has it: tryMap in a corner ends the slot's lane and the colours' with #, which RxPY's parser reads as the error RxPY's map raising gives; a form that never throws fails; flatMap's two presses give each move twice, as RxPY's flat_map",
        .tags(.slow), .skippedInQuickRuns,
        .enabled(if: hasRxPY, "RxPY is not installed (scripts/setup --tests makes .build/rxpy with reactivex)"))
    func errorsAndFlatMapAsRxPYHasThem() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("error-\(getpid()).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        let header =
            #"{"format":"colourful-ball-replay","version":3,"terminal":{"columns":80,"rows":24},"colourRules":1}"#
        // 80×24: the centre goes from 9,5 to 70,17. Right 30 takes it to 70,11, down 6 to the
        // corner, 70,17: tryMap throws. Nothing after it reaches the colours, another operator
        // neither.
        let corner = [
            header, #"{"t":0.1,"event":"operator","name":"tryMap"}"#,
            #"{"t":0.2,"event":"arrow","direction":"right","distance":30}"#,
            #"{"t":0.3,"event":"arrow","direction":"down","distance":6}"#,
            #"{"t":0.4,"event":"arrow","direction":"left","distance":5}"#,
            #"{"t":0.5,"event":"operator","name":"none"}"#,
            #"{"t":0.6,"event":"arrow","direction":"up","distance":2}"#, #"{"t":0.7,"event":"quit"}"#,
        ]
        // The start, tryMap's position handed, the move right, then the error.
        try checkWritten(corner, slotted: 4, in: file)
        for syntax in ["rxpy", "rxjs"] {
            let lanes = try run([programPath, "replay", file, "--marbles", "--syntax", syntax]).output
            for lane in lanes.split(separator: "\n") where lane.contains(#""lane":"ballColour""#) {
                #expect(lane.contains("#"), "\(lane)")
            }
        }
        let script = Self.root.appendingPathComponent("scripts/check_rxpy_marbles.py").path
        let wrong = try run([Self.python, script, programPath, file, "--replace", "tryMap=subject"])
        #expect(wrong.status == 1, "\(wrong.output)\(wrong.error)")
        // catch, then catchAndReturn (by its Combine name, replaceError, as older files wrote it),
        // each in a corner: the last stage's own lane ends `|` where it passed the middle on and
        // completed (as RxPY's catch); slotted, switch_latest's output, does not end there (an
        // inner's completion is the inner's), only at the quit; a catch whose fallback never
        // completes gives a lane the exported one is not.
        let recovered = [
            #"{"format":"colourful-ball-replay","version":6,"terminal":{"columns":80,"rows":24},"colourRules":1}"#,
            #"{"t":0.1,"event":"operator","name":"tryMap,catch"}"#,
            #"{"t":0.2,"event":"arrow","direction":"right","distance":30}"#,
            #"{"t":0.3,"event":"arrow","direction":"down","distance":6}"#,
            #"{"t":0.4,"event":"arrow","direction":"left","distance":5}"#,
            #"{"t":0.5,"event":"arrow","direction":"up","distance":2}"#,
            #"{"t":0.6,"event":"operator","name":"tryMap,replaceError"}"#,
            #"{"t":0.7,"event":"arrow","direction":"down","distance":2}"#,
            #"{"t":0.8,"event":"arrow","direction":"right","distance":5}"#, #"{"t":0.9,"event":"quit"}"#,
        ]
        // The start, the pipe's 40,11, 70,11, then the middle; the next pipe's 65,15, 65,17, then
        // the middle; the quit's | (each pipe's own | is its last stage's lane's).
        try checkWritten(recovered, slotted: 8, in: file)
        let lanes = try run([programPath, "replay", file, "--marbles", "--syntax", "rxjs"]).output
        #expect(
            lanes.contains(
                #""lane":"slotted","syntax":"rxjs","framesPerIntent":5,"marbles":"a----a----b----a--------------c----d----a----|","#
            ), "\(lanes)")
        // tryMap's lanes end with its error, #, where it threw: RxPY's parser reads it (the check
        // above compared it with RxPY's own map raising).
        let thrown = lanes.split(separator: "\n").filter { $0.contains(#""lane":"stage1""#) }
        #expect(thrown.count == 2 && thrown.allSatisfy { $0.contains(#"#","values""#) }, "\(thrown)")
        // Each pipe's recovery a lane of its own, each subscribed where its pipe was built.
        let recoveries = lanes.split(separator: "\n").filter { $0.contains(#""lane":"stage2""#) }
        #expect(recoveries.count == 2, "\(lanes)")
        #expect(
            recoveries.first?.contains(
                #""operator":"catch","code":".catch { _ in .just(.centred(on: screen)) }","subscription":"-----^---------!","subscribedFrame":5,"unsubscribedFrame":15,"marbles":"-----a----b----(a|)","#
            ) == true, "\(recoveries)")
        #expect(
            recoveries.last?.contains(
                #""subscribedFrame":30,"unsubscribedFrame":40,"marbles":"------------------------------a----b----(c|)","#
            ) == true, "\(recoveries)")
        let never = try run([
            Self.python, script, programPath, file, "--replace",
            "catch=upstream.pipe(ops.catch(lambda error, source: reactivex.concat(reactivex.just(centre_of(subject.value)), reactivex.never())))",
        ])
        #expect(never.status == 1, "\(never.output)\(never.error)")
        #expect(
            never.output.contains("stage lanes at --frame 1ms: subscription 1: exported (100, 'stage2', 300,")
                && never.output.contains("(300, '|')]), RxPY's pipe of the stages up to it gave (100, 'stage2', 600,"),
            "\(never.output)")
        // flatMap: a press and its release, a key move (once), a second press, a key move (twice);
        // with the start's and the quit's completion, seven.
        try checkWritten(
            [
                header, #"{"t":0.1,"event":"operator","name":"flatMap"}"#,
                #"{"t":0.2,"event":"pressed","cell":[40,11]}"#, #"{"t":0.3,"event":"released","cell":[40,11]}"#,
                #"{"t":0.4,"event":"arrow","direction":"left","distance":1}"#,
                #"{"t":0.5,"event":"pressed","cell":[39,11]}"#,
                #"{"t":0.6,"event":"arrow","direction":"left","distance":1}"#, #"{"t":0.7,"event":"quit"}"#,
            ], slotted: 7, in: file)
    }

    @Test(
        "flatMap,tryMap,retry released in a corner: the corner, then grabbed's false; retry subscribes anew at once, grabbed still true, so all three are handed the corner and # ends the slot's lane there, as RxSwift's retry (a port in the check); RxPY's own retry, which subscribes anew after the frame's other inputs, and a retry of two fail",
        .tags(.slow), .skippedInQuickRuns,
        .enabled(if: hasRxPY, "RxPY is not installed (scripts/setup --tests makes .build/rxpy with reactivex)"))
    func retryAtARelease() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("retry-\(getpid()).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        // 80×24: a press on the ball (40,11), its release at the bottom right, which takes the
        // ball to the corner, 70,17, and ends the grab in one intent (TEST_SEED=14819433467339799110
        // of rxpyReadsTheLanes found it); a key move, which nothing passes on after the error.
        let recording = [
            #"{"format":"colourful-ball-replay","version":7,"terminal":{"columns":80,"rows":24},"colourRules":1}"#,
            #"{"t":0.1,"event":"operator","name":"flatMap,tryMap,retry"}"#,
            #"{"t":0.2,"event":"pressed","cell":[40,11]}"#, #"{"t":0.3,"event":"released","cell":[79,23]}"#,
            #"{"t":0.4,"event":"arrow","direction":"left","distance":5}"#, #"{"t":0.5,"event":"quit"}"#,
        ]
        // The start, the press's 40,11, then the error at the release.
        try checkWritten(recording, slotted: 3, in: file)
        let lanes = try run([programPath, "replay", file, "--marbles", "--syntax", "rxjs"]).output
            .split(separator: "\n")
        // flatMap's lanes, one a subscription: the pipe's, the press's 40,11 and the corner, then
        // cancelled by tryMap's error; then each subscription retry made anew, handed the corner and
        // cancelled by its error at once.
        let flatMapped = lanes.filter { $0.contains(#""lane":"stage1""#) }
        #expect(flatMapped.count == 3, "\(flatMapped)")
        #expect(
            flatMapped.first?.contains(
                #""subscription":"-----^---------!","subscribedFrame":5,"unsubscribedFrame":15,"marbles":"----------a----b----""#
            )
                == true, "\(flatMapped)")
        #expect(flatMapped.first?.contains(#""b":{"cell":[70,17],"screen":[80,24]}"#) == true, "\(flatMapped)")
        for again in flatMapped.dropFirst() {
            #expect(
                again.contains(
                    #""subscription":"---------------(^!)","subscribedFrame":15,"unsubscribedFrame":15,"marbles":"---------------a----""#
                ), "\(again)")
            #expect(again.contains(#""a":{"cell":[70,17],"screen":[80,24]}"#), "\(again)")
        }
        // tryMap's: the pipe's, then each retry's, each ending with its error.
        let thrown = lanes.filter { $0.contains(#""lane":"stage2""#) }
        #expect(thrown.count == 3 && thrown.allSatisfy { $0.contains("#\",\"values\"") }, "\(thrown)")
        let slotted = try #require(lanes.first { $0.contains(#""lane":"slotted""#) })
        #expect(slotted.contains(#""marbles":"a---------a----#""#), "\(slotted)")
        let script = Self.root.appendingPathComponent("scripts/check_rxpy_marbles.py").path
        for wrong in ["retry=upstream.pipe(ops.retry(3))", "retry=upstream.pipe(retry_now(2))"] {
            let checked = try run([Self.python, script, programPath, file, "--replace", wrong])
            #expect(checked.status == 1, "\(wrong): \(checked.output)\(checked.error)")
            #expect(checked.output.contains("stage lanes at --frame 1ms: subscription "), "\(wrong): \(checked.output)")
        }
    }

    @Test(
        "flatMap,tryMap,retry released in a corner: each subscription anew makes an inner subscription, handed the corner and disposed of by its error at once, (^!), numbered on; the press's ends there too; RxPY's flat_map under retry_now makes the same three",
        .enabled(if: hasRxPY, "RxPY is not installed (scripts/setup --tests makes .build/rxpy with reactivex)"))
    func retryInners() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("retry-inners-\(getpid()).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        // As retryAtARelease: the press on the ball (intent 2), the release in the corner (3).
        let recording = [
            #"{"format":"colourful-ball-replay","version":7,"terminal":{"columns":80,"rows":24},"colourRules":1}"#,
            #"{"t":0.1,"event":"operator","name":"flatMap,tryMap,retry"}"#,
            #"{"t":0.2,"event":"pressed","cell":[40,11]}"#, #"{"t":0.3,"event":"released","cell":[79,23]}"#,
            #"{"t":0.4,"event":"arrow","direction":"left","distance":5}"#, #"{"t":0.5,"event":"quit"}"#,
        ]
        try Data((recording.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: file))
        let exported = try run([programPath, "replay", file, "--marbles", "--syntax", "rxpy"]).output
        let inners = try exported.split(separator: "\n").filter { $0.hasPrefix(#"{"lane":"inner "#) }.map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        let frames = try #require(inners.first?["framesPerIntent"] as? Int)
        let (press, release) = (2 * frames, 3 * frames)
        #expect(inners.map { $0["lane"] as? String } == ["inner 1", "inner 2", "inner 3"], "\(exported)")
        #expect(inners.map { $0["subscribedFrame"] as? Int } == [press, release, release], "\(exported)")
        #expect(inners.map { $0["unsubscribedFrame"] as? Int } == [release, release, release], "\(exported)")
        for inner in inners.dropFirst() {
            #expect((inner["subscription"] as? String)?.hasSuffix("(^!)") == true, "\(inner)")
            // Handed the corner as it subscribed.
            let values = try #require(inner["values"] as? [String: [String: [Int]]])
            #expect(values.values.map { $0["cell"] } == [[70, 17]], "\(inner)")
        }
        // The text draws them as the panel does, each ^ and ! in the release's column.
        let text = try run([programPath, "replay", file, "--marbles"]).output.split(separator: "\n")
        for number in 2...3 {
            let row = try #require(text.first { $0.hasPrefix(" inner \(number) ") }, "\(text)")
            #expect(row.hasSuffix("^c!") || row.hasSuffix("^b!"), "\(row)")
        }
        #expect(text.first { $0.hasPrefix(" inner 1 ") }?.hasSuffix("!") == true, "\(text)")
        let checked = try run([
            Self.python, Self.root.appendingPathComponent("scripts/check_rxpy_marbles.py").path, programPath, file,
        ])
        #expect(checked.status == 0, "\(checked.output)\(checked.error)")
        #expect(
            checked.output.contains("; 3 inner lanes as RxPY's flat_map and flat_map_latest subscribe to the position"),
            "\(checked.output)")
    }

    @Test(
        "flatMapLatest,debounce(100ms),tryMap dragged into a corner: the press's inner subscription ends where debounce's timer hands tryMap the corner and its error disposes of the pipe, 100 ms after the drag, as RxPY's flat_map_latest under debounce ends it",
        .enabled(if: hasRxPY, "RxPY is not installed (scripts/setup --tests makes .build/rxpy with reactivex)"))
    func innerEndsAtATimersError() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("timer-inner-\(getpid()).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        // The press on the ball at 200 ms, the drag into the corner at 300 ms (the inner passes it
        // on; debounce holds it), its timer at 400 ms (tryMap throws), then a move and a quit.
        let recording = [
            #"{"format":"colourful-ball-replay","version":7,"terminal":{"columns":80,"rows":24},"colourRules":1}"#,
            #"{"t":0.1,"event":"operator","name":"flatMapLatest,debounce,tryMap","interval":100}"#,
            #"{"t":0.2,"event":"pressed","cell":[40,12]}"#, #"{"t":0.3,"event":"dragged","cell":[79,0]}"#,
            #"{"t":0.6,"event":"arrow","direction":"left","distance":5}"#, #"{"t":0.7,"event":"quit"}"#,
        ]
        try Data((recording.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: file))
        let exported = try run([programPath, "replay", file, "--marbles", "--syntax", "rxpy", "--frame", "1ms"]).output
        let inner = try #require(
            exported.split(separator: "\n").first { $0.hasPrefix(#"{"lane":"inner 1""#) }.map { line in
                try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            } ?? nil, "\(exported)")
        #expect(inner["subscribedFrame"] as? Int == 200, "\(inner)")
        #expect(inner["unsubscribedFrame"] as? Int == 400, "\(inner)")
        let slotted = try #require(exported.split(separator: "\n").first { $0.hasPrefix(#"{"lane":"slotted""#) })
        #expect(slotted.contains(#""marbles":"a"# + String(repeating: "-", count: 399) + "#"), "\(slotted)")
        let checked = try run([
            Self.python, Self.root.appendingPathComponent("scripts/check_rxpy_marbles.py").path, programPath, file,
        ])
        #expect(checked.status == 0, "\(checked.output)\(checked.error)")
        #expect(
            checked.output.contains("; 1 inner lanes as RxPY's flat_map and flat_map_latest subscribe to the position"),
            "\(checked.output)")
    }

    @Test(
        "after an error, a late subscriber to the shared chain gets the last value and the error at once, for ever: RxPY's replay(1) connected at once, not RxSwift's default share's re-run",
        .enabled(if: hasRxPY, "RxPY is not installed (scripts/setup --tests makes .build/rxpy with reactivex)"))
    func lateSubscriberAfterAnError() throws {
        let screen = ScreenSize(columns: 80, rows: 24)
        let session = BallSession(screen: screen)
        session.send(.operatorChosen([.tryMap]))
        var positions = [session.state.position]
        var late: [[String]] = []
        // Right to 70,11; down into the corner, 70,17, where tryMap throws; left out of it, 60,17.
        for intent: Intent in [
            .arrowPressed(.right, distance: 30), .arrowPressed(.down, distance: 6), .arrowPressed(.left, distance: 10),
        ] {
            session.send(intent)
            positions.append(session.state.position)
            var got: [String] = []
            let subscription = session.viewModel.slotted.bind(
                onNext: { got.append(SlotMoment.cell($0.position!)) }, onError: { _ in got.append("#") })
            subscription.cancel()
            late.append(got)
        }
        #expect(late == [["70,11"], ["70,11", "#"], ["70,11", "#"]])
        let moves = positions.map {
            #"{"cell":[\#($0.centre.column),\#($0.centre.row)],"screen":[\#(screen.columns),\#(screen.rows)]}"#
        }
        let checked = try run([
            Self.python, Self.root.appendingPathComponent("scripts/check_rxpy_share.py").path, "80", "24",
            "[" + moves.joined(separator: ",") + "]",
        ])
        #expect(checked.status == 0, "\(checked.error)")
        let rxpy = try #require(try JSONSerialization.jsonObject(with: Data(checked.output.utf8)) as? [String: [[Any]]])
        // Each late subscriber's values as cells (`70,11`), and `#` for the error.
        func cells(_ way: String) -> [[String]] {
            (rxpy[way] ?? []).map { got in
                got.map { (($0 as? [String: Any])?["cell"] as? [Int]).map { "\($0[0]),\($0[1])" } ?? "#" }
            }
        }
        #expect(cells("replay") == late, "RxPY's replay(1), connected at once: \(checked.output)")
        // RxSwift's default scope, .whileConnected, would run the chain anew for each: the error
        // again in the corner, and the position out of it.
        #expect(cells("rerun") == [["70,11"], ["#"], ["60,17"]], "\(checked.output)")
    }

    /// Writes `lines` (a recording) to `file` and checks it with RxPY: every lane as the trace
    /// has it, and the slot's `slotted` events as RxPY's own operators give them.
    private func checkWritten(_ lines: [String], slotted: Int, in file: String) throws {
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: file))
        let checked = try run([
            Self.python, Self.root.appendingPathComponent("scripts/check_rxpy_marbles.py").path, programPath, file,
        ])
        #expect(checked.status == 0, "\(checked.output)\(checked.error)")
        #expect(
            checked.output.contains("slotted's \(slotted) events at --frame 1ms as RxPY's operators give them"),
            "\(checked.output)")
    }

    @Test(
        "a recorded tour's export reads in RxPY: its lessons listed where they began, and Completion's late lanes after e as RxPY's own subjects give them, at a frame an intent and at --frame 1ms, each subscription at its own time",
        .tags(.slow), .skippedInQuickRuns,
        .enabled(if: hasRxPY, "RxPY is not installed (scripts/setup --tests makes .build/rxpy with reactivex)"))
    func recordedTourReadsInRxPY() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("tour-\(getpid()).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        // Publish's lesson with a late Publish subscriber and a move, then Completion: a move, e,
        // and the four late subscribers after it (r asks the Replay lesson's question first: 3
        // answers it); each key 50 ms after the last.
        let tour = try RecordedTour(first: Lesson.all.firstIndex { $0.id == "publish" }!)
        let completion = "\(Lesson.all.firstIndex { $0.id == "completion" }! + 1)".unicodeScalars
        for key in ["1", "p", "→", "m"] + completion + ["2", "→", "e", "b", "p", "r", "3", "v", "q"] {
            tour.pilot.pass(.milliseconds(50))
            if key == "→" { tour.pilot.press(.right) } else { tour.pilot.type(key) }
        }
        let lines = tour.file.lines
        #expect(lines.contains { $0.contains(#""event":"completed""#) }, "\(lines)")
        try Data(tour.file.bytes).write(to: URL(fileURLWithPath: file))
        let checked = try run([
            Self.python, Self.root.appendingPathComponent("scripts/check_rxpy_marbles.py").path, programPath, file,
        ])
        #expect(checked.status == 0, "\(checked.output)\(checked.error)\n\(lines.joined(separator: "\n"))")
        let lessons = lines.filter { $0.contains(#""event":"lesson""#) }.count
        let subscribed = lines.filter { $0.contains(#""event":"subscribed""#) }.count
        #expect(lessons == 2 && subscribed == 5, "\(lines.joined(separator: "\n"))")
        #expect(
            checked.output.contains(
                "; \(subscribed) late lanes as RxPY's subjects give them (\(subscribed) at --frame 1ms, each subscription at its own time)"
            ), "\(checked.output)")
        #expect(checked.output.contains("; \(lessons) lessons listed where they began"), "\(checked.output)")
    }

    @Test(
        "a recorded Why Behavior's o exports the Publish copy's three lanes, each as RxPY's own Subject, map, distinct_until_changed and scan give it",
        .tags(.slow), .skippedInQuickRuns,
        .enabled(if: hasRxPY, "RxPY is not installed (scripts/setup --tests makes .build/rxpy with reactivex)"))
    func publishCopyReadsInRxPY() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("copy-\(getpid()).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        // The guess, o, three moves (from 40,3 the first and the third keep the ball's colour:
        // the chain swallows the first, the copy passes it on, its first value, and swallows the
        // third), o back; a move; o and o back between two moves (a copy subscribed and disposed
        // of in one intent's frame); o, a move down, and the quit with the copy still bound. Each
        // key 50 ms after the last.
        let tour = try RecordedTour(first: Lesson.all.firstIndex { $0.id == "why-behavior" }!)
        for key in ["2", "o", "→", "→", "→", "o", "→", "o", "o", "→", "o", "↓", "q"] {
            tour.pilot.pass(.milliseconds(50))
            switch key {
            case "→": tour.pilot.press(.right)
            case "↓": tour.pilot.press(.down)
            default: tour.pilot.type(key.unicodeScalars.first!)
            }
        }
        let lines = tour.file.lines
        let bound = lines.filter { $0.contains(#""through":"publish""#) }.count
        #expect(bound == 3, "\(lines.joined(separator: "\n"))")
        try Data(tour.file.bytes).write(to: URL(fileURLWithPath: file))
        let exported = try run([programPath, "replay", file, "--marbles", "--syntax", "rxpy"])
        let copies = exported.output.split(separator: "\n").filter { $0.hasPrefix(#"{"lane":"copy."#) }
        #expect(copies.count == 3 * bound, "\(exported.output)")
        let checked = try run([
            Self.python, Self.root.appendingPathComponent("scripts/check_rxpy_marbles.py").path, programPath, file,
        ])
        #expect(checked.status == 0, "\(checked.output)\(checked.error)\n\(lines.joined(separator: "\n"))")
        #expect(
            checked.output.contains(
                "; \(bound) Publish copies' lanes as RxPY's Subject, map, distinct_until_changed and scan give them"),
            "\(checked.output)")
    }

    @Test(
        "the same recording exports the same bytes every time: late lanes that end together, at the quit, in the order they subscribed",
        .tags(.slow), .skippedInQuickRuns
    )
    func deterministic() throws {
        // Four late subscribers, all ended by the quit's completion (the relay's never ends):
        // the subjects tell them of it in an order that varies from process to process.
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("late-\(getpid()).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        try [
            #"{"format":"colourful-ball-replay","version":3,"terminal":{"columns":80,"rows":24},"colourRules":1}"#,
            #"{"t":0.1,"event":"subscribed","subject":"replay"}"#,
            #"{"t":0.2,"event":"arrow","direction":"left","distance":1}"#,
            #"{"t":0.3,"event":"subscribed","subject":"behavior"}"#,
            #"{"t":0.4,"event":"subscribed","subject":"relay"}"#,
            #"{"t":0.5,"event":"subscribed","subject":"publish"}"#,
            #"{"t":0.6,"event":"arrow","direction":"up","distance":1}"#, #"{"t":0.7,"event":"quit"}"#,
        ].joined(separator: "\n").appending("\n").write(toFile: file, atomically: true, encoding: .utf8)
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_DETERMINISTIC_HASHING"] = nil
        for (syntax, frame) in [("rxjs", nil), ("rxpy", nil), ("rxjs", "1ms"), ("rxpy", "1ms")] {
            var outputs: [String: Int] = [:]
            for _ in 0..<20 {
                let result = try run(
                    [programPath, "replay", file, "--marbles", "--syntax", syntax]
                        + (frame.map { ["--frame", $0] } ?? []),
                    environment: environment)
                #expect(result.status == 0, "\(result.error)")
                outputs[result.output, default: 0] += 1
            }
            #expect(outputs.count == 1, "\(syntax): \(outputs.count) different outputs in 20 runs")
            let kinds = outputs.keys.first!.split(separator: "\n").compactMap { (line: Substring) -> String? in
                guard let label = line.firstRange(of: #""lane":"late "#) else { return nil }
                return String(line[label.upperBound...].prefix { $0 != "\"" })
            }
            // The three that complete end at the quit, written in the order they subscribed; the
            // relay, which never completes, is still subscribed at the end.
            #expect(kinds == ["Replay(3)", "Behavior", "Publish", "Relay"], "\(syntax): \(kinds)")
        }
    }

    @Test(
        "--frame: every event in the frame of its own time, the frame's length on each lane, RxJS's quiet in its time-progression form, the slot's inputs beside"
    )
    func timeFrames() throws {
        let rxjs = try run([programPath, "replay", Self.sample, "--marbles", "--syntax", "rxjs", "--frame", "10ms"])
        #expect(rxjs.status == 0, "\(rxjs.error)")
        let lanes = rxjs.output.split(separator: "\n").map(String.init)
        let labels = lanes.map { $0.dropFirst(#"{"lane":""#.count).prefix { $0 != "\"" } }
        #expect(
            labels == [
                "intents", "position", "slotted", "ballColour", "background", "mirror", "grabbed", "mouse", "keys",
            ])
        // The start at 0; 41,12 dragged at 494.914 ms, frame 49; 43,12 at 553.8 ms, frame 55; …;
        // the three arrows at 887.983, 888.062 and 888.073 ms, one frame: a group; the quit at
        // 1093.492 ms, frame 109.
        #expect(
            lanes[1].hasPrefix(
                #"{"lane":"position","syntax":"rxjs","frameMs":10,"marbles":"a 48ms b-----c----d-----e----f-----g----h-----(igj) 16ms |""#
            ),
            "\(lanes[1])")
        // grabbed's true and false are their own marks, T and F, as the panel draws them.
        #expect(lanes[6].contains(#""marbles":"F 48ms T 38ms F 20ms |","values":{"F":false,"T":true}"#), "\(lanes[6])")
        #expect(lanes[8].contains(#""marbles":" 88ms (abc) 16ms |""#), "\(lanes[8])")
        // RxPY's syntax has no time progression: a `-` a frame, 1 ms each.
        let rxpy = try run([programPath, "replay", Self.sample, "--marbles", "--syntax", "rxpy", "--frame", "1ms"])
        let position = rxpy.output.split(separator: "\n")[1]
        #expect(
            position.hasPrefix(
                #"{"lane":"position","syntax":"rxpy","frameMs":1,"marbles":"a"# + String(repeating: "-", count: 493)
                    + "b" + String(repeating: "-", count: 58) + "c"))
        // 52,12 at 887.983 ms, frame 887; 51,12 and 51,7 in frame 888, a group right after it (RxPY
        // would read `ig` as one value); the quit in frame 1093.
        #expect(position.contains("i(g,j)" + String(repeating: "-", count: 1093 - 888 - 5) + "|"), "\(position)")
        let fraction = try run([
            programPath, "replay", Self.sample, "--marbles", "--syntax", "rxpy", "--frame", "250us",
        ])
        #expect(
            fraction.output.hasPrefix(#"{"lane":"intents","syntax":"rxpy","frameMs":0.25,"#),
            "\(fraction.output.prefix(80))")
    }

    @Test("--frame: a lane whose events are closer than the syntax can write them is refused in one sentence, exit 65")
    func crowdedFrames() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("crowded-\(getpid()).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        // Two arrows in frame 1 (a group of two, four frames in RxJS's syntax), one in frame 2.
        try [
            #"{"format":"colourful-ball-replay","version":3,"terminal":{"columns":80,"rows":24},"colourRules":1}"#,
            #"{"t":0.11,"event":"arrow","direction":"left","distance":1}"#,
            #"{"t":0.15,"event":"arrow","direction":"left","distance":1}"#,
            #"{"t":0.21,"event":"arrow","direction":"left","distance":1}"#,
        ].joined(separator: "\n").appending("\n").write(toFile: file, atomically: true, encoding: .utf8)
        let crowded = try run([programPath, "replay", file, "--marbles", "--syntax", "rxjs", "--frame", "100ms"])
        #expect(crowded.status == 65)
        #expect(
            crowded.error
                == "colourful-ball: The intents lane has events at 0.110 s and 0.210 s, closer than rxjs's marbles can write them on frames of 100 ms (a value takes a frame, a group a frame a character): export with a shorter --frame, such as --frame 100us, or without --frame (a frame an intent).\n",
            "\(crowded.error)")
        let fine = try run([programPath, "replay", file, "--marbles", "--syntax", "rxjs", "--frame", "10ms"])
        #expect(fine.status == 0, "\(fine.error)")
    }

    @Test(
        "--frame takes a length of time with its unit; anything else, and --frame without --syntax, is refused in one sentence, exit 64",
        arguments: ["0ms", "1", "ms", "-1ms", "1.5us", "2h", "3601s", "", "1e3ms", " 1ms", "0.0001ms"])
    func badFrames(frame: String) throws {
        let result = try run([programPath, "replay", Self.sample, "--marbles", "--syntax", "rxpy", "--frame", frame])
        #expect(result.status == 64)
        #expect(
            result.error.contains("--frame must be a length of time with its unit, from 1us to 3600s"),
            "\(result.error)")
        let alone = try run([programPath, "replay", Self.sample, "--marbles", "--frame", "1ms"])
        #expect(
            alone.status == 64
                && alone.error.contains("--frame goes with --marbles --syntax rxjs|rxpy or --marbles --svg FILE"))
    }

    @Test("no room for the lanes aside, or for the output: one sentence, status 74, nothing left behind")
    func noRoom() throws {
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = "/nonexistent-\(getpid())"
        let aside = try run(
            [programPath, "replay", Self.sample, "--marbles", "--syntax", "rxjs"], environment: environment)
        #expect(aside.status == 74)
        #expect(
            aside.error.hasPrefix(
                "colourful-ball: Cannot make a temporary file for the lanes in /nonexistent-\(getpid()) (No such file or directory): set TMPDIR"
            ), "\(aside.error)")
        let full = try run(
            [programPath, "replay", Self.sample, "--marbles", "--syntax", "rxpy"], stdout: .file("/dev/full"))
        #expect(full.status == 74 && full.error.contains("No space left on device"), "\(full.error)")
    }

    @Test("--syntax goes with --marbles, and not with --width; an unknown syntax is named")
    func misuse() throws {
        for (arguments, message) in [
            (["--syntax", "rxjs"], "--syntax goes with --marbles (got rxjs)."),
            (["--marbles", "--syntax", "rxjs", "--width", "40"], "--width sets the blocks of the drawing"),
            (["--marbles", "--syntax", "rxswift"], "rxswift"),
        ] {
            let result = try run([programPath, "replay", Self.sample] + arguments)
            #expect(result.status != 0 && result.error.contains(message), "\(arguments): \(result.error)")
        }
    }
}
