import OpenCombine

/// `sample`: the latest position goes through each time `mirror` sends a value, if a new one
/// came since the last: as it subscribes (RxSwift's `SampleSequenceSink.run` subscribes to the
/// source, then to the sampler, and `mirror`, a Behavior subject, hands the new subscription its
/// value at once), then at each flip; so after that the colour changes only when the learner
/// flips it. Combine has no `sample`: ours is in `Operators.swift`.
package struct SampleOperation: SlotOperation {
    package let name = "sample"
    package let key: Unicode.Scalar = "7"
    package let code = "position.sample(mirror)"
    package let words =
        "the latest position, if new, each time mirror sends: as sample subscribes (it hands its value), then at each flip (i)"
    /// Mirror's value as it subscribes is what the Behavior lesson asks a late subscriber gets.
    package let wordsTellWhatBehaviorHands = true
    package let rxpy = "upstream.pipe(ops.sample(mirror))"
    package let benchIdle = (keys: "hhihhi", after: "after moves and flips", settle: 0.5)
    package let inputs: [SlotInput] = [.position, .mirror]

    package let takes: SlotValueKind? = nil

    /// A chain built part-way is given what it holds first, and the mirror's value as it
    /// subscribes samples nothing.
    package func applied(
        to upstream: AnyPublisher<SlotOutput, Never>, inputs: SlotInputs, resuming: SlotResume?
    ) -> AnyPublisher<SlotOutput, Never> {
        guard let resuming else { return upstream.sample(inputs.mirror).eraseToAnyPublisher() }
        let held = resuming.stage.heldSince == nil ? nil : resuming.latest
        return (held.map { upstream.prepend($0).eraseToAnyPublisher() } ?? upstream).sample(inputs.mirror.dropFirst())
            .eraseToAnyPublisher()
    }

    /// Holds each new value (from the first one's time) and passes on the latest when the
    /// mirror flips, if one came since it last passed one on; built, it passes on at once what it
    /// is handed (the mirror's value samples it as it subscribes); at a quit it passes on what it
    /// holds, as the mirror completes after the position; after that, nothing.
    package func step(_ stage: inout SlotStage, _ step: SlotStep) -> SlotOutput? {
        // At a quit after `merge` or `flatMap`, what is handed comes after the mirror completed
        // (a debounce before it hands on what it held as they complete): never sampled.
        if step.sessionEnds, step.upstreamOutlivesMirror, stage.heldSince == nil { return nil }
        var passed: SlotOutput?
        if step.handed != nil, step.built {
            passed = step.handed
        } else if step.handed != nil, stage.heldSince == nil {
            stage.heldSince = step.time
        }
        if step.sessionEnds || step.flipped, stage.heldSince != nil {
            // After `merge` or `flatMap` the mirror completes first: it samples what was held
            // before anything handed at the quit (a debounce's last value) came.
            passed = step.sessionEnds && step.upstreamOutlivesMirror ? step.latestBefore : step.latest
            stage.heldSince = nil
        }
        return passed
    }

    /// Completes when the mirror completes after what it is handed did (at a quit); a value
    /// handed after the mirror completed is never sampled, nor its completion: after `merge` or
    /// `flatMap`, whose inputs complete after the mirror, it never completes (RxSwift's
    /// `SamplerSink` completes only at a sample after its source's end).
    package func ends(_ stage: SlotStage, _ step: SlotStep) -> Bool {
        step.sessionEnds && !step.upstreamOutlivesMirror
    }

    package func passedWords(_ moment: SlotMoment, _ passed: SlotOutput) -> (String, String?)? {
        guard let position = passed.position else { return nil }
        let cell = SlotMoment.marble(position)
        switch moment.intent {
        case .operatorChosen?:
            return (
                "\(cell): sample chosen, subscribed to position (handed it) and then to mirror, which hands sample alone its value (mirror's lane: nothing new sent), and that samples it at once",
                "\(cell), sampled at once by mirror's value"
            )
        case .mirrorFlipped?:
            return ("\(cell): the mirror flipped, so sample passes on the latest position", "\(cell), sampled")
        default:
            return (
                "\(cell): position completed, then mirror, so sample passes on the latest it held",
                "\(cell), at the end"
            )
        }
    }

    package func quietWords(_ moment: SlotMoment) -> (String, String?)? {
        guard moment.intent == .mirrorFlipped else { return nil }
        return (
            "nothing: the mirror flipped, but no new position came since sample last passed one on",
            "nothing new to sample"
        )
    }

    package func heldWords(_ moment: SlotMoment, seen position: BallPosition) -> (String, String?) {
        let cell = SlotMoment.cell(position)
        return ("sample: \(cell) held until the mirror flips (i)", "held: \(cell)")
    }
}

extension SlotOperator {
    /// `sample` (``SampleOperation``).
    package static let sample = SlotOperator(SampleOperation())
}
