import BallModel

// MARK: - The panel's axis: events or time

/// How the streams panel lays its columns out: a column per intent (the event view), or a
/// column per span of time (the time view, `T`), of a length the zoom sets (`<` `>`): a quiet
/// 300 ms is three empty columns at 100 ms, and a timed operator's output stands in the column
/// of its own time, its wait drawn before it.
package struct PanelAxis: Hashable, Sendable {
    /// The lengths a time column can have, shortest first: 50, 100, 250, 500 ms and 1 s.
    package static let spans: [SessionTime.Stride] = [50, 100, 250, 500, 1_000].map { .milliseconds($0) }
    /// The length the time view starts with: 100 ms.
    package static let defaultSpan = SessionTime.Stride.milliseconds(100)

    /// Whether a column is a span of time (else an intent).
    package var time: Bool
    /// How long a column lasts in the time view (kept while the event view shows).
    package var span: SessionTime.Stride

    /// An axis from its parts: the event view, 100 ms a column when switched to time.
    package init(time: Bool = false, span: SessionTime.Stride = PanelAxis.defaultSpan) {
        self.time = time
        self.span = span
    }

    /// The event view becomes the time view, and back (`T`).
    package func toggled() -> PanelAxis { PanelAxis(time: !time, span: span) }

    /// A shorter span a column (`finer`, `<`) or a longer one (`>`), within ``spans``; the time
    /// view shows, as a zoom is only seen there.
    package func zoomed(finer: Bool) -> PanelAxis {
        let at = Self.spans.firstIndex(of: span) ?? 1
        let next = min(Self.spans.count - 1, max(0, at + (finer ? -1 : 1)))
        return PanelAxis(time: true, span: Self.spans[next])
    }

    /// The span in words: `100 ms`, `1 s`.
    package var spanWords: String { Self.words(span) }

    /// A length in words: whole seconds as `1 s`, else milliseconds, `250 ms`.
    package static func words(_ length: SessionTime.Stride) -> String {
        let milliseconds = length.microseconds / 1_000
        return milliseconds % 1_000 == 0 ? "\(milliseconds / 1_000) s" : "\(milliseconds) ms"
    }
}
