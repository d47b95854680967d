import OpenCombine

/// `sample`: the latest position goes through each time `mirror` sends a value (a flip), if a
/// new one came since the last; so the colour changes only when the learner flips it.
package struct SampleOperation: SlotOperation {
    package let name = "sample"
    package let key: Unicode.Scalar = "7"
    package let code = "position.sample(mirror)"
    package let words = "the latest position, each time the mirror flips (i)"
    package let rxpy = "subject.pipe(ops.sample(mirror))"
    package let benchIdle = (keys: "hhihhi", after: "after moves and flips", settle: 0.5)
    package let inputs: [SlotInput] = [.position, .mirror]

    package func applied(to inputs: SlotInputs, resuming: BallState?) -> AnyPublisher<SlotOutput, Never> {
        inputs.position.sample(inputs.mirror).map(SlotOutput.position).eraseToAnyPublisher()
    }

    /// Holds each new position (from the first one's time) and passes on the latest when the
    /// mirror flips, if one came since it last passed one on; chosen, it passes the current
    /// position on at once (the mirror's value samples it as it subscribes); at a quit it passes
    /// on what it holds, as the mirror completes after the position.
    package func step(_ next: inout BallState, from state: BallState, by intent: Intent, handed: Bool) {
        if intent.endsSession || intent == .mirrorFlipped, state.heldSince != nil {
            next.slotted = .position(next.position)
            next.heldSince = nil
        }
        guard handed else { return }
        if intent.choosesOperator {
            next.slotted = .position(next.position)
        } else if next.heldSince == nil {
            next.heldSince = state.time
        }
    }

    /// Holding a position: handed the one it last passed on (which the mirror's value samples at
    /// once as it subscribes), then sent the position now (held until the mirror flips).
    package func warmUp(_ state: BallState) -> SlotWarmUp {
        guard state.heldSince != nil, let passed = state.slotted.position else { return SlotWarmUp() }
        return SlotWarmUp([(state.time, passed), (state.time, state.position)])
    }

    package func passedWords(_ moment: SlotMoment, _ passed: SlotOutput) -> (String, String?)? {
        guard let position = passed.position else { return nil }
        let cell = SlotMoment.marble(position)
        switch moment.intent {
        case .operatorChosen?:
            return (
                "\(cell): sample chosen, subscribed to position (handed it) and then to mirror, whose value samples it at once",
                "\(cell), sampled at once"
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
