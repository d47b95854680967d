import OpenCombine

/// `flatMap` (Combine's `flatMap` with unlimited demand, the same here): each press (the subject
/// `grabbed` turning true) maps to the position stream, as `flatMapLatest` does, but nothing
/// cancels the inner subscription a press made: after two presses each new position goes through
/// twice, and the colour follows the keys after the release. A release maps to `Empty()`, which
/// ends at once and cancels nothing.
package struct FlatMapOperation: SlotOperation {
    package let name = "flatMap"
    package let key: Unicode.Scalar = "g"
    package let code = "grabbed.flatMap { $0 ? position : .empty() }"
    package let words = "each press maps to the positions, and nothing cancels one: after two presses, each twice"
    package let rxpy = "grabbed.pipe(ops.flat_map(lambda on: subject if on else reactivex.empty()))"
    package let inputs: [SlotInput] = [.grabbed, .position]
    package let benchIdle = (keys: FlatMapLatestOperation.drag, after: "after a drag and keys", settle: 0.5)

    package let startsPipe = true

    /// A chain built part-way with `n` inner subscriptions in its state makes them again, each
    /// an unended subscription to the position that hands nothing as it subscribes (the state's
    /// position went through each already), then goes on with `grabbed`'s changes.
    package func applied(
        to upstream: AnyPublisher<SlotOutput, Never>, inputs: SlotInputs, resuming: SlotResume?
    ) -> AnyPublisher<SlotOutput, Never> {
        // Each inner subscription tapped where it is made (the trace follows the taps).
        let position = inputs.inners.tapped(inputs.position.eraseToAnyPublisher())
        let switched = { (on: Bool) in on ? position : Empty().eraseToAnyPublisher() }
        guard let resuming else {
            return inputs.grabbed.map(switched).flatMap { $0 }.map(SlotOutput.position).eraseToAnyPublisher()
        }
        let again = Array(
            repeating: inputs.inners.tapped(inputs.position.dropFirst().eraseToAnyPublisher()),
            count: resuming.stage.innerSubscriptions)
        return inputs.grabbed.dropFirst().map(switched).prepend(again).flatMap { $0 }.map(SlotOutput.position)
            .eraseToAnyPublisher()
    }

    /// A press that grabs (or the pipe built mid-drag) subscribes once more, handed the position
    /// at once; before it, each new position goes through each inner subscription there was,
    /// button down or up.
    package func steps(_ stage: inout SlotStage, _ step: SlotStep) -> [SlotOutput] {
        guard step.intent != nil else { return [] }
        let (state, next) = (step.state, step.next)
        let moved = !step.built && next.position != state.position
        var passed = Array(repeating: SlotOutput.position(next.position), count: moved ? stage.innerSubscriptions : 0)
        if step.built ? next.isGrabbed : next.isGrabbed && !state.isGrabbed {
            stage.innerSubscriptions += 1
            stage.innersMade += 1
            passed.append(.position(next.position))
        }
        return passed
    }

    /// How many times the slot passes a position on for the intent that made `next` from `state`,
    /// with flatMap alone in it: the new position once for each inner subscription there was, then
    /// the one a new inner subscription is handed. (The reducer's model of what the lanes count.)
    package static func passes(from state: BallState, to next: BallState, by intent: Intent) -> Int {
        if intent.buildsPipe { return next.innerSubscriptions }
        let moved = next.position != state.position ? state.innerSubscriptions : 0
        return moved + next.innerSubscriptions - state.innerSubscriptions
    }

    package func passedWords(_ moment: SlotMoment, _ passed: SlotOutput) -> (String, String?)? {
        guard let position = passed.position else { return nil }
        let cell = SlotMoment.marble(position)
        switch moment.intent {
        case .pressed? where moment.grabbed == true:
            return (
                "\(cell): the press: grabbed turned true, so flatMap subscribed to position once more, handed its latest at once",
                "\(cell), pressed: one more"
            )
        case .operatorChosen?:
            return (
                "\(cell): flatMap chosen with the button down: it subscribed to position, handed at once",
                "\(cell), button down"
            )
        default:
            return (
                "\(cell): each inner subscription flatMap made passes each new position on, button down or up",
                "\(cell), from each press"
            )
        }
    }

    package func quietWords(_ moment: SlotMoment) -> (String, String?)? {
        switch (moment.intent, moment.grabbed) {
        case (.operatorChosen?, _):
            return (
                "nothing: flatMap chosen with the button up: grabbed is false, which maps to .empty()",
                "nothing: button up"
            )
        case (.released?, false?):
            return (
                "nothing new: the release maps to .empty(), which ends at once: flatMap cancels nothing",
                "released: .empty()"
            )
        default: return nil
        }
    }

    package func heldWords(_ moment: SlotMoment, seen position: BallPosition) -> (String, String?) {
        let cell = SlotMoment.cell(position)
        return (
            "nothing: \(cell) came before any press: flatMap has no inner subscription yet",
            "nothing: \(cell), no press yet"
        )
    }
}

extension SlotOperator {
    /// `flatMap` (``FlatMapOperation``).
    package static let flatMap = SlotOperator(FlatMapOperation())
}
