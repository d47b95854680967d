import OpenCombine

/// `merge`: the positions the mouse made and those the keys made, two streams (`mouse` and
/// `keys`, Publish subjects, `PassthroughSubject`s here, the session sends each new position to,
/// by what made it; not `position`, a Behavior subject, which would hand it its value at once),
/// merged into one as they come: RxSwift's `Observable.merge(mouse, keys)`, which Combine (and
/// the slot, with ours) writes `mouse.merge(with: keys)`. Chosen, it is handed nothing (neither
/// holds a value); a resize's clamp, made by neither, does not go through.
package struct MergeOperation: SlotOperation {
    package let name = "merge"
    package let key: Unicode.Scalar = "0"
    package let code = "Observable.merge(mouse, keys)"
    package let words =
        "the mouse's moves and the keys' moves (their own subjects, not position), merged into one as they come (Combine: mouse.merge(with: keys))"
    package let rxpy = "sources[\"mouse\"].pipe(ops.merge(sources[\"keys\"]))"
    package let inputs: [SlotInput] = [.mouse, .keys]
    package let benchIdle = (keys: FlatMapLatestOperation.drag, after: "after a drag and keys", settle: 0.5)

    package let startsPipe = true

    package func applied(
        to upstream: AnyPublisher<SlotOutput, Never>, inputs: SlotInputs, resuming: SlotResume?
    ) -> AnyPublisher<SlotOutput, Never> {
        inputs.mouse.merge(with: inputs.keys).map(SlotOutput.position).eraseToAnyPublisher()
    }

    /// Each new position the mouse or the keys made; nothing as it subscribes (chosen, or
    /// `retry`'s new subscription: the subjects hand a new subscriber nothing), nothing for a
    /// resize's clamp.
    package func step(_ stage: inout SlotStage, _ step: SlotStep) -> SlotOutput? {
        guard !step.built, let intent = step.intent, intent.mover != nil, step.next.position != step.state.position
        else {
            return nil
        }
        return .position(step.next.position)
    }

    package func passedWords(_ moment: SlotMoment, _ passed: SlotOutput) -> (String, String?)? {
        guard let position = passed.position else { return nil }
        let (cell, made) = (SlotMoment.marble(position), moment.intent?.mover == .keys ? "keys" : "mouse")
        return ("\(cell) from \(made): merge passes on what mouse or keys sends, as it comes", "\(cell), from \(made)")
    }

    package func quietWords(_ moment: SlotMoment) -> (String, String?)? {
        guard moment.chosen else { return nil }
        return (
            "nothing: merge chosen: it reads mouse and keys, not position: Publish subjects (Combine: PassthroughSubject), which hand a new subscriber nothing",
            "nothing: it reads mouse and keys, not position"
        )
    }

    package func heldWords(_ moment: SlotMoment, seen position: BallPosition) -> (String, String?) {
        let cell = SlotMoment.cell(position)
        return ("nothing: \(cell) came from a resize, which neither mouse nor keys sends", "nothing: \(cell), resized")
    }
}

extension SlotOperator {
    /// `merge` (``MergeOperation``).
    package static let merge = SlotOperator(MergeOperation())
}
