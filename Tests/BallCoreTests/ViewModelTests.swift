import BallCore
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

    @Test("every step derives the ball, the background and the status, whole")
    func derivedStateAfterEachStep() {
        // Start at 0,0 (sum 0: flatBlackDark, background unchanged from flatWhite).
        let viewModel = BallViewModel(position: position(0, 0))
        var received: [Appearance] = []
        let subscription = viewModel.appearance.sink { received.append($0) }
        defer { subscription.cancel() }

        let steps: [(BallPosition, FlatColour, FlatColour, String)] = [
            (
                position(0, 0), .flatBlackDark, .flatWhite,
                " 0,0 · 0,0 pt  ● flatBlackDark #262626  on ■ flatWhite #EDF1F2  drag/←↑↓→ move  c centre  q quit"
            ),
            // 8 + 16 = 24: still black.
            (
                position(1, 1), .flatBlackDark, .flatWhite,
                " 1,1 · 8,16 pt  ● flatBlackDark #262626  on ■ flatWhite #EDF1F2  drag/←↑↓→ move  c centre  q quit"
            ),
            // 24 + 32 = 56: plum, background forest green.
            (
                position(3, 2), .flatPlumDark, .flatForestGreenDark,
                " 3,2 · 24,32 pt  ● flatPlumDark #4F2B4F  on ■ flatForestGreenDark #2C4F35  drag/←↑↓→ move  c centre  q quit"
            ),
            // 64 + 32 = 96: maroon dark, teal dark.
            (
                position(8, 2), .flatMaroonDark, .flatTealDark,
                " 8,2 · 64,32 pt  ● flatMaroonDark #662521  on ■ flatTealDark #356273  drag/←↑↓→ move  c centre  q quit"
            ),
            // 256 (1 mod 255): black again; the background does not change.
            (
                position(16, 8), .flatBlackDark, .flatTealDark,
                " 16,8 · 128,128 pt  ● flatBlackDark #262626  on ■ flatTealDark #356273  drag/←↑↓→ move  c centre  q quit"
            ),
            // 240 + 0: red, mint.
            (
                position(30, 0), .flatRed, .flatMint,
                " 30,0 · 240,0 pt  ● flatRed #E84E3C  on ■ flatMint #1ABD9C  drag/←↑↓→ move  c centre  q quit"
            ),
        ]
        for (index, (next, ball, background, status)) in steps.enumerated() {
            if index > 0 { viewModel.position.send(next) }
            let expected = Appearance(position: next, ball: ball, background: background)
            #expect(received.last == expected)
            #expect(viewModel.currentAppearance == expected)
            #expect(received.last?.statusText == status)
        }
        #expect(received.count == steps.count)
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

    @Test("derived publishers: ball colour, background colour, status text, without repeats")
    func derivedPublishers() {
        let viewModel = BallViewModel(position: position(0, 0))
        var balls: [FlatColour] = []
        var backgrounds: [FlatColour] = []
        var statuses: [String] = []
        var cancellables = Set<AnyCancellable>()
        viewModel.ballColour.sink { balls.append($0) }.store(in: &cancellables)
        viewModel.backgroundColour.sink { backgrounds.append($0) }.store(in: &cancellables)
        viewModel.statusText.sink { statuses.append($0) }.store(in: &cancellables)
        for column in [1, 5, 6, 7, 30, 30, 31] { viewModel.position.send(position(column, 0)) }
        #expect(balls == [.flatBlackDark, .flatPlumDark, .flatRed])
        #expect(backgrounds == [.flatWhite, .flatForestGreenDark, .flatMint])
        #expect(statuses.count == 7)  // 0, 1, 5, 6, 7, 30, 31: the repeated 30 is dropped.
    }
}
