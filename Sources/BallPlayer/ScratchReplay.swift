import BallModel
import BallReplay
import BallStreams

// MARK: - A recording's intents sent again through a scratch session

extension ReplayIndex {
    /// Sends intents `first + 1` through `end` through `scratch` as the player plays them: a
    /// skipped one is noted on `recorder` (a column where nothing went through), not sent; after
    /// each, the chain's timers run until the next intent (what they did shows in its column),
    /// and `after` is told its number. With `pause`, at its place the timers first run only until
    /// its time and `then` is called (what the player's present showed then: a timer still to
    /// come had done nothing yet), before the rest run. The one loop the player's pages and
    /// letter books replay by.
    func replay(
        after first: Int, through end: Int, on scratch: BallSession, noting recorder: StreamRecorder,
        pause: (place: Int, at: SessionTime, then: () -> Void)? = nil, after: (Int) -> Void = { _ in }
    ) {
        if let pause, pause.place == first {
            scratch.advance(to: pause.at)
            pause.then()
        }
        guard first < end else { return }
        for number in (first + 1)...end {
            let intent = event(number).intent
            if skipped.contains(number) {
                recorder.noteSkipped(intent)
            } else {
                scratch.send(intent, at: sessionTime(of: number))
            }
            if let pause, pause.place == number {
                scratch.advance(to: pause.at)
                pause.then()
            }
            if let until = endTime(of: number) { scratch.reach(until) }
            after(number)
        }
    }
}
