import BallModel
import BallStreams

// MARK: - The player's page on its spans, kept while it shows the same page

/// The replay player's page's lanes on the time axis's spans, kept while the player shows the
/// same page: a step within a page (some 6,400 intents on 64 spans of 100 ms, for a drag 1 ms
/// apart) moves only the present, which dims the future where the lanes are drawn, not where
/// their marbles fall, so each lane is projected once a page, not once a step.
///
/// Derived state, worked out in one place: the binding hands it each frame's page
/// (``fill(_:)``), and it answers with each lane's marbles as the page would project them
/// itself (``StreamPanel/project(_:on:from:)``, from the page's columns, late lanes and spans,
/// which is all a projection reads). Another page (other columns, late lanes or spans: a page
/// turned, a skip, a late lane subscribed, a zoom) projects each lane afresh.
package final class PageSpans {
    /// What the kept lanes were projected from.
    private struct Page: Equatable {
        var columns: [StreamColumn]
        var lateLanes: [LateLane]
        var spans: TimeSpans
    }

    /// The page the kept lanes are of.
    private var page: Page?
    /// Each lane projected on the page's spans.
    private var kept: [StreamPanel.SpanLane: [Marble?]] = [:]

    /// How many times a lane was drawn from its kept marbles, since the start (a test's evidence
    /// that they were kept, not worked out again).
    package private(set) var reused = 0

    /// Nothing kept yet.
    package init() {}

    /// Gives `panel` (the player's page of this frame, on a time axis) each lane's marbles on its
    /// spans (``StreamPanel/projected``): those kept for the same page, and the rest projected
    /// and kept. A page on no time axis keeps nothing.
    package func fill(_ panel: inout StreamPanel) {
        guard let spans = panel.spans else {
            (page, kept) = (nil, [:])
            return
        }
        // (The columns are most often the very array kept: compared by identity, not column by column.)
        let shown = Page(columns: panel.columns, lateLanes: panel.lateLanes, spans: spans)
        if shown != page { (page, kept) = (shown, [:]) }
        for (lane, _) in panel.spanLanes {
            if let marbles = kept[lane] {
                panel.projected[lane] = marbles
                reused += 1
            } else {
                let marbles = panel.project(lane, on: spans, from: panel.columns[...])
                kept[lane] = marbles
                panel.projected[lane] = marbles
            }
        }
    }
}
