import BallStreams

// MARK: - A recorded tour's lesson's lanes

/// How a recorded tour's lesson drew its lanes, which the recording says by naming the lesson
/// (its marker), as this program's tour has it: whether it drew the slot's lane and background's,
/// which late rows it kept and how it labelled them. The player and the cast draw the lesson's
/// lanes with them, in the tour's rows.
package struct TourLessonLanes: Hashable, Sendable {
    /// Whether the lesson drew the slot's lane (its point is on the operators).
    package var slot: Bool
    /// Whether the lesson drew background's lane (not before the lesson that asks what background
    /// gets).
    package var background: Bool
    /// The late rows the lesson kept on screen, each lane or not (the one it asks for).
    package var lateRows: Set<LateSubscriber>
    /// The late subscribers labelled by name alone (`late Replay`, not `late Replay(3)`): those
    /// whose lesson asks what each is handed, this one or a later one.
    package var plainLabels: Set<LateSubscriber>
    /// The late subscriber this lesson asks about, if one: its label stays plain until its lane
    /// is subscribed (the tour takes its key only after the guess).
    package var asks: LateSubscriber?

    /// A lesson's lanes from their parts.
    package init(
        slot: Bool, background: Bool = true, lateRows: Set<LateSubscriber> = [], plainLabels: Set<LateSubscriber> = [],
        asks: LateSubscriber? = nil
    ) {
        self.slot = slot
        self.background = background
        self.lateRows = lateRows
        self.plainLabels = plainLabels
        self.asks = asks
    }
}
