import BallModel

/// One operator's part of the pipe's stage lanes: stage `number` (from 0) of the pipes in the
/// slot that have `operation` there, its `subscription`-th subscription in a column (1: the
/// pipe's own; from 2: those `retry` made anew after an error). The panel draws a row for each
/// part on its page (``StreamLane/part(_:)``), so that a row holds one operator's marbles and is
/// labelled with its code, whatever pipes come before and after it (as RxJS's marbles write a
/// line for each stage's subscription, named by its operator).
package struct StagePart: Hashable, Sendable {
    /// The stage's place in its pipe, from 0.
    package let number: Int
    /// The operator at that place.
    package let operation: SlotOperator
    /// Which of the stage's subscriptions in a column the row draws: 1, the pipe's own; from 2,
    /// `retry`'s (``StreamLane/retried(stage:subscription:)``).
    package let subscription: Int

    /// The part of stage `number`, `operation`: its `subscription`-th subscription's row.
    package init(number: Int, operation: SlotOperator, subscription: Int = 1) {
        self.number = number
        self.operation = operation
        self.subscription = subscription
    }

    /// Whether this is the row of a subscription `retry` made anew.
    package var isRetried: Bool { subscription > 1 }

    /// The same part's row for its `subscription`-th subscription.
    package func retried(_ subscription: Int) -> StagePart {
        StagePart(number: number, operation: operation, subscription: subscription)
    }

    /// Whether `pipe` has this part: `operation` at stage `number` of a pipe of several (a pipe of
    /// one has no stage lanes: its stage's lane is the slot's).
    package func isIn(_ pipe: SlotPipe) -> Bool {
        pipe.stages.count > 1 && pipe.stages.indices.contains(number) && pipe.stages[number] == operation
    }

    /// The parts of `pipe`, first to last, each its own subscription's (none for a pipe of one).
    package static func parts(of pipe: SlotPipe) -> [StagePart] {
        guard pipe.stages.count > 1 else { return [] }
        return pipe.stages.enumerated().map { StagePart(number: $0.offset, operation: $0.element) }
    }

    /// The label of its row: its operator's code in at most `width` cells
    /// (``SlotOperator/stageLabel(width:)``), the same on every page, live and in the player; a
    /// subscription `retry` made anew, which one (`└ retry's 2nd`), under its operator's row.
    package func label(width: Int) -> String {
        isRetried
            ? StreamLane.retried(stage: number, subscription: subscription).label
            : operation.stageLabel(width: width)
    }
}

extension StreamColumn {
    /// The stage lane `part` is in this column, where the column's pipe has it (nil: the part draws
    /// nothing here): the stage's own, or the lane of the subscription `retry` made anew.
    package func stageLane(_ part: StagePart) -> StreamLane? {
        guard part.isIn(slot) else { return nil }
        return part.isRetried ? .retried(stage: part.number, subscription: part.subscription) : .stage(part.number)
    }
}
