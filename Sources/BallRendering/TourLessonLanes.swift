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
    /// The late subscribers whose idle rows (no lane yet) are labelled by name alone (`late
    /// Replay`, not `late Replay(3)`: what a kind keeps answers its lesson's question): every
    /// kind, in the tour and in its recording alike (``StreamPanel/plainLabels``).
    package var plainLabels: Set<LateSubscriber> { Self.plainLabels }

    /// The kinds whose idle rows a tour labels by name alone: all (one rule, live and replayed).
    package static let plainLabels = Set(LateSubscriber.allCases)

    /// A lesson's lanes from their parts.
    package init(slot: Bool, background: Bool = true, lateRows: Set<LateSubscriber> = []) {
        self.slot = slot
        self.background = background
        self.lateRows = lateRows
    }
}
