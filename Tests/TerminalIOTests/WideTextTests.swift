import BallModel
import BallRendering
import BallTestSupport
import ColourCore
import TerminalIO
import Testing
import TextFormats

/// Text by its width in cells: wide characters take two, combining marks none, and what is cut
/// says so; a frame holding them reaches a terminal exactly.
@Suite("Wide text")
struct WideTextTests {
    @Test("widths as a UTF-8 terminal gives them")
    func widths() {
        #expect("abc".terminalWidth == 3)
        #expect("文字".terminalWidth == 4)
        #expect("e\u{301}".terminalWidth == 1)  // e and a combining acute.
        #expect("한글".terminalWidth == 4)
        #expect("🎉".terminalWidth == 2)
        #expect("●■▄│◘".terminalWidth == 5)
        #expect("ｆｕｌｌ".terminalWidth == 8)
    }

    @Test("fitting cuts by width, never splits a wide character, and ends in …")
    func fitting() {
        #expect("short".fitted(toWidth: 10) == "short")
        #expect("abcdefgh".fitted(toWidth: 5) == "abcd…")
        #expect("文字の名前".fitted(toWidth: 6) == "文字…")  // 2 + 2 + … = 5; a third would make 7.
        #expect("文字の名前".fitted(toWidth: 6).terminalWidth <= 6)
        #expect("x".fitted(toWidth: 0) == "")
    }

    @Test("random mixes of wide, narrow and ASCII text drawn over each other reach the terminal exactly")
    func framesWithWideText() {
        var generator = SeededGenerator()
        let size = ScreenSize(columns: 31, rows: 4)
        let pieces = ["文字", "ab", "名前", " ", "●", "x", "ｆ", "🎉", "…"]
        var rasteriser = Rasteriser(sequences: .xterm(palette: .xterm256, backColourErase: true))
        var terminal = TerminalEmulator(columns: size.columns, rows: size.rows)
        var previous: Frame?
        for step in 0..<300 {
            var frame = Frame(size: size, fill: .flatMint)
            for row in 0..<size.rows {
                let text = (0..<generator.below(12)).map { _ in pieces[generator.below(pieces.count)] }.joined()
                frame.write(
                    text, column: generator.below(6), row: row, foreground: .flatWhite,
                    background: generator.below(2) == 0 ? .flatBlackDark : .flatMint)
            }
            var bytes: [UInt8] = []
            rasteriser.draw(frame, over: previous, into: &bytes)
            terminal.receive(bytes)
            let differences = terminal.differences(from: frame, colours: .palette(.xterm256))
            #expect(differences.isEmpty, "step \(step), \(generator): \(differences.prefix(4))")
            #expect(terminal.problems.isEmpty, "step \(step), \(generator): \(terminal.problems.prefix(2))")
            previous = frame
        }
    }
}
