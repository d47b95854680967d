import OpenCombine

/// `combineLatest`: the position combined with the second subject, `mirror` (the learner flips
/// it with a key): each time either changes, the latest position, mirrored while `mirror` is
/// on. So flipping the mirror changes the colour with the ball still. RxSwift's
/// `Observable.combineLatest(position, mirror) { … }`, which Combine (and the slot, with ours)
/// writes `position.combineLatest(mirror) { … }`.
package struct CombineLatestOperation: SlotOperation {
    package let name = "combineLatest"
    package let key: Unicode.Scalar = "6"
    package let code = "Observable.combineLatest(position, mirror) { $1 ? $0.mirrored : $0 }"
    package let words =
        "the latest position, mirrored while the mirror is on, i flips it (Combine: position.combineLatest(mirror))"
    package let rxpy =
        "upstream.pipe(ops.combine_latest(mirror), ops.map(lambda pair: mirrored(pair[0]) if pair[1] else pair[0]))"
    package let benchIdle = (keys: "hhihhi", after: "after moves and flips", settle: 0.5)
    package let inputs: [SlotInput] = [.position, .mirror]

    /// A chain built part-way combines the latest it was handed (given again first) with the
    /// mirror's, and passes that on no more.
    package func applied(
        to upstream: AnyPublisher<SlotOutput, Never>, inputs: SlotInputs, resuming: SlotResume?
    ) -> AnyPublisher<SlotOutput, Never> {
        let combined = { (value: SlotOutput, on: Bool) -> SlotOutput in
            on ? value.position.map { .position($0.mirrored) } ?? value : value
        }
        guard let resuming, let latest = resuming.latest else {
            return upstream.combineLatest(inputs.mirror, combined).eraseToAnyPublisher()
        }
        return upstream.prepend(latest).combineLatest(inputs.mirror, combined).dropFirst().eraseToAnyPublisher()
    }

    /// The latest value again when the mirror flips, and each new one, mirrored or not as
    /// the mirror says.
    package func step(_ stage: inout SlotStage, _ step: SlotStep) -> SlotOutput? {
        guard step.handed != nil || step.flipped, let latest = step.latest?.position else { return nil }
        return .position(step.mirror ? latest.mirrored : latest)
    }

    package func passedWords(_ moment: SlotMoment, _ passed: SlotOutput) -> (String, String?)? {
        guard let position = passed.position else { return nil }
        let cell = moment.mirror ? moment.mirroredMarble(position) : SlotMoment.marble(position)
        let state = moment.mirror ? "on" : "off"
        switch moment.intent {
        case .operatorChosen?:
            return (
                "\(cell): combineLatest chosen, subscribed to position and mirror, each handing its latest at once (the mirror is \(state))",
                "\(cell), mirror \(state)"
            )
        case .mirrorFlipped?:
            return (
                "\(cell): the mirror flipped \(state), so combineLatest passes the latest position on again",
                "\(cell), mirror \(state)"
            )
        default:
            return ("\(cell): a new position, with the mirror's latest (\(state))", "\(cell), mirror \(state)")
        }
    }
}

extension SlotOperator {
    /// `combineLatest` (``CombineLatestOperation``).
    package static let combineLatest = SlotOperator(CombineLatestOperation())
}
