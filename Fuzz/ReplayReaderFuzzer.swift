// The replay reader's fuzz target for libFuzzer: `scripts/fuzz` builds it with the package's
// own BallReplay, BallModel and TerminalIO targets (SwiftPM, --sanitize fuzzer and address);
// the package declares it only when COLOURFUL_BALL_FUZZ=1.

import BallModel
import BallReplay
import TerminalIO

/// libFuzzer's entry point: any bytes as a replay file, split into two chunks at a point the
/// input chooses, read event by event; and the same bytes as terminal input. Nothing may
/// trap, hang or grow without bound; errors are expected and ignored.
@_cdecl("LLVMFuzzerTestOneInput")
package func fuzzReplayReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let split = bytes.isEmpty ? 0 : Int(bytes[0]) % (bytes.count + 1)
    var chunks = [Array(bytes[..<split]), Array(bytes[split...])]
    let reader = ReplayReader(file: "fuzz") { chunks.isEmpty ? nil : chunks.removeFirst() }
    do {
        _ = try reader.readHeader()
        var state = BallState.start(on: reader.header!.terminal)
        while let event = try reader.next() {
            // What the reader accepts is what the session lets in: one definition of an intent.
            guard event.intent.isValid(in: state.position.screen) else {
                fatalError("the reader took an invalid intent")
            }
            state = reduce(state, event.intent)
            _ = ReplayFormat.line(for: event.intent, at: event.time)
        }
    } catch {}

    var decoder = InputDecoder()
    _ = decoder.decode(bytes)
    guard decoder.pendingByteCount <= InputDecoder.maximumPendingBytes else { fatalError("the decoder kept too much") }
    _ = decoder.flushPendingEscape()
    return 0
}
