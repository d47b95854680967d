import BallReplay
import BallStreams

// MARK: - A replay's trace

/// A replay's debug trace (``DebugTrace``): the recording run forward through the chain, each
/// line at the recording's own time, the last ones the completions of a quit (or, for a
/// recording that did not quit, the disposals at its end).
package enum TraceExport {
    /// Replays `reader` and calls `emit` with each line of the trace (no newline).
    package static func run(reader: ReplayReader, emit: (String) -> Void) throws {
        let player = try ReplayPlayer(reader: reader)
        // The trace lives only as long as this call: the closure does not outlive it.
        try withoutActuallyEscaping(emit) { emit in
            let trace = DebugTrace(session: player.session, time: { [unowned player] in player.time }, write: emit)
            defer { trace.end() }
            while let event = try player.nextEvent() { player.apply(event) }
        }
    }
}
