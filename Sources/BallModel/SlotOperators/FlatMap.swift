import OpenCombine

/// `flatMap` (Combine's `flatMap` with unlimited demand, the same here): each press (the subject
/// `grabbed` turning true) maps to the position stream, as `flatMapLatest` does, but nothing
/// cancels the inner subscription a press made: after two presses each new position goes through
/// twice, and the colour follows the keys after the release. A release maps to `Empty()`, which
/// ends at once and cancels nothing.
package struct FlatMapOperation: SlotOperation {
    package let name = "flatMap"
    package let key: Unicode.Scalar = "g"
    package let code = "grabbed.flatMap { $0 ? position : Empty() }"
    package let words = "each press maps to the positions, and nothing cancels one: after two presses, each twice"
    package let rxpy = "grabbed.pipe(ops.flat_map(lambda on: subject if on else reactivex.empty()))"
    package let inputs: [SlotInput] = [.grabbed, .position]
    package let benchIdle = (keys: FlatMapLatestOperation.drag, after: "after a drag and keys", settle: 0.5)

    /// A chain built part-way with `n` inner subscriptions in its state makes them again: the
    /// presses that made them, `true` `n` times before what `grabbed` holds (`true` mid-drag,
    /// which makes the last of them).
    package func applied(to inputs: SlotInputs, resuming: BallState?) -> AnyPublisher<SlotOutput, Never> {
        let position = inputs.position
        let grabbed = inputs.grabbed
        let made = max(0, (resuming?.innerSubscriptions ?? 0) - (grabbed.value ? 1 : 0))
        return grabbed.prepend(Array(repeating: true, count: made))
            .flatMap { $0 ? position.eraseToAnyPublisher() : Empty().eraseToAnyPublisher() }
            .map(SlotOutput.position).eraseToAnyPublisher()
    }

    /// A press that grabs (or the choice, mid-drag) subscribes once more, handed the position at
    /// once; each new position goes through each inner subscription, button down or up.
    package func step(_ next: inout BallState, from state: BallState, by intent: Intent, handed: Bool) {
        let subscribes = intent.choosesOperator ? next.isGrabbed : next.isGrabbed && !state.isGrabbed
        if subscribes { next.innerSubscriptions += 1 }
        if subscribes || (handed && next.innerSubscriptions > 0) { next.slotted = .position(next.position) }
    }

    /// How many times the slot passes a position on for the intent that made `next` from `state`:
    /// the new position once for each inner subscription there was, then the one a new inner
    /// subscription is handed. (The reducer's model of what the lanes count.)
    package static func passes(from state: BallState, to next: BallState, by intent: Intent) -> Int {
        if intent.choosesOperator { return next.innerSubscriptions }
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
                "nothing: flatMap chosen with the button up: grabbed is false, which maps to Empty()",
                "nothing: button up"
            )
        case (.released?, false?):
            return (
                "nothing new: the release maps to Empty(), which ends at once: flatMap cancels nothing",
                "released: Empty()"
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
