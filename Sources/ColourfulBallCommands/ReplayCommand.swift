import ArgumentParser
import BallExport
import BallProgram
import BallRendering
import BallReplay
import BallTerminal
import Platform
import TerminalIO
import TextFormats

extension MarbleSyntax: ExpressibleByArgument {}

/// `colourful-ball replay FILE`: a recorded session again, in the terminal, headless, or as an
/// asciicast file.
package struct ReplayCommand: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay a recorded session: in the terminal, headless, or as an asciicast.",
        discussion: """
            In the terminal the recording plays with its original timing, and the player stays at \
            its end: step back and forth through it, jump to colour changes, skip intents and write \
            the edited recording. Record a session with `colourful-ball --record FILE`. Keys in the \
            terminal:
            \(KeyMap.summary(for: .replay))

            \(KeyMap.legendSummary())
            \(StreamPanel.laterWords)    \(KeyMap.futureWords)
            """
    )

    /// An empty command, as ArgumentParser requires.
    package init() {}

    @Argument(
        help: ArgumentHelp(
            "The replay file, as `colourful-ball --record` wrote it (`-`: standard input, with --headless or --asciicast).",
            valueName: "file"),
        completion: .file())
    var file: String

    // `.unconditional`: a value that starts with `-` is still this option's value (and gets this
    // command's own sentence, not "Missing value").
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Play this many times as fast, from 0.01 to 1000 (2 is twice as fast).", valueName: "x"))
    var speed: Double = 1

    @Option(
        name: .customLong("max-idle"), parsing: .unconditional,
        help: ArgumentHelp(
            "Cap every pause at this many seconds, from 0 to 604800 (as asciinema's idle limit).", valueName: "s"))
    var maximumIdle: Double?

    /// What the replay becomes instead of a player in the terminal, when it is not one.
    package enum Output: String, EnumerableFlag {
        /// One line per change of the ball's place or colour.
        case headless
        /// The streams as a marble diagram.
        case marbles

        package static func help(for value: Output) -> ArgumentHelp? {
            switch value {
            case .headless:
                "Print one line per change of the ball's place or colour instead of drawing: time, cell, points, colours (a tour's o: the screen's through Publish too)."
            case .marbles: "Print the recording's streams as a marble diagram instead of playing it."
            }
        }
    }

    /// Headless or marbles; nil: the player in the terminal (or an asciicast, with --asciicast).
    @Flag package var output: Output?

    @Flag(help: "With --headless, print one JSON object per line.")
    var json = false

    @Option(
        help: ArgumentHelp(
            "Write the replay as an asciicast v2 file (asciinema's format) instead of playing it (`-`: standard output).",
            valueName: "out.cast"),
        completion: .file())
    var asciicast: String?

    @Option(
        help: ArgumentHelp(
            "Write the recording's trace, as RxSwift's debug() prints it (a UTC time, then subscribed, Event next(…), Event completed or isDisposed for each publisher), instead of playing it (`-`: standard output).",
            valueName: "out.txt"),
        completion: .file())
    var trace: String?

    @Flag(help: "With --asciicast, --trace or --svg, overwrite the output file if it exists.")
    var force = false

    @Flag(
        help:
            "Open the streams panel at the start: in the terminal (s opens and closes it), or all through the cast with --asciicast."
    )
    var streams = false

    @Flag(help: "In the terminal, start paused before the first intent (intent 0).")
    var paused = false

    @Flag(
        name: .customLong("no-animation"),
        help:
            "In the terminal, jump the ball to each new place, and switch its colours at once, instead of the original's 0.1 s glide and fade."
    )
    var noAnimation = false

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "With --marbles, the width of each block in characters (default: the terminal's, or 80).",
            valueName: "n"))
    var width: Int?

    @Option(
        help: ArgumentHelp(
            "With --marbles, write each lane in the marble-test syntax of RxJS or RxPY, with its values (JSON, a line a stream: each subscription of a stage, an inner or a late subscriber a line of its own), instead of drawing it. Past the 52 letters a value is a CJK character (一, 丁, …), one value in one frame to RxJS's parseMarbles and RxPY's parse alike.",
            valueName: "rxjs|rxpy"))
    var syntax: MarbleSyntax?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "With --syntax or --svg, put every event in the frame of its own time on the session's clock, a frame this long (1ms, 10ms, 100ms, 250us, 0.5s): with --syntax, a marble test of the operators. Without it, a frame per intent.",
            valueName: "duration"))
    var frame: String?

    @Option(
        help: ArgumentHelp(
            "With --marbles, write the diagram as an SVG picture (one lane a row, a circle for each value, in the ball's colours) instead of text (`-`: standard output).",
            valueName: "out.svg"),
        completion: .file())
    var svg: String?

    package func validate() throws {
        guard ReplayTiming.speeds.contains(speed) else {
            throw ValidationError(
                "--speed must be a number from 0.01 to 1000, such as 2 (twice as fast) or 0.5 (half as fast); got \(speed.plainTextOrDescription)."
            )
        }
        if let maximumIdle, !ReplayTiming.idleLimits.contains(maximumIdle) {
            throw ValidationError(
                "--max-idle must be a number of seconds from 0 to 604800 (a week), such as 1.5; got \(maximumIdle.plainTextOrDescription)."
            )
        }
        if json, output != .headless { throw ValidationError("--json goes with --headless.") }
        let written = [asciicast.map { _ in "--asciicast" }, trace.map { _ in "--trace" }].compactMap { $0 }
        if let output, let other = written.first {
            throw ValidationError("Give --\(output.rawValue) or \(other), not both.")
        }
        if written.count > 1 { throw ValidationError("Give --asciicast or --trace, not both.") }
        if force, written.isEmpty, svg == nil {
            throw ValidationError("--force goes with --asciicast OUT.cast, --trace OUT or --svg OUT.")
        }
        if trace == "" { throw ValidationError("--trace needs a file name (or `-` for standard output).") }
        if asciicast == "" { throw ValidationError("--asciicast needs a file name (or `-` for standard output).") }
        if let width, output != .marbles { throw ValidationError("--width goes with --marbles (got \(width)).") }
        if let syntax, output != .marbles {
            throw ValidationError("--syntax goes with --marbles (got \(syntax.rawValue)).")
        }
        if let svg, output != .marbles {
            throw ValidationError("--svg goes with --marbles (got \(svg.visibleInMessage)).")
        }
        if svg != nil, syntax != nil { throw ValidationError("Give --syntax or --svg, not both.") }
        if let frame {
            guard syntax != nil || svg != nil else {
                throw ValidationError(
                    "--frame goes with --marbles --syntax rxjs|rxpy or --marbles --svg FILE (got --frame \(frame.visibleInMessage))."
                )
            }
            guard MarbleFraming(duration: frame) != nil else {
                throw ValidationError(MarbleFraming.refusal(frame.visibleInMessage))
            }
        }
        if svg == "" { throw ValidationError("--svg needs a file name (or `-` for standard output).") }
        if let width, svg != nil {
            throw ValidationError(
                "--width sets the blocks of the drawing; --svg draws each lane whole (got --width \(width)).")
        }
        if let width, syntax != nil {
            throw ValidationError(
                "--width sets the blocks of the drawing; --syntax writes each lane whole (got --width \(width)).")
        }
        if let width, !(MarbleDiagram.minimumWidth...100_000).contains(width) {
            throw ValidationError(
                "--width must be a number of characters from \(MarbleDiagram.minimumWidth) to 100000; got \(width).")
        }
        let notInTheTerminal = output.map { "--\($0.rawValue)" } ?? written.first
        if paused, let notInTheTerminal {
            throw ValidationError("--paused starts a replay in the terminal paused: leave out \(notInTheTerminal).")
        }
        if streams, let notInTheTerminal, asciicast == nil {
            throw ValidationError(
                "--streams opens the panel of a replay in the terminal or its cast (--asciicast): leave out \(notInTheTerminal)."
            )
        }
    }

    package func run() throws {
        let input = try FileInput(name: FileName(argument: file))
        // An export over its own input would destroy the recording it is made from: the same
        // file (device and inode), whatever its name, is refused, with or without --force.
        for (option, name) in [("--svg", svg), ("--trace", trace), ("--asciicast", asciicast)] {
            guard let name, !FileName(argument: name).isDash, let identity = input.identity,
                FileName(argument: name).identity == identity, input.isRegularFile
            else { continue }
            throw CommandError(
                "\(option) \(FileName(argument: name).shown) is the recording being read (\(input.name)): name another file for the output.",
                code: .usage)
        }
        if output == nil, asciicast == nil, trace == nil, !input.isRegularFile {
            throw CommandError(
                "Replaying in the terminal needs a regular file (it moves back and forth in it), and \(input.name) is a pipe or device: save it to a file first, or use --headless or --asciicast.",
                code: .dataError)
        }
        let reader = ReplayReader(file: input.name, nextChunk: input.nextChunk)
        defer {
            for warning in reader.warnings {
                DescriptorOutput.standardError.write("colourful-ball: warning: \(warning).\n")
            }
        }
        do {
            if output == .headless {
                try BufferedOutput(DescriptorOutput.standardOutput).lines { emit in
                    try HeadlessReplay.run(reader: reader, json: json, emit: emit)
                }
            } else if output == .marbles, let svg {
                let name = FileName(argument: svg)
                let file = name.isDash ? nil : try OutputFile(name: name, overwrite: force)
                defer { file?.close() }
                try BufferedOutput(file?.fileOutput ?? DescriptorOutput.standardOutput).bytes { write in
                    try MarbleSVG.run(
                        reader: reader, framing: frame.flatMap(MarbleFraming.init(duration:)) ?? .perIntent,
                        write: write)
                }
                try file?.commit()
            } else if output == .marbles, let syntax {
                try BufferedOutput(DescriptorOutput.standardOutput).bytes { write in
                    try MarbleTestExport.run(
                        reader: reader, syntax: syntax,
                        framing: frame.flatMap(MarbleFraming.init(duration:)) ?? .perIntent,
                        write: write)
                }
            } else if output == .marbles {
                let (columns, sequences) = DescriptorOutput.standardOutputLooks()
                try BufferedOutput(DescriptorOutput.standardOutput).lines { emit in
                    try MarbleDiagram.run(
                        reader: reader, width: width ?? columns ?? 80, sequences: sequences, emit: emit)
                }
            } else if let trace {
                let name = FileName(argument: trace)
                let file = name.isDash ? nil : try OutputFile(name: name, overwrite: force)
                defer { file?.close() }
                try BufferedOutput(file?.fileOutput ?? DescriptorOutput.standardOutput).lines { emit in
                    try TraceExport.run(reader: reader, emit: emit)
                }
                try file?.commit()
            } else if let asciicast {
                let replayName = input.name.split(separator: "/").last.map(String.init) ?? input.name
                let cast = FileName(argument: asciicast)
                // `-` is standard output, as elsewhere; a file is written beside, and put in place
                // only when complete (see OutputFile).
                let file = cast.isDash ? nil : try OutputFile(name: cast, overwrite: force)
                defer { file?.close() }
                try BufferedOutput(file?.fileOutput ?? DescriptorOutput.standardOutput).lines { emit in
                    try AsciicastExport.run(
                        reader: reader, title: "colourful-ball replay of \(replayName)", speed: speed,
                        maximumIdle: maximumIdle, streams: streams,
                        lessonLanes: TourLessonLanes.recorded(number:title:), emit: emit)
                }
                try file?.commit()
            } else {
                let index = try ReplayIndex(reader: reader)
                try TerminalReplay(
                    index: index, timing: ReplayTiming(speed: speed, maximumIdle: maximumIdle), streams: streams,
                    animated: !noAnimation,
                    paused: paused, readProgress: { input.progress },
                    writeEdited: { [file] index in try EditedLog.write(index, copying: file) }
                ).run()
            }
        } catch let error as TerminalError {
            throw CommandError(error.description, code: .noTerminal)
        } catch let error as ReplayError {
            throw CommandError(error.description, code: .dataError)
        } catch let error as MarbleExportError {
            throw CommandError(error.description, code: ExitStatus(rawValue: error.code) ?? .failure)
        }
    }
}
