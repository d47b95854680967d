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
    /// A late subscriber subscribed or cancelled in a recording, or by a key in the player: what,
    /// and the place it happened at (after that many intents).
    package typealias LateObservation = (place: Int, observation: Observation)

    /// The page of `index` that shows `place` at `width`, with `observations` (in the order of
    /// their places) made again where they were made: each subscribes, or cancels, the lane of
    /// its kind (one that cannot, a subscribe of a live lane or a cancel of none, does nothing).
    package static func panel(
        index: ReplayIndex, place: Int, width: Int, observations: [LateObservation]
    ) -> StreamPanel {
        let size = StreamPanel.pageSize(width: width)
        let start = StreamPanel.pageStart(latest: place, width: width)
        let end = min(index.count, start + size - 1)
        let first = max(0, start - 1)
        let scratch = BallSession(start: index.state(at: first))
        let earlier = index.positions(before: first, count: LateSubscriber.replayBufferSize + 1).dropLast()
        let recorder = StreamRecorder(
            session: scratch, capacity: size + 2, firstIndex: first, earlierPositions: Array(earlier))
        var pending = observations[...]
        func observe(upTo number: Int) {
            while let next = pending.first, next.place <= number {
                recorder.apply(next.observation, at: next.place)
                pending.removeFirst()
            }
        }
        observe(upTo: first)
        if first < end {
            for number in (first + 1)...end {
                let intent = index.event(number).intent
                if index.skipped.contains(number) {
                    recorder.noteSkipped(intent)
                } else {
                    scratch.send(intent, at: index.sessionTime(of: number))
                }
                // What the chain's timers did before the next intent shows in this column.
                if let end = index.endTime(of: number) { scratch.advance(to: end) }
                observe(upTo: number)
            }
        }
        var panel = StreamPanel(columns: recorder.columns(from: start), lateLanes: recorder.lateLanes, present: place)
        // The slot's lane, on every page of a recording that puts an operator in the slot.
        panel.showsSlot = index.choosesOperators
        return panel
    }
}
