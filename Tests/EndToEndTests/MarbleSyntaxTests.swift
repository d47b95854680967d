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

    @Test("the sample in RxJS's syntax: a letter a value, five frames an intent, (l|) the quit and its completion")
    func rxjsSample() throws {
        let result = try run([programPath, "replay", Self.sample, "--marbles", "--syntax", "rxjs"])
        #expect(result.status == 0, "\(result.error)")
        let lanes = result.output.split(separator: "\n").map(String.init)
        #expect(lanes.count == 5)
        #expect(
            lanes[1]
                == #"{"lane":"position","syntax":"rxjs","framesPerIntent":5,"marbles":"a---------b----c----d----e----f----g----h---------i----g----j----|","values":{"a":{"cell":[40,11],"screen":[80,24]},"b":{"cell":[41,12],"screen":[80,24]},"c":{"cell":[43,12],"screen":[80,24]},"d":{"cell":[45,12],"screen":[80,24]},"e":{"cell":[47,12],"screen":[80,24]},"f":{"cell":[49,12],"screen":[80,24]},"g":{"cell":[51,12],"screen":[80,24]},"h":{"cell":[53,12],"screen":[80,24]},"i":{"cell":[52,12],"screen":[80,24]},"j":{"cell":[51,7],"screen":[80,24]}}}"#
        )
        #expect(
            lanes[0].contains(#""marbles":"-----a----b----c----d----e----f----g----h----i----j----j----k----(l|)""#))
        #expect(lanes[0].contains(#""l":{"event":"quit"}"#))
        // With nothing in the slot, it passes every position on.
        #expect(lanes[2] == lanes[1].replacingOccurrences(of: #""lane":"position""#, with: #""lane":"slotted""#))
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
        "RxPY's parser reads every lane of fresh random recordings as the headless trace has them, the slot's as RxPY's own filter, map, debounce, combine_latest, sample, flat_map_latest, map then scan (the counter), merge, skip then start_with and switch_latest (and a reference model of throttle) give it on the recording's own times, and each late lane as RxPY's own subject of its kind gives it",
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
        #expect(values.contains(#""c":1,"d":2,"e":3,"f":4,"g":5"#), "\(values)")
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
        for _ in 0..<6 {
            // A recording ends with its quit; half of them lose it (a session that never quit).
            var lines = String(
                decoding: RandomRecording.bytes(
                    count: 1 + generator.below(400), observations: true, operators: true, using: &generator),
                as: UTF8.self
            )
            .split(separator: "\n").map(String.init)
            if Bool.random(using: &generator) { lines.removeLast() }
            let bytes = Array(lines.map { $0 + "\n" }.joined().utf8)
            try Data(bytes).write(to: URL(fileURLWithPath: file))
            let checked = try run([
                Self.python, Self.root.appendingPathComponent("scripts/check_rxpy_marbles.py").path, programPath, file,
            ])
            #expect(checked.status == 0, "\(generator): \(checked.output)\(checked.error)")
        }
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
            checked.output.contains("slotted's \(slotted) events as RxPY's operators give them"), "\(checked.output)")
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
        for syntax in ["rxjs", "rxpy"] {
            var outputs: [String: Int] = [:]
            for _ in 0..<20 {
                let result = try run(
                    [programPath, "replay", file, "--marbles", "--syntax", syntax], environment: environment)
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
