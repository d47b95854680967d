import BallModel
import BallStreams

// MARK: - The time view's settled spans, kept between frames

/// The live time view's lanes on the spans that can no longer change, kept from one frame to the
/// next, so that a frame projects only the spans from the latest column's on (at 100 ms a span and
/// a drag report each 16 ms, a page holds some 350 columns; the open tail, a few).
///
/// A span before the latest column's span is settled: every event of a column falls between its
/// own time and the next column's (its intent, what the slot passed on after it, a late lane's
/// subscription and end), so only the latest column, the one still open, and the columns after it
/// reach the spans from its span on; the columns before it are closed (the recorder changes only
/// its latest column), and the late lanes change only there too (a value received, an end).
///
/// Derived state, worked out in one place: the binding hands it each frame's live panel
/// (``fill(_:floor:)``), and it answers with each lane's marbles, as the panel would project them
/// itself. What it keeps is keyed by all a settled span depends on: the span length, the page's
/// first span and first column, `learn`'s floor, and for a late row its lanes (but what they
/// received in the open column); anything else, and a lane projects whole again.
package final class SettledSpans {
    /// What a page's settled spans depend on besides the lane: a page turned, a zoom, a new
    /// lesson's floor, or older columns dropped by the recorder makes another.
    private struct Page: Equatable {
        var length: SessionTime.Stride
        var first: Int
        var column: Int
        var floor: PageFloor?
    }

    /// A lane, with its late lanes as they stand in the settled columns.
    private struct Key: Hashable {
        var lane: StreamPanel.SpanLane
        var late: [LateLane]
    }

    /// The page the kept lanes are of.
    private var page: Page?
    /// Each lane drawn in the last frame: its marbles on the page's spans before `end` (a span
    /// number), all settled then.
    private var kept: [Key: (end: Int, marbles: [Marble?])] = [:]

    /// How many times a lane was drawn from its kept spans and the tail projected, since the
    /// start (a test's evidence that the spans were kept, not worked out again).
    package private(set) var reused = 0

    /// Nothing kept yet.
    package init() {}

    /// Gives `panel` (the live panel of this frame, its page made from the recorder, with
    /// `learn`'s `floor`) each lane's marbles on its spans (``StreamPanel/projected``): the kept
    /// settled spans, and the rest projected; then keeps this frame's settled spans of the lanes
    /// it draws, and no others.
    package func fill(_ panel: inout StreamPanel, floor: PageFloor?) {
        guard let spans = panel.spans, spans.count > 0, let first = panel.columns.first, let latest = panel.columns.last
        else { return }
        let page = Page(length: spans.length, first: spans.first, column: first.index, floor: floor)
        if page != self.page { (self.page, kept) = (page, [:]) }
        let end = spans.first + spans.count
        let settled = min(end, max(spans.first, spans.number(of: latest.time ?? .start)))
        var next: [Key: (end: Int, marbles: [Marble?])] = [:]
        for (lane, late) in panel.spanLanes {
            let key = Key(lane: lane, late: late.map(\.settled))
            var marbles: [Marble?]
            if let kept = kept[key], kept.end <= settled {
                let tail = TimeSpans(length: spans.length, first: kept.end, count: end - kept.end)
                marbles = kept.marbles + panel.project(lane, on: tail, from: Self.columns(of: panel, from: tail))
                reused += 1
            } else {
                marbles = panel.project(lane, on: spans, from: panel.columns[...])
            }
            next[key] = (settled, Array(marbles.prefix(settled - spans.first)))
            panel.projected[lane] = marbles
        }
        kept = next
    }

    /// `panel`'s columns from the last that came before `spans` begin (the first, if none did):
    /// those whose events can fall in `spans`, with the one that says how each lane stands then.
    private static func columns(of panel: StreamPanel, from spans: TimeSpans) -> ArraySlice<StreamColumn> {
        let start = spans.start(of: spans.first)
        let columns = panel.columns
        // The times only grow: the first column at `start` or later, by halves.
        var (low, high) = (0, columns.count)
        while low < high {
            let middle = (low + high) / 2
            if (columns[middle].time ?? .start) < start { low = middle + 1 } else { high = middle }
        }
        return columns[max(0, low - 1)...]
    }
}

extension LateLane {
    /// The lane as the settled columns see it: all but what it received, which changes only in
    /// the latest column (each position it is sent is noted there).
    fileprivate var settled: LateLane {
        var lane = self
        lane.received = []
        return lane
    }
}
