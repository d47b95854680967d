import BallModel
import BallTestSupport
import ColourCore
import OpenCombine
import Testing

/// The view-model, exhaustively: after each step the whole derived state is compared.
@Suite("The view-model")
struct ViewModelTests {
    let screen = ScreenSize(columns: 80, rows: 24)

    func position(_ column: Int, _ row: Int) -> BallPosition {
        BallPosition(centre: Cell(column: column, row: row), screen: screen)
    }

    @Test("every step derives the ball and the background, whole")
    func derivedStateAfterEachStep() {
        // Start at 0,0 (sum 0: flatBlackDark, background unchanged from flatWhite).
        let viewModel = BallViewModel(position: position(0, 0))
        var received: [Appearance] = []
        let subscription = viewModel.appearance.sink { received.append($0) }
        defer { subscription.cancel() }

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
            let expected = Appearance(position: next, ball: ball, background: background)
            #expect(received.last == expected)
            #expect(viewModel.currentAppearance == expected)
        }
        #expect(received == steps.map { Appearance(position: $0.0, ball: $0.1, background: $0.2) })
    }

    @Test("restore publishes the position once, and its appearance follows the restored screen colour")
    func restore() {
        let session = BallSession(position: position(40, 11))
        var received: [Appearance] = []
        let subscription = session.viewModel.appearance.dropFirst().sink { received.append($0) }
        defer { subscription.cancel() }
        // 41,12 is in the black band: the screen keeps whatever colour it had, so only the
        // restored colour tells what it shows (sending the position would keep flatMint).
        session.restore(
            BallState(position: position(41, 12), grab: CellOffset(columns: 1, rows: 0)), background: .flatOrange)
        let expected = Appearance(position: position(41, 12), ball: .flatBlackDark, background: .flatOrange)
        #expect(received == [expected])
        #expect(session.state == BallState(position: position(41, 12), grab: CellOffset(columns: 1, rows: 0)))
        // Outside the band the rule gives the restored colour again: the complement.
        session.restore(BallState(position: position(40, 11)), background: .flatMint)
        #expect(received.last == Appearance(position: position(40, 11), ball: .flatRed, background: .flatMint))
        #expect(received.count == 2)
    }

    @Test("the subject replays its current value to a late subscriber")
    func lateSubscriber() {
        let viewModel = BallViewModel(position: position(0, 0))
        viewModel.position.send(position(30, 0))
        viewModel.position.send(position(16, 8))  // Black: the background stays mint.
        var positions: [BallPosition] = []
        var appearances: [Appearance] = []
        var backgrounds: [FlatColour] = []
        var cancellables = Set<AnyCancellable>()
        viewModel.position.sink { positions.append($0) }.store(in: &cancellables)
        viewModel.appearance.sink { appearances.append($0) }.store(in: &cancellables)
        viewModel.backgroundColour.sink { backgrounds.append($0) }.store(in: &cancellables)
        #expect(positions == [position(16, 8)])
        #expect(appearances == [Appearance(position: position(16, 8), ball: .flatBlackDark, background: .flatMint)])
        #expect(backgrounds == [.flatMint])
    }

    @Test("a repeated position derives nothing new, and draws nothing")
    func noDuplicateRedraws() {
        let driver = HeadlessDriver(screen: screen)
        var colours: [FlatColour] = []
        let subscription = driver.session.viewModel.ballColour.sink { colours.append($0) }
        defer { subscription.cancel() }
        let presents = driver.screen.presentCount
        driver.send(.dragged(to: Cell(column: 1, row: 1)))  // Not grabbed: no move.
        driver.send(.recentred)  // Already centred.
        driver.send(.arrowPressed(.left, distance: 0))
        #expect(driver.screen.presentCount == presents)
        driver.press(.right)
        #expect(driver.screen.presentCount == presents + 1)
        // 41,11 is 504 points (249 mod 255): red, as at the centre; the colour is published once.
        driver.press(.left)
        driver.press(.right)
        #expect(colours == [.flatRed])
        #expect(driver.screen.presentCount == presents + 3)
    }

    @Test("derived publishers: ball colour and background colour, without repeats")
    func derivedPublishers() {
        let viewModel = BallViewModel(position: position(0, 0))
        var balls: [FlatColour] = []
        var backgrounds: [FlatColour] = []
        var appearances = 0
        var cancellables = Set<AnyCancellable>()
        viewModel.ballColour.sink { balls.append($0) }.store(in: &cancellables)
        viewModel.backgroundColour.sink { backgrounds.append($0) }.store(in: &cancellables)
        viewModel.appearance.sink { _ in appearances += 1 }.store(in: &cancellables)
        for column in [1, 5, 6, 7, 30, 31] { viewModel.position.send(position(column, 0)) }
        #expect(balls == [.flatBlackDark, .flatPlumDark, .flatRed])
        #expect(backgrounds == [.flatWhite, .flatForestGreenDark, .flatMint])
        #expect(appearances == 7)  // The current one, then one per position sent.
    }

    @Test("the session sends the subject only positions that changed, and keeps the grab beside it")
    func sessionSendsChangesOnly() {
        let session = BallSession(screen: screen)
        var positions: [BallPosition] = []
        let subscription = session.viewModel.position.sink { positions.append($0) }
        defer { subscription.cancel() }
        let start = position(40, 11)
        session.send(.pressed(at: Cell(column: 42, row: 11)))  // On the ball: grabbed, no move.
        #expect(session.state == BallState(position: start, grab: CellOffset(columns: -2, rows: 0)))
        session.send(.dragged(to: Cell(column: 45, row: 11)))
        session.send(.dragged(to: Cell(column: 45, row: 11)))  // Same place: nothing sent.
        session.send(.arrowPressed(.up, distance: 100))  // To the top edge.
        session.send(.arrowPressed(.up, distance: 1))  // Clamped there: nothing sent.
        session.send(.released(at: Cell(column: 45, row: 11)))
        #expect(positions == [start, position(43, 11), position(43, 5), position(43, 11)])
        #expect(session.state == BallState(position: position(43, 11), grab: nil))
    }
}
