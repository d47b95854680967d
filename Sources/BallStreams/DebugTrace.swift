import BallModel
import ColourCore
import OpenCombine
import TextFormats

// MARK: - The streams as RxSwift's debug() prints them

/// RxSwift's `debug()` for the session's four named publishers: a line for each subscription,
/// value, completion and disposal, as someone who knows RxSwift reads them at once:
///
/// ```text
/// 0.000: position -> subscribed
/// 0.000: position -> Event next(40,11 on 80×24)
/// 0.494: ballColour -> Event next(flatBlackDark)
/// 1.090: position -> Event completed
/// 1.090: position -> isDisposed
/// ```
///
/// A binding: it subscribes to the publishers the panel's lanes subscribe to (so its lines say
/// what the lanes show) and hands each line to `write`, which keeps it (the program writes them
/// out in large blocks, off the drawing). `time` gives the seconds since the session began.
package final class DebugTrace {
    /// The publishers traced, in the order their lines come at the start.
    package static let names = ["intents", "position", "ballColour", "background"]
    private var cancellables: [AnyCancellable] = []
    private var live: Set<String> = []
    private let time: () -> Double
    private let write: (String) -> Void

    /// Subscribes to `session`'s publishers now, writing each event's line through `write`.
    package init(session: BallSession, time: @escaping () -> Double, write: @escaping (String) -> Void) {
        self.time = time
        self.write = write
        let viewModel = session.viewModel
        cancellables = [
            trace("intents", session.intents) { Self.describe($0) },
            trace("position", viewModel.position) { Self.describe($0) },
            trace("ballColour", viewModel.ballColour) { $0.name },
            trace("background", viewModel.background) { $0.name },
        ]
    }

    /// Ends the trace: every subscription still live is disposed of, and says so.
    package func end() {
        for name in Self.names where live.contains(name) { line(name, "isDisposed") }
        live.removeAll()
        cancellables.removeAll()
    }

    private func trace<Upstream: Publisher>(
        _ name: String, _ publisher: Upstream, describe: @escaping (Upstream.Output) -> String
    ) -> AnyCancellable where Upstream.Failure == Never {
        line(name, "subscribed")
        live.insert(name)
        return publisher.bind(
            onNext: { [unowned self] in line(name, "Event next(\(describe($0)))") },
            onCompleted: { [unowned self] in
                line(name, "Event completed")
                line(name, "isDisposed")
                live.remove(name)
            })
    }

    private func line(_ name: String, _ event: String) {
        write("\(time().decimals(3)): \(name) -> \(event)")
    }

    /// An intent as a short call: `dragged(41,12)`, `arrow(left, 1)`, `resized(80×24)`, `quit`.
    package static func describe(_ intent: Intent) -> String {
        switch intent {
        case .pressed(let cell): "pressed(\(cell))"
        case .dragged(let cell): "dragged(\(cell))"
        case .released(let cell): "released(\(cell))"
        case .arrowPressed(let direction, let distance): "arrow(\(direction.rawValue), \(distance))"
        case .recentred: "recentred"
        case .resized(let size): "resized(\(size))"
        case .quitRequested: "quit"
        }
    }

    /// A position: `41,12 on 80×24` (the ball's cell, on its screen).
    package static func describe(_ position: BallPosition) -> String {
        "\(position.centre) on \(position.screen)"
    }
}
