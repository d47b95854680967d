import BallModel
import BallProgram
import BallReplay

// MARK: - A tour, recorded

/// A tour driven through the real loop, recorded as `learn --record` records it: the recording's
/// lines are kept in memory (``file``).
package final class RecordedTour {
    /// The tour's pilot.
    package let pilot: Pilot<Learn>
    /// What the recorder wrote, a line an event.
    package let file = MemoryLines()
    /// The recorder (kept for as long as the tour).
    package let recorder: ReplayRecorder

    /// The tour from lesson `first` (0: the first) in a terminal of `size`, recording from its start.
    package init(first: Int, screen size: ScreenSize = ScreenSize(columns: 80, rows: 24)) throws {
        pilot = Pilot<Learn>(first: first, screen: size)
        recorder = try ReplayRecorder(
            session: pilot.learn.play.session, observations: pilot.learn.play.streams.observations, writer: file,
            program: "test", started: "2026-11-28T00:00:00Z")
        pilot.learn.recordingStarted()
    }
}
