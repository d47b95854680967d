import BallModel
import BallProgram
import BallTestSupport
import ColourCore
import OpenCombine
import Testing

/// The view-model's chain and the session, exhaustively: after each step the whole derived
/// state is compared.
@Suite("The chain")
struct ChainTests {
    let screen = ScreenSize(columns: 80, rows: 24)

    func position(_ column: Int, _ row: Int) -> BallPosition {
        BallPosition(centre: Cell(column: column, row: row), screen: screen)
    }

    /// A state with the ball at `column` of row 11, grabbed with `grab`, and `slot` in the slot
    /// having last passed on the position at `passed` of row 11.
    func onRow11(
        _ column: Int, passed: Int, background: FlatColour, grab: CellOffset?, slot: SlotPipe
    ) -> BallState {
        BallState(
            position: position(column, 11), grab: grab, background: background, slot: slot,
            slotted: .position(position(passed, 11)))
    }

    @Test("every position sent derives the ball and the background, whole; each colour is sent once")
    func derivedStateAfterEachStep() {
        // Start at 0,0 (sum 0: flatBlackDark, so the screen keeps the original's white).
        let viewModel = BallViewModel(
            start: BallState(position: position(0, 0), background: .flatWhite), clock: SessionScheduler())
        var balls: [FlatColour] = []
        var backgrounds: [FlatColour] = []
        var cancellables = Set<AnyCancellable>()
        viewModel.ballColour.bind { balls.append($0) }.store(in: &cancellables)
        viewModel.background.bind { backgrounds.append($0) }.store(in: &cancellables)

        let steps: [(BallPosition, FlatColour, FlatColour)] = [
            (position(0, 0), .flatBlackDark, .flatWhite),
            (position(1, 1), .flatBlackDark, .flatWhite),  // 8 + 16 = 24: still black.
            (position(3, 2), .flatPlumDark, .flatForestGreenDark),  // 24 + 32 = 56: plum, forest green.
            (position(8, 2), .flatMaroonDark, .flatTealDark),  // 64 + 32 = 96.
            (position(16, 8), .flatBlackDark, .flatTealDark),  // 256 (1 mod 255): black; background kept.
            (position(30, 0), .flatRed, .flatMint),  // 240 + 0.
        ]
        for (index, (next, ball, background)) in steps.enumerated() {
            if index > 0 { viewModel.position.send(next) }
            #expect(viewModel.current == Appearance(position: next, ball: ball, background: background))
        }
        #expect(balls == [.flatBlackDark, .flatPlumDark, .flatMaroonDark, .flatBlackDark, .flatRed])
        #expect(backgrounds == [.flatWhite, .flatForestGreenDark, .flatTealDark, .flatMint])
    }

    /// Sends each step's intent to `session` and folds it with the reducer; after each, both
    /// must be the step's whole state.
    static func expectSteps(_ steps: [(Intent, BallState)], session: BallSession) {
        var folded = session.state
        for (intent, expected) in steps {
            session.send(intent)
            folded = reduce(folded, intent)
            #expect(session.state == expected, "\(intent)")
            #expect(folded == expected, "\(intent)")
        }
    }

    @Test(
        "filter in the slot: the ball's colour follows only the right half; taken out, the current position at once")
    func filterInTheSlot() {
        // The middle column of 80 is 40: 50,11 and 45,11 are in the right half, 30,11 and 35,11 not.
        let session = BallSession(start: .start(at: position(50, 11)))
        var slotted: [BallPosition] = []
        let subscription = session.viewModel.slotted.bind { slotted.append($0.position!) }
        defer { subscription.cancel() }
        // Each step, the whole state, as the session's chain derives it and as the reducer folds it.
        let steps: [(Intent, BallState)] = [
            // Chosen, the filter is handed the current position at once: it passes.
            (
                .operatorChosen([.filter]),
                BallState(
                    position: position(50, 11), background: .flatTealDark, slot: [.filter],
                    slotted: .position(position(50, 11)))
            ),
            // 30,11 (flatRedDark on flatGray, were it let through) is dropped: the colours stay.
            (
                .arrowPressed(.left, distance: 20),
                BallState(
                    position: position(30, 11), background: .flatTealDark, slot: [.filter],
                    slotted: .position(position(50, 11)))
            ),
            // 45,11 goes through: flatBlackDark, whose complement is itself, so the screen stays.
            (
                .arrowPressed(.right, distance: 15),
                BallState(
                    position: position(45, 11), background: .flatTealDark, slot: [.filter],
                    slotted: .position(position(45, 11)))
            ),
            (
                .arrowPressed(.left, distance: 10),
                BallState(
                    position: position(35, 11), background: .flatTealDark, slot: [.filter],
                    slotted: .position(position(45, 11)))
            ),
            // Taken out: the plain position hands 35,11 over, flatRedDark on flatGray.
            (
                .operatorChosen(.none),
                BallState(
                    position: position(35, 11), background: .flatGray, slot: .none, slotted: .position(position(35, 11))
                )
            ),
        ]
        Self.expectSteps(steps, session: session)
        #expect(session.viewModel.current.ball == .flatRedDark)
        // What the slot passed on: the start's, the filter handed 50,11, then 45,11, then the
        // plain position handed 35,11.
        #expect(slotted == [position(50, 11), position(50, 11), position(45, 11), position(35, 11)])
    }

    @Test("map in the slot: the ball takes the colour of its mirror image, at once when chosen")
    func mapInTheSlot() {
        let session = BallSession(start: .start(at: position(50, 11)))  // flatMaroonDark on flatTealDark.
        let steps: [(Intent, BallState)] = [
            // 50,11 mirrored on 80 columns is 29,11: flatRedDark, on its complement flatGray.
            (
                .operatorChosen([.map]),
                BallState(
                    position: position(50, 11), background: .flatGray, slot: [.map],
                    slotted: .position(position(29, 11)))
            ),
            // 39,11 mirrored is 40,11: flatRed on flatMint.
            (
                .arrowPressed(.left, distance: 11),
                BallState(
                    position: position(39, 11), background: .flatMint, slot: [.map],
                    slotted: .position(position(40, 11)))
            ),
            // Out: 39,11 itself, flatRedDark on flatGray.
            (
                .operatorChosen(.none),
                BallState(
                    position: position(39, 11), background: .flatGray, slot: .none, slotted: .position(position(39, 11))
                )
            ),
        ]
        Self.expectSteps(steps, session: session)
        #expect(session.viewModel.current.ball == .flatRedDark)
    }

    @Test(
        "throttle after flatMap: a position that comes twice at its window's end goes through once, and the second waits for the next window's end, as RxSwift's throttle does"
    )
    func throttleHandedTwiceAtItsWindowsEnd() {
        // Two presses: each move goes through flatMap twice. The first press's 40,11 goes
        // through at 10 and a window starts; the second press's is held for 310. A drag at 310
        // itself: its first copy finds the window over and goes through at once (the input
        // before the timer); its second starts waiting for 610. RxSwift's ThrottleSink cancels
        // the timer the second takes the place of (its SerialDisposable), so nothing more goes
        // through at 310.
        func session(through last: Int64) -> (BallSession, () -> [(SlotOutput, SessionTime)]) {
            let session = BallSession(screen: screen)
            var lane: [(SlotOutput, SessionTime)] = []
            let tap = session.viewModel.stageOutputs[1].sink { lane.append(($0, session.now)) }
            let steps: [(Int64, Intent)] = [
                (0, .operatorChosen([.flatMap, .throttle])), (10, .pressed(at: Cell(column: 39, row: 11))),
                (20, .released(at: Cell(column: 39, row: 11))), (30, .pressed(at: Cell(column: 39, row: 11))),
                (310, .dragged(to: Cell(column: 45, row: 11))),
            ]
            for (time, intent) in steps where time <= last { session.send(intent, at: ChainTests.ms(time)) }
            return (session, { withExtendedLifetime(tap) { lane } })
        }
        let (whole, lane) = session(through: 310)
        whole.advance(to: ChainTests.ms(700))
        let passed = lane()
        #expect(
            passed.map(\.0) == [.position(position(40, 11)), .position(position(46, 11)), .position(position(46, 11))])
        #expect(passed.map(\.1) == [ChainTests.ms(10), ChainTests.ms(310), ChainTests.ms(610)])
        // Rebuilt in the window: the timer goes with the old subscription, and nothing of it
        // runs after it is gone.
        let (rebuilt, rebuiltLane) = session(through: 310)
        rebuilt.send(.operatorChosen([]), at: ChainTests.ms(400))
        rebuilt.advance(to: ChainTests.ms(700))
        #expect(rebuiltLane().map(\.1) == [ChainTests.ms(10), ChainTests.ms(310)])
    }

    /// A time `milliseconds` into the session.
    static func ms(_ milliseconds: Int64) -> SessionTime { SessionTime(microseconds: milliseconds * 1_000) }

    /// Takes `steps` (a time in ms; an intent then, or nil for time passing alone; the whole
    /// state after it) through `session` and through the reducer, and compares both with the
    /// state written out after each step.
    static func expectTimedSteps(_ steps: [(Int64, Intent?, BallState)], session: BallSession) {
        var folded = session.state
        for (time, intent, expected) in steps {
            if let intent {
                session.send(intent, at: Self.ms(time))
                folded = folded.after(intent, at: Self.ms(time))
            } else {
                session.advance(to: Self.ms(time))
                folded = folded.advanced(to: Self.ms(time))
            }
            #expect(session.state == expected, "at \(time) ms")
            #expect(folded == expected, "at \(time) ms")
        }
    }

    @Test(
        "debounce in the slot, on the session's clock: the colour follows a position 300 ms after it came with none after it; a timer due at an intent's instant runs after it, as RxSwift's virtual time runs them; a quit hands on what is held, as RxSwift's does"
    )
    func debounceInTheSlot() {
        let session = BallSession(start: .start(at: position(50, 11)))  // flatMaroonDark on flatTealDark.
        var slotted: [(BallPosition, SessionTime)] = []
        var completed = false
        let subscription = session.viewModel.slotted.sink(
            receiveCompletion: { _ in completed = true }, receiveValue: { slotted.append(($0.position!, session.now)) })
        defer { subscription.cancel() }
        func held(_ column: Int, since: Int64, passed: BallPosition, background: FlatColour, at time: Int64)
            -> BallState
        {
            BallState(
                position: position(column, 11), background: background, slot: [.debounce], slotted: .position(passed),
                heldSince: Self.ms(since), time: Self.ms(time))
        }
        // (time in ms, the intent or nil for time passing alone, the whole state after it)
        let steps: [(Int64, Intent?, BallState)] = [
            // Chosen at 0, it is handed 50,11 and holds it: nothing passes on yet.
            (
                0, .operatorChosen([.debounce]),
                held(50, since: 0, passed: position(50, 11), background: .flatTealDark, at: 0)
            ),
            // 30,11 at 100 (flatRedDark on flatGray once through): 50,11 is dropped, 30,11 held.
            (
                100, .arrowPressed(.left, distance: 20),
                held(30, since: 100, passed: position(50, 11), background: .flatTealDark, at: 100)
            ),
            (399, nil, held(30, since: 100, passed: position(50, 11), background: .flatTealDark, at: 399)),
            // 300 ms with no new position: 30,11 goes through, flatRedDark on flatGray.
            (
                400, nil,
                BallState(
                    position: position(30, 11), background: .flatGray, slot: [.debounce],
                    slotted: .position(position(30, 11)),
                    time: Self.ms(400))
            ),
            // 45,11 at 500 and 35,11 at 700: 45,11 never goes through.
            (
                500, .arrowPressed(.right, distance: 15),
                held(45, since: 500, passed: position(30, 11), background: .flatGray, at: 500)
            ),
            (
                700, .arrowPressed(.left, distance: 10),
                held(35, since: 700, passed: position(30, 11), background: .flatGray, at: 700)
            ),
            // At 1000 the timer and an intent come together: the intent first, as RxSwift's
            // virtual time scheduler runs an input scheduled before the timer. filter goes in:
            // debounce is cancelled and 35,11 never goes through; filter, handed 35,11, drops it.
            (
                1_000, .operatorChosen([.filter]),
                BallState(
                    position: position(35, 11), background: .flatGray, slot: [.filter],
                    slotted: .position(position(30, 11)),
                    time: Self.ms(1_000))
            ),
            (
                1_100, .operatorChosen([.debounce]),
                held(35, since: 1_100, passed: position(30, 11), background: .flatGray, at: 1_100)
            ),
            // Quit at 1200, with 35,11 held: the position completes, so debounce hands on what
            // it holds (as RxSwift's does; Combine's drops it), then the slot's lane completes.
            (
                1_200, .quitRequested,
                BallState(
                    position: position(35, 11), background: .flatGray, slot: [.debounce],
                    slotted: .position(position(35, 11)),
                    time: Self.ms(1_200)
                ).quit
            ),
            (
                5_000, nil,
                BallState(
                    position: position(35, 11), background: .flatGray, slot: [.debounce],
                    slotted: .position(position(35, 11)),
                    time: Self.ms(5_000)
                ).quit
            ),
        ]
        Self.expectTimedSteps(steps, session: session)
        // What the slot passed on, and when: the start's, 30,11 at 400, 35,11 at the quit (what it
        // held); then it completed.
        #expect(slotted.map(\.0) == [position(50, 11), position(30, 11), position(35, 11)])
        #expect(slotted.map(\.1) == [Self.ms(0), Self.ms(400), Self.ms(1_200)])
        #expect(completed)
        #expect(session.nextTimer == nil)
    }

    @Test(
        "a chain built part-way with debounce in the slot: holding, it lets the position through when due; not holding, it lets nothing through"
    )
    func debounceBuiltPartWay() {
        let holding = BallState(
            position: position(30, 11), background: .flatTealDark, slot: [.debounce],
            slotted: .position(position(50, 11)),
            heldSince: Self.ms(100), time: Self.ms(250))
        let session = BallSession(start: holding)
        #expect(session.state == holding)
        #expect(session.nextTimer == Self.ms(400))
        var passed: [BallPosition] = []
        let subscription = session.viewModel.slotted.dropFirst().bind { passed.append($0.position!) }
        session.advance(to: Self.ms(399))
        #expect(passed.isEmpty)
        session.advance(to: Self.ms(400))
        #expect(passed == [position(30, 11)])
        #expect(session.state == holding.advanced(to: Self.ms(400)))
        #expect(session.viewModel.current.ball == .flatRedDark)
        subscription.cancel()
        // Not holding: the warm-up's timer is dropped, so nothing goes through, ever.
        let idle = BallState(
            position: position(30, 11), background: .flatGray, slot: [.debounce], slotted: .position(position(30, 11)),
            time: Self.ms(900))
        let built = BallSession(start: idle)
        var after: [BallPosition] = []
        let quiet = built.viewModel.slotted.dropFirst().bind { after.append($0.position!) }
        defer { quiet.cancel() }
        #expect(built.nextTimer == nil)
        built.advance(to: Self.ms(10_000))
        #expect(after.isEmpty)
        #expect(built.state == idle.advanced(to: Self.ms(10_000)))
    }

    @Test(
        "throttle in the slot, on the session's clock, as RxSwift's: it passes the position handed when chosen, lets one through at once when its window is over, holds the latest until the window ends, and still lets it through after a quit"
    )
    func throttleInTheSlot() {
        let session = BallSession(start: .start(at: position(50, 11)))  // flatMaroonDark on flatTealDark.
        var slotted: [(BallPosition, SessionTime)] = []
        var completedAt: SessionTime?
        let subscription = session.viewModel.slotted.sink(
            receiveCompletion: { _ in completedAt = session.now },
            receiveValue: { slotted.append(($0.position!, session.now)) })
        defer { subscription.cancel() }
        func state(
            _ column: Int, passed: Int, background: FlatColour, window: Int64?, held: Int64? = nil, at time: Int64
        ) -> BallState {
            BallState(
                position: position(column, 11), background: background, slot: [.throttle],
                slotted: .position(position(passed, 11)),
                heldSince: held.map(Self.ms), windowStart: window.map(Self.ms), time: Self.ms(time))
        }
        // (time in ms, the intent or nil for time passing alone, the whole state after it)
        let steps: [(Int64, Intent?, BallState)] = [
            // Chosen at 0, it is handed 50,11 as it subscribes: its first, through at once (as
            // RxSwift's throttle does; Combine's drops it); a window starts.
            (0, .operatorChosen([.throttle]), state(50, passed: 50, background: .flatTealDark, window: 0, at: 0)),
            // 30,11 at 100, 45,11 at 200 and 35,11 at 250, in the window: held (since 100, when its
            // timer was set for the window's end), the latest kept.
            (
                100, .arrowPressed(.left, distance: 20),
                state(30, passed: 50, background: .flatTealDark, window: 0, held: 100, at: 100)
            ),
            (
                200, .arrowPressed(.right, distance: 15),
                state(45, passed: 50, background: .flatTealDark, window: 0, held: 100, at: 200)
            ),
            (
                250, .arrowPressed(.left, distance: 10),
                state(35, passed: 50, background: .flatTealDark, window: 0, held: 100, at: 250)
            ),
            (299, nil, state(35, passed: 50, background: .flatTealDark, window: 0, held: 100, at: 299)),
            // The window ends at 300: 35,11 (the latest; 30,11 and 45,11 never) goes through
            // (flatRedDark on flatGray), a window starts.
            (300, nil, state(35, passed: 35, background: .flatGray, window: 300, at: 300)),
            // 50,11 at 700, the window over at 600: through at once (flatMaroonDark on flatTealDark).
            (
                700, .arrowPressed(.right, distance: 15),
                state(50, passed: 50, background: .flatTealDark, window: 700, at: 700)
            ),
            (
                800, .arrowPressed(.left, distance: 20),
                state(30, passed: 50, background: .flatTealDark, window: 700, held: 800, at: 800)
            ),
            // At 1000 the window's end and an intent come together: the intent first, as RxSwift's
            // virtual time scheduler runs an input scheduled before the timer. Its window over,
            // 35,11 goes through at once (a window starts at 1000) and the held 30,11 is dropped:
            // RxSwift's ThrottleSink leaves its timer nothing to send.
            (
                1_000, .arrowPressed(.right, distance: 5),
                state(35, passed: 35, background: .flatGray, window: 1_000, at: 1_000)
            ),
            (
                1_100, .arrowPressed(.right, distance: 5),
                state(40, passed: 35, background: .flatGray, window: 1_000, held: 1_100, at: 1_100)
            ),
            // Quit at 1150 with 40,11 held: throttle keeps it (and the completion) for the window's
            // end, when 40,11 goes through (flatRed on flatMint).
            (
                1_150, .quitRequested,
                state(40, passed: 35, background: .flatGray, window: 1_000, held: 1_100, at: 1_150).quit
            ),
            (1_300, nil, state(40, passed: 40, background: .flatMint, window: 1_300, at: 1_300).quit),
        ]
        Self.expectTimedSteps(steps, session: session)
        // The start's 50,11, then what throttle passed on, and when.
        #expect(
            slotted.map(\.0) == [
                position(50, 11), position(50, 11), position(35, 11), position(50, 11), position(35, 11),
                position(40, 11),
            ])
        #expect(slotted.map(\.1) == [0, 0, 300, 700, 1_000, 1_300].map(Self.ms))
        #expect(completedAt == Self.ms(1_300))
        #expect(session.nextTimer == nil)
    }

    @Test(
        "a chain built part-way with throttle in the slot keeps its window: what it holds goes through at the window's end, and a position in the window is held"
    )
    func throttleBuiltPartWay() {
        let holding = BallState(
            position: position(35, 11), background: .flatGray, slot: [.throttle], slotted: .position(position(30, 11)),
            heldSince: Self.ms(100), windowStart: Self.ms(100), time: Self.ms(250))
        let session = BallSession(start: holding)
        #expect(session.state == holding)
        #expect(session.nextTimer == Self.ms(400))
        var passed: [(BallPosition, SessionTime)] = []
        let subscription = session.viewModel.slotted.dropFirst().bind { passed.append(($0.position!, session.now)) }
        defer { subscription.cancel() }
        session.advance(to: Self.ms(399))
        #expect(passed.isEmpty)
        session.send(.arrowPressed(.right, distance: 15), at: Self.ms(500))  // 50,11: in the window from 400.
        #expect(passed.map(\.0) == [position(35, 11)])
        #expect(passed.map(\.1) == [Self.ms(400)])
        #expect(session.state == reduce(holding.advanced(to: Self.ms(500)), .arrowPressed(.right, distance: 15)))
        #expect(session.nextTimer == Self.ms(700))
        // Not holding, its window open since 100: a position at 300 is held until 400.
        let open = BallState(
            position: position(30, 11), background: .flatGray, slot: [.throttle], slotted: .position(position(30, 11)),
            windowStart: Self.ms(100), time: Self.ms(250))
        let built = BallSession(start: open)
        #expect(built.state == open)
        built.send(.arrowPressed(.right, distance: 5), at: Self.ms(300))
        #expect(built.viewModel.slotted.latest?.position == position(30, 11))
        #expect(built.nextTimer == Self.ms(400))
        built.advance(to: Self.ms(400))
        #expect(built.viewModel.slotted.latest?.position == position(35, 11))
    }

    @Test(
        "combineLatest in the slot: each position and each flip of the mirror passes on the latest, mirrored while the mirror is on"
    )
    func combineLatestInTheSlot() {
        let session = BallSession(start: .start(at: position(50, 11)))  // flatMaroonDark on flatTealDark.
        var slotted: [BallPosition] = []
        let subscription = session.viewModel.slotted.bind { slotted.append($0.position!) }
        defer { subscription.cancel() }
        func state(
            _ column: Int, passed: Int, background: FlatColour, mirror: Bool, slot: SlotPipe = [.combineLatest]
        )
            -> BallState
        {
            BallState(
                position: position(column, 11), background: background, slot: slot, mirror: mirror,
                slotted: .position(position(passed, 11)))
        }
        let steps: [(Intent, BallState)] = [
            // Chosen: position and mirror each hand their latest as it subscribes: 50,11, the mirror off.
            (.operatorChosen([.combineLatest]), state(50, passed: 50, background: .flatTealDark, mirror: false)),
            // The mirror on, the ball still: 50,11 mirrored is 29,11, flatRedDark on flatGray.
            (.mirrorFlipped, state(50, passed: 29, background: .flatGray, mirror: true)),
            // 39,11 with the mirror on: 40,11, flatRed on flatMint.
            (.arrowPressed(.left, distance: 11), state(39, passed: 40, background: .flatMint, mirror: true)),
            // Off: 39,11 itself, flatRedDark on flatGray; on again: 40,11.
            (.mirrorFlipped, state(39, passed: 39, background: .flatGray, mirror: false)),
            (.mirrorFlipped, state(39, passed: 40, background: .flatMint, mirror: true)),
            // Out of the slot: the plain position, 39,11; the mirror stays on, and a flip now
            // changes nothing the colour follows.
            (.operatorChosen(.none), state(39, passed: 39, background: .flatGray, mirror: true, slot: .none)),
            (.mirrorFlipped, state(39, passed: 39, background: .flatGray, mirror: false, slot: .none)),
        ]
        Self.expectSteps(steps, session: session)
        #expect(
            slotted == [
                position(50, 11), position(50, 11), position(29, 11), position(40, 11), position(39, 11),
                position(40, 11), position(39, 11),
            ])
    }

    @Test(
        "sample in the slot: the latest position goes through when the mirror flips, if a new one came since; chosen, at once; at a quit, what it holds"
    )
    func sampleInTheSlot() {
        let session = BallSession(start: .start(at: position(50, 11)))  // flatMaroonDark on flatTealDark.
        let slotted = SlottedTap(session)
        func state(
            _ column: Int, passed: Int, background: FlatColour, mirror: Bool, held: Int64? = nil, at time: Int64
        ) -> BallState {
            BallState(
                position: position(column, 11), background: background, slot: [.sample], mirror: mirror,
                slotted: .position(position(passed, 11)), heldSince: held.map(Self.ms), time: Self.ms(time))
        }
        let steps: [(Int64, Intent?, BallState)] = [
            // Chosen: handed 50,11, then the mirror's value as it subscribes to it, which samples it.
            (0, .operatorChosen([.sample]), state(50, passed: 50, background: .flatTealDark, mirror: false, at: 0)),
            // 30,11 at 100 and 45,11 at 200: held (since 100); the colours stay.
            (
                100, .arrowPressed(.left, distance: 20),
                state(30, passed: 50, background: .flatTealDark, mirror: false, held: 100, at: 100)
            ),
            (
                200, .arrowPressed(.right, distance: 15),
                state(45, passed: 50, background: .flatTealDark, mirror: false, held: 100, at: 200)
            ),
            // Time alone changes nothing: sample has no timer.
            (5_000, nil, state(45, passed: 50, background: .flatTealDark, mirror: false, held: 100, at: 5_000)),
            // A flip samples the latest, 45,11 (30,11 never): flatBlackDark, the screen keeps flatTealDark.
            (5_100, .mirrorFlipped, state(45, passed: 45, background: .flatTealDark, mirror: true, at: 5_100)),
            // Another flip, nothing new since: nothing goes through.
            (5_200, .mirrorFlipped, state(45, passed: 45, background: .flatTealDark, mirror: false, at: 5_200)),
            (
                5_300, .arrowPressed(.left, distance: 10),
                state(35, passed: 45, background: .flatTealDark, mirror: false, held: 5_300, at: 5_300)
            ),
            // A quit completes the position, then the mirror: sample hands on 35,11 (flatRedDark
            // on flatGray) and completes.
            (5_400, .quitRequested, state(35, passed: 35, background: .flatGray, mirror: false, at: 5_400).quit),
        ]
        Self.expectTimedSteps(steps, session: session)
        #expect(slotted.values == [position(50, 11), position(50, 11), position(45, 11), position(35, 11)])
        #expect(slotted.completed)
        #expect(session.nextTimer == nil)
    }

    @Test("a chain built part-way with sample in the slot keeps what it holds: the next flip lets it through")
    func sampleBuiltPartWay() {
        let holding = BallState(
            position: position(35, 11), background: .flatTealDark, slot: [.sample], mirror: true,
            slotted: .position(position(45, 11)), heldSince: Self.ms(100), time: Self.ms(250))
        let session = BallSession(start: holding)
        #expect(session.state == holding)
        session.send(.mirrorFlipped, at: Self.ms(300))
        #expect(session.state == reduce(holding.advanced(to: Self.ms(300)), .mirrorFlipped))
        #expect(session.viewModel.slotted.latest?.position == position(35, 11))
        #expect(session.viewModel.current.background == .flatGray)
        // Holding nothing: a flip passes nothing on.
        let idle = BallState(
            position: position(45, 11), background: .flatTealDark, slot: [.sample],
            slotted: .position(position(45, 11)),
            time: Self.ms(250))
        let built = BallSession(start: idle)
        var passed: [BallPosition] = []
        let subscription = built.viewModel.slotted.dropFirst().bind { passed.append($0.position!) }
        defer { subscription.cancel() }
        built.send(.mirrorFlipped, at: Self.ms(300))
        #expect(passed.isEmpty)
        #expect(built.state == reduce(idle.advanced(to: Self.ms(300)), .mirrorFlipped))
    }

    @Test(
        "flatMapLatest in the slot, the drag: a press switches to the position, handed at once; a release to Empty(); keys alone pass nothing"
    )
    func flatMapLatestInTheSlot() {
        let session = BallSession(start: .start(at: position(50, 11)))  // flatMaroonDark on flatTealDark.
        let slotted = SlottedTap(session)
        let held = CellOffset(columns: 0, rows: 0)
        // `presses`: how many inner subscriptions it made since it went in (the lanes number them).
        func state(
            _ column: Int, passed: Int, background: FlatColour, grab: CellOffset? = nil,
            slot: SlotPipe = [.flatMapLatest], presses: Int = 1
        ) -> BallState {
            BallState(
                position: position(column, 11), grab: grab, background: background, slot: slot,
                slotted: .position(position(passed, 11)), innerSubscriptions: presses)
        }
        let steps: [(Intent, BallState)] = [
            // Chosen with the button up: switched to Empty(), nothing handed.
            (.operatorChosen([.flatMapLatest]), state(50, passed: 50, background: .flatTealDark, presses: 0)),
            // A key move: position moves, the colour does not follow.
            (.arrowPressed(.left, distance: 11), state(39, passed: 50, background: .flatTealDark, presses: 0)),
            // The press on the ball: grabbed turns true, the position is handed at once: 39,11,
            // flatRedDark on flatGray.
            (.pressed(at: Cell(column: 39, row: 11)), state(39, passed: 39, background: .flatGray, grab: held)),
            // A drag to 40,11 (flatRed on flatMint), a key move while held (back to 39,11).
            (.dragged(to: Cell(column: 40, row: 11)), state(40, passed: 40, background: .flatMint, grab: held)),
            (.arrowPressed(.left, distance: 1), state(39, passed: 39, background: .flatGray, grab: held)),
            // The release at 29,11: its position passes (flatRedDark again: the screen stays), then Empty().
            (.released(at: Cell(column: 29, row: 11)), state(29, passed: 29, background: .flatGray)),
            // Keys and a stray release with the button up: nothing passes.
            (.arrowPressed(.right, distance: 21), state(50, passed: 29, background: .flatGray)),
            (.released(at: Cell(column: 10, row: 11)), state(50, passed: 29, background: .flatGray)),
            // Out of the slot: the plain position, handed at once; a press then grabs it.
            (.operatorChosen(.none), state(50, passed: 50, background: .flatTealDark, slot: .none)),
            (
                .pressed(at: Cell(column: 50, row: 11)),
                state(50, passed: 50, background: .flatTealDark, grab: held, slot: .none)
            ),
            // Chosen mid-drag: grabbed is true, so it switches to the position at once.
            (.operatorChosen([.flatMapLatest]), state(50, passed: 50, background: .flatTealDark, grab: held)),
            // A quit completes the position, then grabbed: the slot completes.
            (.quitRequested, state(50, passed: 50, background: .flatTealDark, grab: held).quit),
        ]
        Self.expectSteps(steps, session: session)
        #expect(
            slotted.values == [
                position(50, 11), position(39, 11), position(40, 11), position(39, 11), position(29, 11),
                position(50, 11), position(50, 11),
            ])
        #expect(slotted.completed)
    }

    @Test(
        "a chain built mid-drag with flatMapLatest in the slot follows the drag; built with the button up, it does not")
    func flatMapLatestBuiltPartWay() {
        let grab = CellOffset(columns: 1, rows: 0)
        let dragging = BallState(
            position: position(35, 11), grab: grab, background: .flatGray, slot: [.flatMapLatest],
            slotted: .position(position(35, 11)))
        let session = BallSession(start: dragging)
        #expect(session.state == dragging && session.viewModel.grabbed.value)
        session.send(.dragged(to: Cell(column: 44, row: 11)))
        #expect(session.viewModel.slotted.latest?.position == position(45, 11))
        #expect(session.state == reduce(dragging, .dragged(to: Cell(column: 44, row: 11))))
        let up = BallState(
            position: position(35, 11), background: .flatTealDark, slot: [.flatMapLatest],
            slotted: .position(position(50, 11)))
        let built = BallSession(start: up)
        #expect(built.state == up && !built.viewModel.grabbed.value)
        built.send(.arrowPressed(.right, distance: 5))
        #expect(built.viewModel.slotted.latest?.position == position(50, 11))
        #expect(built.state == reduce(up, .arrowPressed(.right, distance: 5)))
    }

    @Test(
        "flatMap in the slot: each press subscribes once more and nothing cancels: after two presses each position goes through twice, keys too"
    )
    func flatMapInTheSlot() {
        let session = BallSession(start: .start(at: position(50, 11)))
        let slotted = SlottedTap(session)
        var folded = session.state
        var passes: [Int] = []
        let steps: [Intent] = [
            // Chosen with the button up: Empty(), nothing handed; a key move passes nothing.
            .operatorChosen([.flatMap]), .arrowPressed(.left, distance: 11),
            // The first press: one inner subscription, handed 39,11; a drag, then the release's
            // move, go through it once.
            .pressed(at: Cell(column: 39, row: 11)), .dragged(to: Cell(column: 40, row: 11)),
            .released(at: Cell(column: 41, row: 11)),
            // With the button up the keys still go through: nothing cancelled the subscription.
            .arrowPressed(.right, distance: 1),
            // The second press: a second inner subscription, handed 42,11; each move twice now.
            .pressed(at: Cell(column: 42, row: 11)), .released(at: Cell(column: 42, row: 11)),
            .arrowPressed(.right, distance: 2),
            // Chosen again: a new flatMap, button up: no inner subscription; keys pass nothing.
            .operatorChosen([.flatMap]), .arrowPressed(.right, distance: 1),
        ]
        for intent in steps {
            let before = (slotted.values.count, folded)
            session.send(intent)
            folded = reduce(folded, intent)
            #expect(session.state == folded, "\(intent)")
            passes.append(slotted.values.count - before.0)
            #expect(passes.last == FlatMapOperation.passes(from: before.1, to: folded, by: intent), "\(intent)")
        }
        #expect(passes == [0, 0, 1, 1, 1, 1, 1, 0, 2, 0, 0])
        #expect(folded.innerSubscriptions == 0)
        #expect(
            slotted.values == [
                position(50, 11), position(39, 11), position(40, 11), position(41, 11), position(42, 11),
                position(42, 11), position(44, 11), position(44, 11),
            ])
        session.send(.quitRequested)
        #expect(slotted.completed)
    }

    @Test(
        "a chain built part-way with flatMap in the slot makes its inner subscriptions again: each move passes as often"
    )
    func flatMapBuiltPartWay() {
        for grabbed in [false, true] {
            let state = BallState(
                position: position(35, 11), grab: grabbed ? CellOffset(columns: 0, rows: 0) : nil,
                background: .flatGray, slot: [.flatMap], slotted: .position(position(35, 11)), innerSubscriptions: 3)
            let session = BallSession(start: state)
            #expect(session.state == state)
            let slotted = SlottedTap(session)
            session.send(.arrowPressed(.right, distance: 2))
            #expect(slotted.values == [position(35, 11)] + Array(repeating: position(37, 11), count: 3))
            #expect(session.state == reduce(state, .arrowPressed(.right, distance: 2)))
        }
    }

    @Test(
        "random sessions with flatMap: after every intent the slot passed on as often as the reducer's inner subscriptions say"
    )
    func flatMapPassesAsModelled() {
        var generator = SeededGenerator()
        print("flatMap's passes: \(generator)")
        for _ in 0..<30 {
            let area = ScreenSize(columns: 30 + generator.below(60), rows: 10 + generator.below(20))
            let session = BallSession(screen: area)
            var count = 0
            let tap = session.viewModel.slotted.bind { _ in count += 1 }
            for _ in 0..<200 {
                let cell = Cell(column: generator.below(area.columns), row: generator.below(area.rows))
                let intent: Intent =
                    switch generator.below(10) {
                    case 0: .pressed(at: cell)
                    case 1, 2: .released(at: cell)
                    case 3, 4: .dragged(to: cell)
                    case 5, 6: .arrowPressed(Direction.allCases[generator.below(4)], distance: 1 + generator.below(3))
                    case 7: .recentred
                    default: .operatorChosen([[.flatMap], [.flatMapLatest], .none][generator.below(3)])
                    }
                let before = (count, session.state)
                session.send(intent)
                let after = session.state
                #expect(after == reduce(before.1, intent), "\(generator)")
                guard after.slot == [.flatMap] else { continue }
                #expect(
                    count - before.0 == FlatMapOperation.passes(from: before.1, to: after, by: intent),
                    "\(generator): \(intent)")
            }
            tap.cancel()
        }
    }

    @Test(
        "tryMap in the slot: a position in a corner throws: the error ends slotted, ballColour and background, and nothing brings the colour back"
    )
    func tryMapInTheSlot() {
        let session = BallSession(start: .start(at: position(50, 11)))
        var passed: [BallPosition] = []
        var errors: [String: Error] = [:]
        let taps = [
            session.viewModel.slotted.bind(
                onNext: { passed.append($0.position!) }, onError: { errors["slotted"] = $0 }),
            session.viewModel.ballColour.bind(onNext: { _ in }, onError: { errors["ballColour"] = $0 }),
            session.viewModel.background.bind(onNext: { _ in }, onError: { errors["background"] = $0 }),
        ]
        var folded = session.state
        // 80×24: the disc's centre goes from 9,5 to 70,17; a corner is where both ends meet.
        #expect(position(70, 17).isInCorner && position(9, 5).isInCorner && position(9, 17).isInCorner)
        #expect(!position(70, 16).isInCorner && !position(69, 17).isInCorner && !position(9, 11).isInCorner)
        let steps: [Intent] = [
            .operatorChosen([.tryMap]), .arrowPressed(.right, distance: 19), .arrowPressed(.down, distance: 5),
            // Into the bottom right corner: the drag past it is taken there, and tryMap throws.
            .pressed(at: Cell(column: 69, row: 16)), .dragged(to: Cell(column: 90, row: 30)),
            // Out again, and another operator: the colours are dead for good.
            .dragged(to: Cell(column: 40, row: 11)), .released(at: Cell(column: 40, row: 11)),
            .operatorChosen(.none), .arrowPressed(.left, distance: 5),
        ]
        for intent in steps {
            session.send(intent)
            folded = reduce(folded, intent)
            #expect(session.state == folded, "\(intent)")
        }
        // The start's position, the one tryMap is handed as it goes in, then each move till the corner.
        #expect(passed == [position(50, 11), position(50, 11), position(69, 11), position(69, 16)])
        #expect(folded.failure == .outOfBounds(position(70, 17)))
        #expect(errors.keys.sorted() == ["background", "ballColour", "slotted"])
        #expect(errors.values.allSatisfy { ($0 as? SlotError) == .outOfBounds(position(70, 17)) })
        #expect(session.viewModel.current.ball == position(69, 16).ballColour)
        // A quit ends the subjects; the colours had ended already.
        session.send(.quitRequested)
        #expect(session.state == reduce(folded, .quitRequested))
        taps.forEach { $0.cancel() }
    }

    @Test(
        "sample or debounce before tryMap: the corner they hold, handed on at the quit, throws, and the quit ends the rest",
        arguments: [[.sample, .tryMap], [.debounce, .tryMap]] as [SlotPipe]
    )
    func heldCornerThrowsAtTheQuit(pipe: SlotPipe) {
        // The ball grabbed and dragged into a corner: sample holds it until `grabbed` ends,
        // debounce until its quiet, and the quit comes first. The position's completion hands
        // it on; tryMap throws, which cancels the subscription while the stage before is still
        // handing on; the stage then completes nothing more (before, it read its freed
        // subscription and the program trapped).
        let session = BallSession(start: .start(at: position(50, 11)))
        var errors: [Error] = []
        let tap = session.viewModel.slotted.bind(onNext: { _ in }, onError: { errors.append($0) })
        var folded = session.state
        let steps: [Intent] = [
            .operatorChosen(pipe), .pressed(at: Cell(column: 50, row: 11)), .dragged(to: Cell(column: 90, row: 30)),
            .quitRequested,
        ]
        for intent in steps {
            session.send(intent)
            folded = reduce(folded, intent)
            #expect(session.state == folded, "\(pipe.name): \(intent)")
        }
        #expect(errors.map { $0 as? SlotError } == [.outOfBounds(position(70, 17))], "\(pipe.name)")
        tap.cancel()
    }

    @Test(
        "tryMap,catch: in a corner the error becomes Just the middle, then the pipe completes: the colours live on, the middle's, until another pipe"
    )
    func catchInThePipe() throws {
        for name in ["tryMap,catch", "tryMap,catchAndReturn", "tryMap,map,catch"] {
            let session = BallSession(start: .start(at: position(50, 11)))
            var (stages, colours): ([[SlotOutput]], [FlatColour]) = ([[], [], []], [])
            var ends: [String: Subscribers.Completion<Error>] = [:]
            let taps =
                (0..<3).map { index in session.viewModel.stageOutputs[index].sink { stages[index].append($0) } } + [
                    session.viewModel.ballColour.bind(
                        onNext: { colours.append($0) }, onError: { ends["colour"] = .failure($0) })
                ]
            let pipe = try SlotPipe.parse(name).get()
            var folded = session.state
            for intent: Intent in [
                .operatorChosen(pipe), .pressed(at: Cell(column: 0, row: 0)), .dragged(to: Cell(column: 30, row: 11)),
                .released(at: Cell(column: 30, row: 11)), .arrowPressed(.right, distance: 3),
            ] {
                session.send(intent)
                folded = reduce(folded, intent)
                #expect(session.state == folded, "\(name) \(intent)")
            }
            let middle = SlotOutput.position(position(40, 11))
            // The press took the ball into the top left corner: the stage before threw, and the
            // recovery passed the middle on (tryMap's own lane has nothing for the corner).
            let last = pipe.stages.count - 1
            let chosenWith = name.contains("map,") ? position(29, 11) : position(50, 11)
            #expect(stages[last] == [.position(chosenWith), middle], "\(name)")
            #expect(folded.failure == nil && folded.slotted == middle, "\(name)")
            #expect(colours.last == middle.ballColour, "\(name)")
            #expect(ends.isEmpty, "\(name): the binding lives")
            // The pipe completed: the moves after it reach nothing; another pipe follows them again.
            #expect(session.viewModel.current.ball == middle.ballColour)
            session.send(.operatorChosen(.none))
            #expect(session.viewModel.current.ball == position(33, 11).ballColour, "\(name)")
            taps.forEach { $0.cancel() }
        }
    }

    @Test(
        "tryMap,retry: the Behavior subject hands the corner again at each subscription: 3 in all, spent in one move, then the error goes on"
    )
    func retryInThePipe() throws {
        let session = BallSession(start: .start(at: position(50, 11)))
        var tried: [SlotOutput] = []
        var error: Error?
        let taps = [
            session.viewModel.stageOutputs[0].sink { tried.append($0) },
            session.viewModel.slotted.bind(onNext: { _ in }, onError: { error = $0 }),
        ]
        session.send(.operatorChosen(try SlotPipe.parse("tryMap,retry").get()))
        session.send(.arrowPressed(.right, distance: 5))
        #expect(session.state.stages[1].retries == 0)
        session.send(.pressed(at: Cell(column: 79, row: 0)))
        // tryMap's lane: the position chosen with, the move; the corner throws three times.
        #expect(tried == [.position(position(50, 11)), .position(position(55, 11))])
        #expect(session.state.stages[1].retries == 2)
        #expect((error as? SlotError) == .outOfBounds(position(70, 5)))
        #expect(session.state.failure == .outOfBounds(position(70, 5)))
        taps.forEach { $0.cancel() }
    }

    @Test(
        "flatMap,tryMap,retry: a release in a corner sends the corner before grabbed's false, so each subscription anew finds grabbed still true and is handed the corner: 3 in all, then the error"
    )
    func retryAfterFlatMapAtARelease() throws {
        let session = BallSession(start: .start(at: position(40, 11)))
        var mapped: [SlotOutput] = []
        var error: Error?
        let taps = [
            session.viewModel.stageOutputs[0].sink { mapped.append($0) },
            session.viewModel.slotted.bind(onNext: { _ in }, onError: { error = $0 }),
        ]
        session.send(.operatorChosen(try SlotPipe.parse("flatMap,tryMap,retry").get()))
        session.send(.pressed(at: Cell(column: 40, row: 11)))
        #expect(mapped == [.position(position(40, 11))])
        session.send(.released(at: Cell(column: 79, row: 23)))
        // The press's inner passes the corner on; retry's two subscriptions anew, made while
        // grabbed still holds true (RxSwift's retry resubscribes in the call that brought the
        // error), each map the press to the position again, handed the corner at once.
        #expect(mapped == [.position(position(40, 11))] + Array(repeating: .position(position(70, 17)), count: 3))
        #expect(session.state.stages[2].retries == RetryOperation.attempts - 1)
        // Each made an inner subscription, numbered on from the press's (the lanes draw them), and
        // the error that went on disposed of the pipe: no inner subscription lives.
        #expect(session.innersMade == RetryOperation.attempts)
        #expect(session.liveInners.isEmpty)
        #expect((error as? SlotError) == .outOfBounds(position(70, 17)))
        #expect(session.state.failure == .outOfBounds(position(70, 17)))
        taps.forEach { $0.cancel() }
    }

    @Test(
        "a chain built part-way after tryMap threw is built failed: a late subscriber gets the last colour, then the error"
    )
    func tryMapBuiltPartWay() {
        let failed = BallState(
            position: position(40, 11), background: .flatGray, slot: .none,
            slotted: .position(position(39, 11)), failure: .outOfBounds(position(69, 17)))
        let session = BallSession(start: failed)
        #expect(session.state == failed)
        var colours: [FlatColour] = []
        var error: Error?
        let tap = session.viewModel.ballColour.bind(onNext: { colours.append($0) }, onError: { error = $0 })
        #expect(colours == [position(39, 11).ballColour])
        #expect((error as? SlotError) == .outOfBounds(position(69, 17)))
        session.send(.arrowPressed(.right, distance: 3))
        #expect(session.state == reduce(failed, .arrowPressed(.right, distance: 3)))
        #expect(session.viewModel.current.ball == position(39, 11).ballColour)
        tap.cancel()
    }

    @Test(
        "the counter in the slot: map makes each position a 1 and scan adds them up; the ball takes the count's colour, the screen its complement"
    )
    func counterInTheSlot() {
        let session = BallSession(start: .start(at: position(50, 11)))  // flatMaroonDark on flatTealDark.
        var counts: [SlotOutput] = []
        let subscription = session.viewModel.slotted.bind { counts.append($0) }
        defer { subscription.cancel() }
        func state(_ column: Int, count: Int, background: FlatColour) -> BallState {
            // map's stage last passed on a 1; scan's, the count.
            BallState(
                position: position(column, 11), background: background, slot: .counter, slotted: .count(count),
                stages: [SlotStage(passed: .count(1)), SlotStage(passed: .count(count))])
        }
        let steps: [(Intent, BallState)] = [
            // Chosen: handed 50,11, which counts 1: flatRed, on its complement flatMint.
            (.operatorChosen(.counter), state(50, count: 1, background: .flatMint)),
            // Each move one more: 2 flatOrange, 3 flatYellow, each on its complement.
            (.arrowPressed(.left, distance: 1), state(49, count: 2, background: FlatColour.flatOrange.complement)),
            (.arrowPressed(.left, distance: 1), state(48, count: 3, background: FlatColour.flatYellow.complement)),
            // A flip of the mirror is no move: the count stays.
            (
                .mirrorFlipped,
                {
                    var flipped = state(48, count: 3, background: FlatColour.flatYellow.complement)
                    flipped.mirror = true
                    return flipped
                }()
            ),
        ]
        Self.expectSteps(steps, session: session)
        // Chosen again: a new scan, from 1; then out of the slot: the position's colour again.
        session.send(.operatorChosen(.counter))
        #expect(session.state.slotted == .count(1) && session.state.ballColour == .flatRed)
        session.send(.operatorChosen(.none))
        #expect(session.state.slotted == .position(position(48, 11)))
        #expect(session.state == reduce(reduce(steps.last!.1, .operatorChosen(.counter)), .operatorChosen(.none)))
        #expect(
            counts == [
                .position(position(50, 11)), .count(1), .count(2), .count(3), .count(1), .position(position(48, 11)),
            ])
    }

    @Test(
        "merge in the slot: each new position the mouse or the keys made, as it comes; nothing when chosen, nothing for a resize"
    )
    func mergeInTheSlot() {
        let session = BallSession(start: .start(at: position(50, 11)))  // flatMaroonDark on flatTealDark.
        let slotted = SlottedTap(session)
        let held = CellOffset(columns: 0, rows: 0)
        func state(_ column: Int, passed: Int, background: FlatColour, grab: CellOffset? = nil) -> BallState {
            onRow11(column, passed: passed, background: background, grab: grab, slot: [.merge])
        }
        let steps: [(Intent, BallState)] = [
            // Chosen: mouse and keys hand nothing.
            (.operatorChosen([.merge]), state(50, passed: 50, background: .flatTealDark)),
            // From the keys: 39,11, flatRedDark on flatGray.
            (.arrowPressed(.left, distance: 11), state(39, passed: 39, background: .flatGray)),
            // From the mouse: a press away, at 29,11 (flatRedDark again: the screen stays), a
            // drag to 50,11, its release there (no new position: nothing).
            (.pressed(at: Cell(column: 29, row: 11)), state(29, passed: 29, background: .flatGray, grab: held)),
            (.dragged(to: Cell(column: 50, row: 11)), state(50, passed: 50, background: .flatTealDark, grab: held)),
            (.released(at: Cell(column: 50, row: 11)), state(50, passed: 50, background: .flatTealDark)),
        ]
        Self.expectSteps(steps, session: session)
        // A resize that clamps the ball: a new position, which neither made.
        let small = ScreenSize(columns: 40, rows: 24)
        session.send(.resized(small))
        #expect(session.state.position.screen == small && session.state.position.centre.column < 40)
        #expect(session.state.slotted == .position(position(50, 11)))
        #expect(session.state == reduce(steps.last!.1, .resized(small)))
        session.send(.quitRequested)
        #expect(
            slotted.values == [position(50, 11), position(39, 11), position(29, 11), position(50, 11)]
                && slotted.completed)
    }

    @Test(
        "startWith in the slot: the middle first when chosen (dropFirst skips the position handed over), then each new position"
    )
    func startWithInTheSlot() {
        let session = BallSession(start: .start(at: position(50, 11)))  // flatMaroonDark on flatTealDark.
        let slotted = SlottedTap(session)
        func state(_ column: Int, passed: Int, background: FlatColour) -> BallState {
            var state = onRow11(column, passed: passed, background: background, grab: nil, slot: [.startWith])
            // The middle it took as it was chosen, for a subscription anew (retry's) to get first.
            state.stages[0].given = .position(position(40, 11))
            return state
        }
        let steps: [(Intent, BallState)] = [
            // Chosen with the ball at 50,11: the middle, 40,11, goes first: flatRed on flatMint.
            (.operatorChosen([.startWith]), state(50, passed: 40, background: .flatMint)),
            // Then each new position: 39,11, flatRedDark on flatGray.
            (.arrowPressed(.left, distance: 11), state(39, passed: 39, background: .flatGray)),
            // Chosen again: the middle first again.
            (.operatorChosen([.startWith]), state(39, passed: 40, background: .flatMint)),
        ]
        Self.expectSteps(steps, session: session)
        #expect(slotted.values == [position(50, 11), position(40, 11), position(39, 11), position(40, 11)])
    }

    @Test(
        "startWith, tryMap, retry: each subscription anew puts first the middle startWith took as the pipe was made, after a resize too"
    )
    func retryResubscribesToTheStartWithAsMade() {
        let made = ScreenSize(columns: 80, rows: 24)
        let session = BallSession(start: .start(at: BallPosition(centre: Cell(column: 50, row: 11), screen: made)))
        let middle = SlotOutput.position(.centred(on: session.state.position.screen))
        var folded = session.state
        // Into a corner (tryMap throws; retry subscribes anew: the middle first), then a smaller
        // screen and into its corner (it throws again; retry again).
        let intents: [Intent] = [
            .operatorChosen([.startWith, .tryMap, .retry]), .arrowPressed(.up, distance: 100),
            .arrowPressed(.left, distance: 100), .resized(ScreenSize(columns: 50, rows: 18)),
            .arrowPressed(.up, distance: 100), .arrowPressed(.left, distance: 100),
        ]
        for intent in intents {
            session.send(intent)
            folded = reduce(folded, intent)
            #expect(session.state == folded, "\(intent)")
        }
        #expect(folded.position.screen != middle.position?.screen, "the screen changed since the pipe was made")
        #expect(folded.stages[2].retries == 2, "two subscriptions anew: \(folded.stages)")
        #expect(session.viewModel.slotted.latest == middle, "the middle of the screen as the pipe was made")
    }

    @Test("a chain built part-way with startWith in the slot puts nothing first: it did when it was chosen")
    func startWithBuiltPartWay() {
        let later = onRow11(35, passed: 35, background: .flatGray, grab: nil, slot: [.startWith])
        let session = BallSession(start: later)
        let slotted = SlottedTap(session)
        #expect(session.state == later && slotted.values == [position(35, 11)])
        session.send(.arrowPressed(.right, distance: 2))
        #expect(slotted.values == [position(35, 11), position(37, 11)])
        #expect(session.state == reduce(later, .arrowPressed(.right, distance: 2)))
    }

    @Test(
        "distinctUntilChanged in the slot: the position it is handed when chosen, then only a position in the other half from the last that went through"
    )
    func distinctUntilChangedInTheSlot() {
        let session = BallSession(start: .start(at: position(50, 11)))  // flatMaroonDark on flatTealDark.
        let slotted = SlottedTap(session)
        func state(_ column: Int, passed: Int, background: FlatColour) -> BallState {
            onRow11(column, passed: passed, background: background, grab: nil, slot: [.distinctUntilChanged])
        }
        let steps: [(Intent, BallState)] = [
            // Chosen: handed 50,11, the first, which goes through.
            (.operatorChosen([.distinctUntilChanged]), state(50, passed: 50, background: .flatTealDark)),
            // 45,11: the right half still (from column 40 on): dropped.
            (.arrowPressed(.left, distance: 5), state(45, passed: 50, background: .flatTealDark)),
            // 39,11: the left half: through, flatRedDark on flatGray.
            (.arrowPressed(.left, distance: 6), state(39, passed: 39, background: .flatGray)),
            // 29,11: left again: dropped.
            (.arrowPressed(.left, distance: 10), state(29, passed: 39, background: .flatGray)),
            // 40,11, the middle column: the right half, through: flatRed on flatMint.
            (.arrowPressed(.right, distance: 11), state(40, passed: 40, background: .flatMint)),
        ]
        Self.expectSteps(steps, session: session)
        #expect(slotted.values == [position(50, 11), position(50, 11), position(39, 11), position(40, 11)])
    }

    @Test("a chain built part-way with distinctUntilChanged in the slot compares with the last that went through")
    func distinctUntilChangedBuiltPartWay() {
        // 29,11, after 39,11 went through: the left half, as the last.
        let later = onRow11(29, passed: 39, background: .flatGray, grab: nil, slot: [.distinctUntilChanged])
        let session = BallSession(start: later)
        #expect(session.state == later)
        session.send(.arrowPressed(.right, distance: 5))
        #expect(session.state == reduce(later, .arrowPressed(.right, distance: 5)))
        #expect(session.viewModel.slotted.latest == .position(position(39, 11)), "34,11 is left still: dropped")
        session.send(.arrowPressed(.right, distance: 6))
        #expect(session.viewModel.slotted.latest == .position(position(40, 11)))
        #expect(
            session.state
                == reduce(reduce(later, .arrowPressed(.right, distance: 5)), .arrowPressed(.right, distance: 6)))
    }

    @Test("the six count colours: none its own complement (the screen always changes), each unlike the next")
    func countColours() {
        let colours = SlotOutput.countColours
        #expect(colours == [.flatRed, .flatOrange, .flatYellow, .flatGreen, .flatSkyBlue, .flatPurple])
        for colour in colours { #expect(colour.complement != colour, "\(colour)") }
        #expect((1...13).map { SlotOutput.count($0).ballColour } == colours + colours + [.flatRed])
    }

    @Test("a chain built part-way with the counter in the slot goes on counting from the state's count")
    func counterBuiltPartWay() {
        for count in [1, 2, 7, 500, 1_000_000] {
            let counting = BallState(
                position: position(35, 11), background: SlotOutput.count(count).ballColour.complement,
                slot: .counter, slotted: .count(count))
            let session = BallSession(start: counting)
            #expect(session.state == counting, "\(count)")
            session.send(.arrowPressed(.right, distance: 2))
            #expect(session.viewModel.slotted.latest == .count(count + 1), "\(count)")
            #expect(session.state == reduce(counting, .arrowPressed(.right, distance: 2)), "\(count)")
        }
    }

    @Test("a chain built at a state starts there: in the black band it keeps that state's screen colour")
    func builtAtAState() {
        // 43,11 is in the black band: only the state tells what colour the screen has.
        let start = BallState(
            position: position(43, 11), grab: CellOffset(columns: 1, rows: 0), background: .flatOrange)
        let session = BallSession(start: start)
        #expect(session.state == start)
        #expect(
            session.viewModel.current
                == Appearance(position: position(43, 11), ball: .flatBlackDark, background: .flatOrange))
        var backgrounds: [FlatColour] = []
        let subscription = session.viewModel.background.bind { backgrounds.append($0) }
        defer { subscription.cancel() }
        session.send(.arrowPressed(.down, distance: 1))  // 43,12: 536, 26 mod 255: still black.
        session.send(.arrowPressed(.left, distance: 3))  // 40,12: 512, 2 mod 255: still black.
        #expect(backgrounds == [.flatOrange])
        session.send(.recentred)  // 40,11: flatRed, whose complement is flatMint.
        #expect(backgrounds == [.flatOrange, .flatMint])
    }

    @Test("a late subscriber gets the latest position and colours at once, then the rest")
    func lateSubscriber() {
        let viewModel = BallViewModel(
            start: BallState(position: position(0, 0), background: .flatWhite), clock: SessionScheduler())
        viewModel.position.send(position(30, 0))
        viewModel.position.send(position(16, 8))  // Black: the background stays mint.
        var positions: [BallPosition] = []
        var balls: [FlatColour] = []
        var backgrounds: [FlatColour] = []
        var cancellables = Set<AnyCancellable>()
        viewModel.position.sink { positions.append($0) }.store(in: &cancellables)
        viewModel.ballColour.bind { balls.append($0) }.store(in: &cancellables)
        viewModel.background.bind { backgrounds.append($0) }.store(in: &cancellables)
        #expect(positions == [position(16, 8)])
        #expect(balls == [.flatBlackDark])
        #expect(backgrounds == [.flatMint])
        viewModel.position.send(position(8, 2))  // 96: flatMaroonDark on flatTealDark.
        #expect(positions == [position(16, 8), position(8, 2)])
        #expect(balls == [.flatBlackDark, .flatMaroonDark])
        #expect(backgrounds == [.flatMint, .flatTealDark])
    }

    @Test("the operators run once however many subscribe: one scan's memory for all")
    func sharedOnce() {
        let viewModel = BallViewModel(
            start: BallState(position: position(30, 0), background: .flatMint), clock: SessionScheduler())  // flatRed.
        var first: [FlatColour] = []
        let early = viewModel.background.bind { first.append($0) }
        defer { early.cancel() }
        viewModel.position.send(position(16, 8))  // Black: the scan remembers mint.
        // A subscriber that comes now gets the remembered mint, not a scan of its own from white.
        var second: [FlatColour] = []
        let late = viewModel.background.bind { second.append($0) }
        defer { late.cancel() }
        viewModel.position.send(position(17, 8))  // 264, 9 mod 255: still black.
        #expect(first == [.flatMint])
        #expect(second == [.flatMint])
    }

    @Test("a repeated position derives nothing new, and draws nothing")
    func noDuplicateRedraws() {
        let driver = Pilot<Play>(screen: screen)
        var colours: [FlatColour] = []
        let subscription = driver.session.viewModel.ballColour.bind { colours.append($0) }
        defer { subscription.cancel() }
        let presents = driver.terminal.presentCount
        driver.send(.dragged(to: Cell(column: 1, row: 1)))  // Not grabbed: no move.
        driver.send(.recentred)  // Already centred.
        #expect(driver.terminal.presentCount == presents)
        driver.press(.right)
        #expect(driver.terminal.presentCount == presents + 1)
        // 41,11 is 504 points (249 mod 255): red, as at the centre; the colour is published once.
        driver.press(.left)
        driver.press(.right)
        #expect(colours == [.flatRed])
        #expect(driver.terminal.presentCount == presents + 3)
    }

    @Test("the session sends the subject only positions that changed, and keeps the grab beside it")
    func sessionSendsChangesOnly() {
        let session = BallSession(screen: screen)
        var positions: [BallPosition] = []
        let subscription = session.viewModel.position.sink { positions.append($0) }
        defer { subscription.cancel() }
        let start = position(40, 11)
        session.send(.pressed(at: Cell(column: 42, row: 11)))  // On the ball: grabbed, no move.
        #expect(
            session.state == BallState(position: start, grab: CellOffset(columns: -2, rows: 0), background: .flatMint))
        session.send(.dragged(to: Cell(column: 45, row: 11)))
        session.send(.dragged(to: Cell(column: 45, row: 11)))  // Same place: nothing sent.
        session.send(.arrowPressed(.up, distance: 100))  // To the top edge.
        session.send(.arrowPressed(.up, distance: 1))  // Clamped there: nothing sent.
        session.send(.released(at: Cell(column: 45, row: 11)))
        #expect(positions == [start, position(43, 11), position(43, 5), position(43, 11)])
        // 43,5 is 424 points, 169 mod 255: flatRedDark on flatGray; back at 43,11 (black) the
        // screen keeps flatGray.
        #expect(session.state == BallState(position: position(43, 11), grab: nil, background: .flatGray))
    }

    @Test(
        "random sessions: after every intent the chain shows what the reducer folded, whole: every operator, tryMap's errors and flatMap's inner subscriptions too"
    )
    func chainAgreesWithTheReducer() {
        var generator = SeededGenerator()
        print("the chain against the reducer: \(generator)")
        var (failed, inners) = (0, 0)
        for _ in 0..<40 {
            var area = ScreenSize(columns: 30 + generator.below(80), rows: 10 + generator.below(30))
            let session = BallSession(screen: area)
            var folded = BallState.start(on: area)
            var published: [Intent] = []
            let tap = session.intents.sink { published.append($0) }
            for _ in 0..<300 {
                // Anywhere, inside the area or not: the session fits what it can.
                let cell = Cell(
                    column: generator.below(area.columns + 20) - 10, row: generator.below(area.rows + 20) - 10)
                let intent: Intent
                switch generator.below(13) {
                case 12:
                    // tryMap more often than the rest: its error ends the colours for the session.
                    let operators = SlotOperator.allCases + [.tryMap, .tryMap, .flatMap, .flatMap, .flatMap, .flatMap]
                    intent = .operatorChosen(operators[generator.below(operators.count)].alone)
                case 0: intent = .pressed(at: cell)
                case 1...6: intent = .dragged(to: cell)
                case 7: intent = .released(at: cell)
                case 8, 9: intent = .arrowPressed(Direction.allCases[generator.below(4)], distance: generator.below(8))
                case 10: intent = .recentred
                default:
                    area = ScreenSize(columns: 10 + generator.below(100), rows: 4 + generator.below(40))
                    intent = .resized(area)
                }
                let before = published.count
                session.send(intent)
                if published.count > before {
                    #expect(published.last!.isValid(in: folded.position.screen), "\(generator)")
                    folded = reduce(folded, published.last!)
                }
                #expect(session.state == folded, "\(generator)")
                #expect(session.viewModel.current == folded.appearance, "\(generator)")
                inners = max(inners, folded.innerSubscriptions)
            }
            if folded.failure != nil { failed += 1 }
            tap.cancel()
        }
        // The runs reach what they are to check: an error, and more than one inner subscription.
        #expect(failed > 0 && inners > 1, "\(generator): \(failed) failed, at most \(inners) inner subscriptions")
    }
}

/// Everything the chain's `slotted` sends one subscriber: its values, and whether it completed.
final class SlottedTap {
    /// The values, in order (the first: the latest, handed as it subscribed).
    private(set) var values: [BallPosition] = []
    /// Whether it completed.
    private(set) var completed = false
    private var subscription: AnyCancellable?

    /// Subscribes to `session`'s `slotted` now.
    init(_ session: BallSession) {
        subscription = session.viewModel.slotted.sink(
            receiveCompletion: { [unowned self] _ in completed = true },
            receiveValue: { [unowned self] in values.append($0.position!) })
    }
}

/// One definition of a valid intent: what the session lets in is what a replay may hold.
@Suite("Valid intents")
struct ValidIntentTests {
    let area = ScreenSize(columns: 80, rows: 16)

    @Test("a press outside the area is not the ball's; a drag or release outside is taken at the nearest cell")
    func pointerCells() {
        #expect(Intent.pressed(at: Cell(column: 10, row: 20)).fitted(to: area) == nil)
        #expect(Intent.pressed(at: Cell(column: -1, row: 3)).fitted(to: area) == nil)
        #expect(
            Intent.pressed(at: Cell(column: 79, row: 15)).fitted(to: area) == .pressed(at: Cell(column: 79, row: 15)))
        #expect(
            Intent.dragged(to: Cell(column: 90, row: 20)).fitted(to: area) == .dragged(to: Cell(column: 79, row: 15)))
        #expect(
            Intent.released(at: Cell(column: -4, row: -2)).fitted(to: area) == .released(at: Cell(column: 0, row: 0)))
        #expect(!Intent.dragged(to: Cell(column: 80, row: 0)).isValid(in: area))
        #expect(Intent.dragged(to: Cell(column: 0, row: 0)).fitted(to: ScreenSize(columns: 0, rows: 5)) == nil)
    }

    @Test("moves of 1 to 1000 cells, sizes of 1 to 1000 each way")
    func movesAndSizes() {
        #expect(Intent.arrowPressed(.left, distance: 0).fitted(to: area) == nil)
        #expect(Intent.arrowPressed(.left, distance: 5000).fitted(to: area) == .arrowPressed(.left, distance: 1000))
        #expect(Intent.arrowPressed(.up, distance: 1000).isValid(in: area))
        #expect(
            Intent.resized(ScreenSize(columns: 1200, rows: 0)).fitted(to: area)
                == .resized(ScreenSize(columns: 1000, rows: 1)))
        #expect(Intent.resized(ScreenSize(columns: 1000, rows: 1000)).isValid(in: area))
        #expect(Intent.quitRequested.isValid(in: area) && Intent.recentred.isValid(in: area))
        // A session in a window larger than any recording holds plays in the largest area.
        let session = BallSession(screen: ScreenSize(columns: 1_200, rows: 1_100))
        #expect(session.state.position.screen == ScreenSize(columns: 1_000, rows: 1_000))
    }
}

extension BallState {
    /// This state after a quit: the position completed, so the first stage's upstream has ended.
    var quit: BallState {
        var ended = self
        ended.stages[0].upstreamEnded = true
        return ended
    }
}

/// The reducer's model of the slot's pipe against the real chain, over random pipes of one to
/// three stages.
@Suite("Pipes")
struct PipeTests {
    @Test(
        "random pipes on random sessions in virtual time: after every intent and timer the chain shows what the reducer folded, whole; a chain built part-way goes on as the one that ran",
        .tags(.slow), .skippedInQuickRuns)
    func chainAgreesWithTheReducerOverPipes() {
        var generator = SeededGenerator()
        print("pipes: \(generator)")
        // How often an error came, and each way it went: the random runs must reach each.
        var (dead, caught, retried, deadAfterRetries) = (0, 0, 0, 0)
        var waited = Set<SlotInterval>()
        for run in 0..<60 {
            var area = ScreenSize(columns: 30 + generator.below(60), rows: 10 + generator.below(20))
            var sessions = [BallSession(screen: area)]
            var folded = BallState.start(on: area)
            var time = SessionTime.start
            var stageTaps: [[SlotOutput]] = Array(repeating: [], count: SlotPipe.most)
            var taps = sessions[0].viewModel.stageOutputs.enumerated().map { index, subject in
                subject.sink { stageTaps[index].append($0) }
            }
            for step in 0..<250 {
                // Mostly quick, a drag's reports; at times near or exactly the timed stage's interval
                // (100, 300 or 1000 ms: each pipe chosen draws one at random).
                let wait = Int64((folded.slot.timing ?? .usual).milliseconds) * 1_000
                let gap: Int64 =
                    switch generator.below(6) {
                    case 0: wait
                    case 1: wait - 50_000 + Int64(generator.below(200_000))
                    default: Int64(generator.below(120_000))
                    }
                time = time.advanced(by: .microseconds(Int(gap)))
                let cell = Cell(column: generator.below(area.columns), row: generator.below(area.rows))
                let intent: Intent
                switch generator.below(20) {
                case 0 where generator.below(2) == 0:
                    // A pipe that can fail, and at times recovers: its error and the recovery.
                    intent = .operatorChosen(Self.failingPipes[generator.below(Self.failingPipes.count)])
                case 0...1: intent = folded.slot.randomChange(using: &generator)
                case 2: intent = .mirrorFlipped
                case 3 where generator.below(2) == 0:
                    // A press at a corner of the area: the ball goes into that corner.
                    let corner = Cell(
                        column: generator.below(2) * (area.columns - 1), row: generator.below(2) * (area.rows - 1))
                    intent = .pressed(at: corner)
                case 3...4: intent = .pressed(at: cell)
                case 5...10: intent = .dragged(to: cell)
                case 11...12: intent = .released(at: cell)
                case 13...16:
                    intent = .arrowPressed(Direction.allCases[generator.below(4)], distance: 1 + generator.below(4))
                case 17: intent = .recentred
                case 18 where generator.below(4) == 0:
                    area = ScreenSize(columns: 20 + generator.below(70), rows: 8 + generator.below(25))
                    intent = .resized(area)
                default: intent = step > 200 && generator.below(8) == 0 ? .quitRequested : .recentred
                }
                // Each interval waited out: a timed stage's timer went off before this intent.
                if let due = folded.nextTimer, due < time, let timing = folded.slot.timing { waited.insert(timing) }
                let (failedBefore, finishedBefore, retriesBefore) = (
                    folded.failure != nil, folded.stages.contains(where: \.finished),
                    intent.buildsPipe ? 0 : folded.stages.map(\.retries).reduce(0, +)
                )
                for session in sessions { session.send(intent, at: time) }
                if let fitted = intent.fitted(to: folded.position.screen), folded.slot.accepts(fitted),
                    !sessions[0].isFinished || intent.endsSession
                {
                    folded = folded.after(fitted, at: time)
                }
                for (index, session) in sessions.enumerated() {
                    #expect(session.state == folded, "run \(run) step \(step) session \(index) \(intent) \(generator)")
                }
                if sessions[0].failure != nil, !failedBefore {
                    dead += 1
                    if folded.stages.contains(where: { $0.retries > 0 }) { deadAfterRetries += 1 }
                }
                if folded.stages.contains(where: \.finished), !finishedBefore { caught += 1 }

                if folded.stages.map(\.retries).reduce(0, +) > retriesBefore { retried += 1 }
                // What each stage but the last passed on last is what its lane received last.
                for (index, stage) in folded.stages.dropLast().enumerated() {
                    guard let passed = stage.passed else { continue }
                    #expect(stageTaps[index].last == passed, "run \(run) step \(step) stage \(index) \(generator)")
                }
                // Now and then, a chain built part-way at this state: it must go on as the one that ran.
                if generator.below(40) == 0, !sessions[0].isFinished {
                    sessions = [sessions[0], BallSession(start: folded)]
                }
                if sessions[0].isFinished { break }
            }
            // The timers left run out, in every session alike.
            let end = time.advanced(by: .seconds(2))
            folded = folded.advanced(to: end)
            for session in sessions {
                session.advance(to: end)
                #expect(session.state == folded, "run \(run) the end \(generator)")
            }
            taps.removeAll()
        }
        print(
            "pipes: \(dead) errors ended the chain (\(deadAfterRetries) after retries), \(caught) caught, \(retried) retried"
        )
        #expect(dead > 0 && caught > 0 && retried > 0 && deadAfterRetries > 0, "\(generator)")
        #expect(waited == Set(SlotInterval.allCases), "every interval a timed stage waits: \(waited), \(generator)")
    }

    /// Pipes with a stage that can fail, with and without a recovery, the failure first, in the
    /// middle and last.
    static let failingPipes: [SlotPipe] = [
        "tryMap", "tryMap,catch", "tryMap,retry", "tryMap,catchAndReturn", "tryMap,map", "tryMap,map,catch",
        "filter,tryMap,retry", "tryMap,retry,catch", "tryMap,catch,distinctUntilChanged", "tryMap,mapToOne,scan",
        "debounce,tryMap,retry",
        "flatMapLatest,tryMap,retry", "startWith,tryMap,catchAndReturn", "tryMap,retry,map", "sample,tryMap,catch",
        "tryMap,filter,catchAndReturn", "flatMap,tryMap,retry", "merge,tryMap,retry", "throttle,tryMap,retry",
        "combineLatest,tryMap,retry", "distinctUntilChanged,tryMap,retry",
    ].map { try! SlotPipe.parse($0).get() }

    @Test(
        "a pipe's code reads as RxSwift writes it: each stage on what the one before passes on, Observable.combineLatest wrapping it; the lane's label names the operator"
    )
    func pipeCode() throws {
        #expect(
            try SlotPipe.parse("filter,debounce").get().code
                == "position.filter { $0.isInRightHalf }.debounce(.milliseconds(300), scheduler: clock)")
        #expect(
            try SlotPipe.parse("filter,combineLatest").get().code
                == "Observable.combineLatest(position.filter { $0.isInRightHalf }, mirror) { $1 ? $0.mirrored : $0 }")
        #expect(
            try SlotPipe.parse("merge,tryMap,catchAndReturn").get().code
                == "Observable.merge(mouse, keys).map { guard !$0.isInCorner else { throw SlotError.outOfBounds($0) }; return $0 }.catchAndReturn(.centred(on: screen))"
        )
        #expect(try SlotPipe.parse("tryMap,retry").get().code.hasSuffix(".retry(\(RetryOperation.attempts))"))
        // Combine's replaceError, the name older recordings wrote, reads as catchAndReturn.
        #expect(try SlotPipe.parse("tryMap,replaceError").get() == [.tryMap, .catchAndReturn])
        #expect(SlotOperator.combineLatest.stageLabel(width: 14) == ".combineLatest")
        #expect(SlotOperator.merge.stageLabel(width: 14) == ".merge(…)")
        #expect(SlotOperator.scan.stageLabel(width: 14) == ".scan(0) { … }")
        #expect(SlotPipe.counter.code == "position.map { _ in 1 }.scan(0) { $0 + $1 }")
    }

    @Test("pipes by name: map,scan is the counter; what does not fit is one sentence")
    func pipesByName() throws {
        #expect(try SlotPipe.parse("map,scan").get() == .counter)
        #expect(try SlotPipe.parse("counter").get() == .counter)
        #expect(try SlotPipe.parse("filter,debounce").get().stages == [.filter, .debounce])
        #expect(try SlotPipe.parse("none").get() == .none)
        #expect(SlotPipe(rawValue: SlotPipe.counter.rawValue) == .counter)
        // A timed stage's interval after a colon; alone, the usual 300 ms; written back as read.
        let long = try SlotPipe.parse("filter,debounce:1000ms").get()
        #expect(long.stages == [.filter, SlotOperator.debounce.waiting(.long)] && long.timing == .long)
        #expect(long.rawValue == "filter,debounce:1000ms" && long.operatorNames == "filter,debounce")
        #expect(long != [.filter, .debounce])
        #expect(try SlotPipe.parse("throttle:100ms").get().stages.first?.operation.interval == .milliseconds(100))
        #expect(try SlotPipe.parse("debounce:300ms").get() == [.debounce])
        #expect(SlotPipe([.debounce]).timing == .usual && SlotPipe([.debounce]).rawValue == "debounce")
        for interval in SlotInterval.allCases {
            let pipe = SlotPipe([.map, SlotOperator.throttle.waiting(interval)])
            #expect(SlotPipe(rawValue: pipe.rawValue) == pipe, "\(pipe.rawValue)")
        }
        let wrong: [(String, String)] = [
            (
                "filter,debounce:250ms",
                "'250ms' is no interval debounce takes: give debounce:100ms, debounce:300ms or debounce:1000ms (debounce alone waits 300 ms)"
            ),
            ("throttle:1s", "'1s' is no interval throttle takes: give throttle:100ms"),
            ("filter:100ms", "filter does not run on a clock, so it takes no interval: only debounce and throttle do"),
            ("teleport:100ms", "'teleport:100ms' is no operator"),
            ("scan", "scan takes counts, but the stage before it passes on positions (map,scan counts)"),
            ("filter,map,debounce,throttle", "a pipe holds at most 3 stages, not 4"),
            ("filter,merge", "merge reads the subjects itself, so it can only be a pipe's first stage"),
            ("map,scan,filter", "filter takes positions, but the stage before it passes on counts"),
            ("filter,,map", "an empty name is no operator"),
            ("none,filter", "none is the empty pipe: it cannot be a stage of one"),
            ("debounce,throttle", "a pipe holds one timed operator (debounce or throttle) at most"),
            (
                "sample,combineLatest",
                "a pipe holds one operator that reads the mirror (combineLatest or sample) at most"
            ),
            ("throttle,map,combineLatest", "combineLatest goes before debounce or throttle, not after"),
        ]
        for (text, sentence) in wrong {
            guard case .failure(let problem) = SlotPipe.parse(text) else {
                Issue.record("\(text) parsed")
                continue
            }
            #expect(problem.description.hasPrefix(sentence), "\(text): \(problem)")
        }
        // Every pipe of up to three operators that fits is written and read back as itself.
        for first in SlotOperator.allCases {
            for second in SlotOperator.allCases {
                for third in SlotOperator.allCases {
                    let pipe = SlotPipe([first, second, third])
                    guard pipe.problem == nil else { continue }
                    #expect(SlotPipe(rawValue: pipe.rawValue) == pipe, "\(pipe.rawValue)")
                }
            }
        }
    }

    @Test("the seed's counter as two stages: map's lane 1 1 1 over scan's 1 2 3, on moves")
    func counterInTwoStages() {
        let session = BallSession(screen: ScreenSize(columns: 80, rows: 24))
        var lanes: [[SlotOutput]] = [[], []]
        let taps = (0..<2).map { index in session.viewModel.stageOutputs[index].sink { lanes[index].append($0) } }
        defer { taps.forEach { $0.cancel() } }
        session.send(.operatorChosen(try! SlotPipe.parse("map,scan").get()))
        session.send(.arrowPressed(.left, distance: 1))
        session.send(.arrowPressed(.up, distance: 1))
        #expect(lanes[0] == [.count(1), .count(1), .count(1)])
        #expect(lanes[1] == [.count(1), .count(2), .count(3)])
        #expect(session.state.slotted == .count(3))
        // A stage added builds the pipe anew: scan starts again from 0.
        session.send(.stageAdded(.debounce))
        #expect(session.state.slot.stages == [.mapToOne, .scan, .debounce])
        session.send(.stageRemoved)
        #expect(session.state.slot == .counter && session.state.slotted == .count(1))
        // A stage that does not fit is not let in.
        session.send(.stageAdded(.filter))
        #expect(session.state.slot == .counter)
    }

    /// `pipe` chosen at 10 ms on a new session on `screen`, each of `moves` sent at its time (in
    /// ms), then a quit at `quit` ms: the states after the choice and after each move, and the
    /// session after the quit. The reducer, folding the quit from the last state, must pass on
    /// what the chain did: at a quit the mirror completes before mouse and keys, so what `merge`
    /// hands on after it is never sampled.
    private func quitting(
        _ pipe: String, on screen: ScreenSize, after moves: [(Intent, at: Int64)], at quit: Int64,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> (states: [BallState], session: BallSession) {
        let session = BallSession(screen: screen)
        session.send(.operatorChosen(try! SlotPipe.parse(pipe).get()), at: ChainTests.ms(10))
        var states = [session.state]
        for (intent, time) in moves {
            session.send(intent, at: ChainTests.ms(time))
            states.append(session.state)
        }
        session.send(.quitRequested, at: ChainTests.ms(quit))
        let modelled = reduce(states[states.count - 1].reached(ChainTests.ms(quit)), .quitRequested)
        #expect(
            modelled.slotted == session.state.slotted, "the reducer: \(String(describing: modelled.slotted))",
            sourceLocation: sourceLocation)
        return (states, session)
    }

    @Test(
        "sample after merge never completes at a quit: the mirror completes before mouse and keys, so debounce after it keeps what it holds"
    )
    func sampleAfterMergeAtQuit() {
        // The mirror completes first: sample passes on what it holds (the keys' move) and
        // debounce holds it; merge completes after, but sample's trigger is gone.
        let (states, session) = quitting(
            "merge,sample,debounce", on: ScreenSize(columns: 80, rows: 24),
            after: [(.arrowPressed(.right, distance: 3), at: 100)], at: 200)
        #expect(states[1].slotted == states[0].slotted)
        #expect(session.state.slotted == states[0].slotted)
        #expect(session.nextTimer == ChainTests.ms(500))
    }

    @Test(
        "merge, debounce, sample at a quit: what debounce hands on as merge completes comes after the mirror completed, and is never sampled"
    )
    func sampleNeverSamplesWhatComesAfterTheMirror() {
        // debounce holds the move; the quit comes before its 300 ms.
        let (states, session) = quitting(
            "merge,debounce,sample", on: ScreenSize(columns: 71, rows: 23),
            after: [(.arrowPressed(.down, distance: 4), at: 100)], at: 200)
        #expect(session.state.slotted == states[0].slotted, "the chain: sample's trigger ended first")
    }

    @Test(
        "merge, debounce, sample at a quit, sample holding a move: the mirror completes first, so it passes the move it held, not the one debounce hands on after"
    )
    func sampleAtAQuitPassesWhatItHeldBeforeTheMirrorCompleted() {
        // debounce hands the first move on at 400 ms; sample holds it (no flip). The second move:
        // debounce holds it as the quit comes.
        let (states, session) = quitting(
            "merge,debounce,sample", on: ScreenSize(columns: 71, rows: 23),
            after: [(.arrowPressed(.down, distance: 4), at: 100), (.arrowPressed(.right, distance: 6), at: 500)],
            at: 600)
        #expect(states[2].stages[2].heldSince == ChainTests.ms(400), "sample holds the first move")
        #expect(session.state.slotted == .position(states[1].position), "the chain: sample passed the move it held")
    }

}
