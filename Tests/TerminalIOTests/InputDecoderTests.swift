import BallModel
import BallProgram
import BallRendering
import BallTestSupport
import TerminalIO
import Testing

/// The input decoder: real terminal byte sequences become the right events and intents.
@Suite("Input decoding")
struct InputDecoderTests {
    func events(_ text: String) -> [TerminalEvent] {
        var decoder = InputDecoder()
        return decoder.decode(Array(text.utf8)) + decoder.flushPendingEscape()
    }

    @Test("a DECRPM answer (ESC [ ? 2026 ; 2 $ y) is a mode report, whole or split, never keys")
    func modeReport() {
        #expect(events("\u{1B}[?2026;2$y") == [.modeReported(mode: 2026, setting: 2)])
        #expect(events("\u{1B}[?2026;0$yq") == [.modeReported(mode: 2026, setting: 0), .character("q")])
        var decoder = InputDecoder()
        #expect(decoder.decode(Array("\u{1B}[?20".utf8)).isEmpty)
        #expect(decoder.decode(Array("26;1$".utf8)).isEmpty)
        #expect(decoder.decode(Array("y".utf8)) == [.modeReported(mode: 2026, setting: 1)])
        // The cursor's place (CPR), as the glyph measurement asks for it.
        #expect(events("\u{1B}[1;3R") == [.cursorReported(row: 1, column: 3)])
        // Malformed: skipped whole, no keys from its bytes.
        #expect(events("\u{1B}[?2026$y") == [])
        #expect(events("\u{1B}[?;$y") == [])
    }

    @Test("SGR mouse: press, drag, release (1-based on the wire, 0-based cells)")
    func sgrMouse() {
        #expect(
            events("\u{1B}[<0;41;12M\u{1B}[<32;42;12M\u{1B}[<0;42;12m") == [
                .mousePressed(Cell(column: 40, row: 11)), .mouseDragged(Cell(column: 41, row: 11)),
                .mouseReleased(Cell(column: 41, row: 11)),
            ])
        // Beyond column 223, which X10 cannot address.
        #expect(events("\u{1B}[<0;250;80M") == [.mousePressed(Cell(column: 249, row: 79))])
        // Modifiers are ignored; the wheel and other buttons are not ours.
        #expect(events("\u{1B}[<4;1;1M") == [.mousePressed(Cell(column: 0, row: 0))])
        #expect(events("\u{1B}[<64;1;1M\u{1B}[<65;1;1M\u{1B}[<2;1;1M").isEmpty)
    }

    @Test("SGR reports with the wrong numbers are dropped, and what follows still decodes")
    func sgrMalformed() {
        let press = "\u{1B}[<0;41;12M"
        // Four numbers, an empty one, seven digits, a colon inside one, too few.
        for bad in [
            "\u{1B}[<0;41;12;5M", "\u{1B}[<0;;12M", "\u{1B}[<0;1234567;12M", "\u{1B}[<0;4:1;12M", "\u{1B}[<0;41M",
        ] {
            #expect(events(bad + press) == [.mousePressed(Cell(column: 40, row: 11))], "\(Array(bad.utf8))")
        }
        // Six digits are still a number.
        #expect(events("\u{1B}[<0;100000;1M") == [.mousePressed(Cell(column: 99_999, row: 0))])
    }

    @Test("X10 mouse: press, drag, release")
    func x10Mouse() {
        func x10(_ button: UInt8, _ column: UInt8, _ row: UInt8) -> [UInt8] {
            [0x1B, UInt8(ascii: "["), UInt8(ascii: "M"), button + 32, column + 33, row + 33]
        }
        var decoder = InputDecoder()
        #expect(
            decoder.decode(x10(0, 40, 11) + x10(32, 41, 11) + x10(3, 41, 11)) == [
                .mousePressed(Cell(column: 40, row: 11)), .mouseDragged(Cell(column: 41, row: 11)),
                .mouseReleased(Cell(column: 41, row: 11)),
            ])
    }

    /// What urxvt 9.30 sent under Xvfb (modes 1002 and 1003 on, `cat -v` of its bytes) for: a
    /// move, a move, a press, a drag, a release, a move, a move; in each encoding it speaks.
    static let urxvtSession: [(encoding: String, bytes: String)] = [
        (
            "SGR 1006",
            "\u{1B}[<31;15;8M\u{1B}[<31;23;10M\u{1B}[<0;23;10M\u{1B}[<32;32;12M\u{1B}[<0;32;12m"
                + "\u{1B}[<32;40;14M\u{1B}[<32;48;16M"
        ),
        (
            "1015",
            "\u{1B}[63;15;8M\u{1B}[63;23;10M\u{1B}[32;23;10M\u{1B}[64;32;12M\u{1B}[35;32;12M\u{1B}[64;40;14M\u{1B}[64;48;16M"
        ),
        ("X10", "\u{1B}[M?/(\u{1B}[M?7*\u{1B}[M 7*\u{1B}[M@@,\u{1B}[M#@,\u{1B}[M@H.\u{1B}[M@P0"),
    ]

    @Test(
        "urxvt's motion with no button is hover, before any click and after one; only a held button drags",
        arguments: urxvtSession.map(\.encoding))
    func urxvtHover(encoding: String) throws {
        let bytes = try #require(Self.urxvtSession.first { $0.encoding == encoding }).bytes
        #expect(
            events(bytes) == [
                .mouseMoved(Cell(column: 14, row: 7)), .mouseMoved(Cell(column: 22, row: 9)),
                .mousePressed(Cell(column: 22, row: 9)), .mouseDragged(Cell(column: 31, row: 11)),
                .mouseReleased(Cell(column: 31, row: 11)), .mouseMoved(Cell(column: 39, row: 13)),
                .mouseMoved(Cell(column: 47, row: 15)),
            ])
    }

    @Test("motion reported as a drag with no press seen is hover; other buttons neither press nor release")
    func dragNeedsPress() {
        #expect(events("\u{1B}[<32;5;5M") == [.mouseMoved(Cell(column: 4, row: 4))])
        // The right button: its press, its motion and its release are not the left button's.
        #expect(
            events("\u{1B}[<2;5;5M\u{1B}[<34;6;5M\u{1B}[<2;6;5m\u{1B}[<32;7;5M") == [
                .mouseMoved(Cell(column: 6, row: 4))
            ])
        // Held left, a middle release does not let go of it.
        #expect(
            events("\u{1B}[<0;5;5M\u{1B}[<1;5;5m\u{1B}[<32;6;5M") == [
                .mousePressed(Cell(column: 4, row: 4)), .mouseDragged(Cell(column: 5, row: 4)),
            ])
    }

    @Test("arrows in normal and application mode, with Shift")
    func arrows() {
        #expect(
            events("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D") == [
                .arrow(.up, shifted: false), .arrow(.down, shifted: false), .arrow(.right, shifted: false),
                .arrow(.left, shifted: false),
            ])
        #expect(events("\u{1B}OA\u{1B}OD") == [.arrow(.up, shifted: false), .arrow(.left, shifted: false)])
        #expect(events("\u{1B}[1;2C\u{1B}[1;2B") == [.arrow(.right, shifted: true), .arrow(.down, shifted: true)])
        #expect(events("\u{1B}[H\u{1B}OH\u{1B}[1~\u{1B}[7~") == [.home, .home, .home, .home])
        // Motion with no button down (mode 1003): SGR and X10.
        #expect(
            events("\u{1B}[<35;10;5M\u{1B}[M\u{43}\u{2A}\u{25}") == [
                .mouseMoved(Cell(column: 9, row: 4)), .mouseMoved(Cell(column: 9, row: 4)),
            ])
        #expect(events("\u{1B}[F\u{1B}OF\u{1B}[4~\u{1B}[8~\u{1B}[1;2F") == [.end, .end, .end, .end, .end])
    }

    @Test("keys become intents")
    func keys() {
        func intents(_ text: String) -> [Intent] { events(text).compactMap(KeyMap.intent(for:)) }
        #expect(
            intents("hjkl") == [
                .arrowPressed(.left, distance: 1), .arrowPressed(.down, distance: 1), .arrowPressed(.up, distance: 1),
                .arrowPressed(.right, distance: 1),
            ])
        #expect(
            intents("HJKL") == [
                .arrowPressed(.left, distance: 5), .arrowPressed(.down, distance: 5), .arrowPressed(.up, distance: 5),
                .arrowPressed(.right, distance: 5),
            ])
        #expect(intents("\u{1B}[1;2D") == [.arrowPressed(.left, distance: 5)])
        #expect(intents("c") == [.recentred])
        #expect(intents("q") == [.quitRequested])
        #expect(intents("\u{03}") == [.quitRequested])
        #expect(intents("\u{1B}") == [.quitRequested])
        #expect(intents("xyz é") == [])
    }

    @Test("sequences split across reads wait for their rest")
    func splitSequences() {
        var decoder = InputDecoder()
        #expect(decoder.decode(Array("\u{1B}[<0;41;12M".utf8)) == [.mousePressed(Cell(column: 40, row: 11))])
        let bytes = Array("\u{1B}[<32;42;12M".utf8)
        for byte in bytes.dropLast() { #expect(decoder.decode([byte]).isEmpty) }
        #expect(decoder.decode([bytes.last!]) == [.mouseDragged(Cell(column: 41, row: 11))])
        // A lone Esc waits, then stands alone when no more bytes come.
        #expect(decoder.decode([0x1B]).isEmpty)
        #expect(decoder.hasPendingBytes)
        #expect(decoder.flushPendingEscape() == [.escape])
        // UTF-8 split mid-character.
        #expect(decoder.decode([0xC3]).isEmpty)
        #expect(decoder.decode([0xA9]) == [.character("é")])
    }

    @Test(
        "megabytes of random and unfinished sequences: what waits between reads stays under its bound", .tags(.slow),
        .skippedInQuickRuns)
    func pendingStaysBounded() {
        var generator = SeededGenerator()
        var decoder = InputDecoder()
        var largest = 0
        // Random bytes, biased towards the bytes sequences are made of: 4 MB in reads of up to 4 KB.
        var total = 0
        while total < 4 << 20 {
            let count = Int.random(in: 1...4096, using: &generator)
            let bytes = (0..<count).map { _ in
                [0x1B, 0x5B, 0x3C, 0x3B, 0x4D, 0x6D, 0x4F, 0x31, 0x32, UInt8.random(in: 0...255, using: &generator)]
                    .randomElement(using: &generator)!
            }
            _ = decoder.decode(bytes)
            largest = max(largest, decoder.pendingByteCount)
            total += count
        }
        // Sequences that never finish: an endless mouse report, an endless UTF-8 lead, Esc after Esc.
        let endless: [[UInt8]] = [
            Array("\u{1B}[<".utf8) + Array(repeating: UInt8(ascii: "1"), count: 1 << 20),
            Array(repeating: 0xF0, count: 1 << 20),
            Array(repeating: 0x1B, count: 1 << 20),
        ]
        for bytes in endless {
            for start in stride(from: 0, to: bytes.count, by: 1000) {
                _ = decoder.decode(Array(bytes[start..<min(bytes.count, start + 1000)]))
                largest = max(largest, decoder.pendingByteCount)
            }
        }
        #expect(largest <= InputDecoder.maximumPendingBytes, "\(largest) bytes waited; \(generator)")
        #expect(InputDecoder.maximumPendingBytes <= 64)
        // After an endless run of Esc, the last one waits; with the next bytes it is Esc, then
        // they decode as ever.
        #expect(
            decoder.decode(Array("M\u{1B}[<0;41;12M".utf8)) == [
                .escape, .character("M"), .mousePressed(Cell(column: 40, row: 11)),
            ])
        // Huge numbers in a mouse report are refused, not overflowed.
        #expect(events("\u{1B}[<0;99999999999999999999;1M").isEmpty)
        #expect(events("\u{1B}[<0;0;0M").isEmpty)
    }

    @Test("an overlong control sequence is dropped whole: none of its bytes become keys")
    func overlongSequence() {
        // Forty spaces inside a sequence (space pauses a replay) must not come out as keys.
        var decoder = InputDecoder()
        let bytes = Array("\u{1B}[".utf8) + Array(repeating: UInt8(ascii: " "), count: 40) + Array("~c".utf8)
        #expect(decoder.decode(bytes) == [.character("c")])
    }
}

extension InputDecoderTests {
    @Test("real bytes through the whole pipeline: a drag in SGR form moves the ball and recolours it")
    func bytesThroughThePipeline() {
        let driver = Pilot<Play>(screen: ScreenSize(columns: 80, rows: 24))
        driver.input(Array("\u{1B}[<0;41;12M\u{1B}[<32;31;12M\u{1B}[<0;31;12m".utf8))
        // 30,11 is 240 + 176 = 416 points: flatRedDark on flatGray.
        #expect(driver.appearance.position.centre == Cell(column: 30, row: 11))
        #expect(driver.appearance.ball == .flatRedDark)
        #expect(driver.appearance.background == .flatGray)
        #expect(driver.frame[30, 11].foreground == .flatRedDark)
        driver.input(Array("\u{1B}[C\u{1B}OC".utf8))  // Right, in normal and application mode.
        #expect(driver.appearance.position.centre == Cell(column: 32, row: 11))
    }
}

extension InputDecoderTests {
    @Test("pasted text (bracketed paste) is text, not keys, however it is split across reads")
    func bracketedPaste() {
        let bytes = Array("\u{1B}[200~q\u{1B}[Ahjkl\u{03}\u{1B}[201~c".utf8)
        #expect(events(String(decoding: bytes, as: UTF8.self)) == [.character("c")])
        // Split at every point: the same.
        for split in 1..<bytes.count {
            var decoder = InputDecoder()
            let decoded = decoder.decode(Array(bytes[..<split])) + decoder.decode(Array(bytes[split...]))
            #expect(decoded == [.character("c")], "split at \(split)")
        }
        // A long paste keeps only a split end marker waiting.
        var decoder = InputDecoder()
        _ = decoder.decode(
            Array("\u{1B}[200~".utf8) + Array(repeating: UInt8(ascii: "q"), count: 100_000) + [0x1B, 0x5B])
        #expect(decoder.pendingByteCount == 2)
        #expect(decoder.decode(Array("201~Q".utf8)) == [.character("Q")])
    }
}
