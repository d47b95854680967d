import BallReplay
import BallStreams
import TextFormats

// MARK: - A replay's trace

/// A replay's debug trace (``DebugTrace``): the recording run forward through the chain, its
/// late subscribers subscribed and cancelled where it made them, each line at the recording's
/// own time (counted from the header's `started`, or from 1970-01-01 00:00:00 UTC in a
/// recording without one), the last ones the completions of a quit (or, for a recording that
/// did not quit, the disposals at its end).
package enum TraceExport {
    /// Replays `reader` and calls `emit` with each line of the trace (no newline).
    package static func run(reader: ReplayReader, emit: (String) -> Void) throws {
        let player = try ReplayPlayer(reader: reader)
        // The late subscribers the recording made, made again where it made them.
        let streams = StreamRecorder(session: player.session, capacity: 64)
        player.observed = { streams.apply($0.observation) }
        // The trace lives only as long as this call: the closure does not outlive it.
        try withoutActuallyEscaping(emit) { emit in
            // The recording's start, from its header (1970-01-01 without one).
            let started = reader.header.flatMap { Timestamp.milliseconds(iso8601: $0.started) } ?? 0
            let trace = DebugTrace(session: player.session, streams: streams, origin: started, write: emit)
            defer { trace.end() }
            while let event = try player.nextEvent() { player.apply(event) }
        }
    }
}
