import OpenCombine

/// `flatMapLatest` (Combine's `map` then `switchToLatest`): the classic Rx drag. Each press
/// (the subject `grabbed` turning true) maps to the position stream, which hands its latest at
/// once and every new position until the release (`grabbed` turning false) maps to `Empty()`:
/// the colour follows the ball only while the button is down, never the keys.
package struct FlatMapLatestOperation: SlotOperation {
    package let name = "flatMapLatest"
    package let key: Unicode.Scalar = "8"
    package let code = "grabbed.flatMapLatest { $0 ? position : .empty() }"
    package let words = "each press maps to the positions until its release: drags only (Combine: map, switchToLatest)"
    package let rxpy = "grabbed.pipe(ops.flat_map_latest(lambda on: subject if on else reactivex.empty()))"
    package let inputs: [SlotInput] = [.grabbed, .position]
    package let benchIdle = (keys: Self.drag, after: "after a drag and keys", settle: 0.5)

    /// A press on the middle of 80×24, a drag and its release, then keys (which it does not pass
    /// on): the mouse's bytes, as a terminal sends them.
    package static let drag = "\u{1B}[<0;41;12M\u{1B}[<32;38;12M\u{1B}[<32;35;13M\u{1B}[<0;35;13mhh"

    package let startsPipe = true

    /// A chain built part-way stays switched to what `grabbed` holds, the position handing
    /// nothing as it subscribes.
    package func applied(
        to upstream: AnyPublisher<SlotOutput, Never>, inputs: SlotInputs, resuming: SlotResume?
    ) -> AnyPublisher<SlotOutput, Never> {
        // Each inner subscription tapped where it is made (the trace follows the taps).
        let position = inputs.inners.tapped(inputs.position.eraseToAnyPublisher())
        let switched = { (on: Bool) in on ? position : Empty().eraseToAnyPublisher() }
        guard resuming != nil else {
            return inputs.grabbed.map(switched).switchToLatest().map(SlotOutput.position).eraseToAnyPublisher()
        }
        let now =
            inputs.grabbed.value
            ? inputs.inners.tapped(inputs.position.dropFirst().eraseToAnyPublisher()) : Empty().eraseToAnyPublisher()
        return inputs.grabbed.dropFirst().map(switched).prepend(now).switchToLatest().map(SlotOutput.position)
            .eraseToAnyPublisher()
    }

    /// Subscribed to the position while the ball is grabbed: a press (or the choice, mid-drag)
    /// subscribes, handed the position at once; each new one passes while the button stays down,
    /// the release's too (the position moves before the button comes up).
    package func step(_ stage: inout SlotStage, _ step: SlotStep) -> SlotOutput? {
        let (state, next) = (step.state, step.next)
        guard step.intent != nil, next.isGrabbed || state.isGrabbed else { return nil }
        let subscribes = step.built ? next.isGrabbed : next.isGrabbed && !state.isGrabbed
        guard subscribes || (state.isGrabbed && next.position != state.position) else { return nil }
        // Each press's inner subscription is numbered, as flatMap's are: the lanes draw each.
        if subscribes {
            stage.innerSubscriptions += 1
            stage.innersMade += 1
        }
        return .position(next.position)
    }

    package func passedWords(_ moment: SlotMoment, _ passed: SlotOutput) -> (String, String?)? {
        guard let position = passed.position else { return nil }
        let cell = SlotMoment.marble(position)
        switch moment.intent {
        case .pressed?:
            return (
                "\(cell): the press: grabbed turned true, so flatMapLatest switched to position, which hands its latest at once",
                "\(cell), pressed"
            )
        case .operatorChosen?:
            return (
                "\(cell): flatMapLatest chosen with the button down: it switched to position, handed at once",
                "\(cell), button down"
            )
        case .released? where moment.grabbed == false:
            return (
                "\(cell): the release's position, passed on before grabbed turned false and flatMapLatest switched to .empty()",
                "\(cell), then released"
            )
        default:
            return ("\(cell): the button is down, so flatMapLatest passes each new position on", "\(cell), dragging")
        }
    }

    /// Why it passed nothing on when no position came, or it was just chosen; nil to say it of
    /// a new position.
    package func quietWords(_ moment: SlotMoment) -> (String, String?)? {
        switch (moment.intent, moment.grabbed) {
        case (.operatorChosen?, _):
            return (
                "nothing: flatMapLatest chosen with the button up: grabbed is false, so it switched to .empty()",
                "nothing: button up"
            )
        case (.released?, false?):
            return (
                "nothing: the release: grabbed turned false, and flatMapLatest switched to .empty()",
                "released: switched to .empty()"
            )
        case (.pressed?, _):
            // A press that grabs passes the position on; one with the button down already,
            // that moves nothing, leaves grabbed as it was.
            return ("nothing: the button was already down, and no new position came", "nothing new")
        case (.released?, _):
            // A release with the button up moves nothing and leaves grabbed false.
            return ("nothing: the button was already up", nil)
        default: return nil
        }
    }

    package func heldWords(_ moment: SlotMoment, seen position: BallPosition) -> (String, String?) {
        let cell = SlotMoment.cell(position)
        return (
            "nothing: \(cell) came with the button up: flatMapLatest is switched to .empty() until a press",
            "nothing: \(cell), button up"
        )
    }
}

extension SlotOperator {
    /// `flatMapLatest` (``FlatMapLatestOperation``).
    package static let flatMapLatest = SlotOperator(FlatMapLatestOperation())
}
