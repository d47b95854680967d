import BallReplay
import BallStreams

// MARK: - A replay, column by column

/// A replay's streams as the panel records them, handed on a column at a time: what the
/// exports that write each lane whole (`--syntax`, `--svg`) are made from.
enum ReplayColumns {
    /// Replays `reader` through a session with a ``StreamRecorder`` and calls `body` with each
    /// column in order, once it is complete (the last at the end). Columns are taken in batches
    /// of 32, and the recorder keeps twice as many, so memory stays flat.
    static func forEach(in reader: ReplayReader, _ body: (StreamColumn) throws -> Void) throws {
        let player = try ReplayPlayer(reader: reader)
        let recorder = StreamRecorder(session: player.session, capacity: 64)
        var next = 0
        func take(_ columns: ArraySlice<StreamColumn>) throws {
            for column in columns {
                try body(column)
                next = column.index + 1
            }
        }
        while let event = try player.nextEvent() {
            player.apply(event)
            // Every column before the latest is complete.
            if recorder.latestIndex - next >= 32 { try take(recorder.columns(from: next).dropLast()) }
        }
        try take(recorder.columns(from: next)[...])
    }
}
