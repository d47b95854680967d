import BallModel
import BallRendering
import BallReplay
import BallStreams

// MARK: - The streams panel around a place

/// The streams panel's page around the player's place, worked out by real subscriptions: a
/// scratch session built at the state just before the page, a ``StreamRecorder`` on it, and
/// the page's intents sent through (skipped ones noted, not sent). Intents after the place are
/// drawn dim (the future).
package enum StreamsPage {
    /// A late subscriber's key pressed in the player: its kind, and the place it was pressed at.
    package typealias LateSubscription = (kind: LateSubscriber, start: Int)

    /// The page of `index` that shows `place` at `width`, with `lateSubscriptions` (in the order
    /// of their places) made again where they were made: each subscribes, or unsubscribes the
    /// live lane of its kind.
    package static func panel(
        index: ReplayIndex, place: Int, width: Int, lateSubscriptions: [LateSubscription]
    ) -> StreamPanel {
        let size = StreamPanel.pageSize(width: width)
        let start = StreamPanel.pageStart(latest: place, width: width)
        let end = min(index.count, start + size - 1)
        let first = max(0, start - 1)
        let scratch = BallSession(start: index.state(at: first))
        let earlier = index.positions(before: first, count: LateSubscriber.replayBufferSize + 1).dropLast()
        let recorder = StreamRecorder(
            session: scratch, capacity: size + 2, firstIndex: first, earlierPositions: Array(earlier))
        var pending = lateSubscriptions[...]
        func subscribe(upTo number: Int) {
            while let next = pending.first, next.start <= number {
                recorder.toggleLate(next.kind, start: next.start)
                pending.removeFirst()
            }
        }
        subscribe(upTo: first)
        if first < end {
            for number in (first + 1)...end {
                let intent = index.event(number).intent
                if index.skipped.contains(number) { recorder.noteSkipped(intent) } else { scratch.send(intent) }
                subscribe(upTo: number)
            }
        }
        return StreamPanel(columns: recorder.columns(from: start), lateLanes: recorder.lateLanes, present: place)
    }
}
