import BallModel
import BallProgram
import BallReplay
import Testing

// MARK: - A session of play, recorded

/// A session of play driven through the real loop, recorded as `play --record` records it (its
/// intents and the streams' observations beside them, each at the session's time): the
/// recording's lines are kept in memory (``file``). The recorder lives as long as this does, so
/// a test reads the recording from here (``bytes(sourceLocation:)``, ``file``) once it has played.
package final class RecordedPlay {
    /// The session's pilot.
    package let pilot: Pilot<Play>
    /// What the recorder wrote, a line an event.
    package let file = MemoryLines()
    /// The recorder (kept for as long as the session).
    package let recorder: ReplayRecorder

    /// A session in a `screen`-sized terminal, recording from its start.
    package init(screen size: ScreenSize = ScreenSize(columns: 80, rows: 24)) throws {
        pilot = Pilot<Play>(screen: size)
        recorder = try ReplayRecorder(
            session: pilot.session, observations: pilot.streams.observations, writer: file, program: "test",
            started: "2026-11-28T00:00:00Z")
    }

    /// The recording so far, a file's bytes; a write the recorder failed fails the test.
    package func bytes(sourceLocation location: SourceLocation = #_sourceLocation) -> [UInt8] {
        #expect(
            recorder.failure == nil, "the recorder stopped: \(String(describing: recorder.failure))",
            sourceLocation: location)
        return file.bytes
    }

    /// The player (`replay FILE`) of the recording so far in a terminal of `size` (default: the
    /// recording's largest size and a row below it), paused at the start.
    package func player(
        screen size: ScreenSize? = nil, sourceLocation location: SourceLocation = #_sourceLocation
    ) throws -> Pilot<ReplayProgram> {
        try Pilot<ReplayProgram>(bytes(sourceLocation: location), screen: size)
    }
}
