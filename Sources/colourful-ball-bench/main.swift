// colourful-ball-bench: every benchmark of docs/benchmarks.md, on a release build.
//   swift run -c release colourful-ball-bench [--quick]
//   swift run -c release colourful-ball-bench --only pipeline   (one section, for profiling)
let arguments = CommandLine.arguments
if arguments.contains("--respond") {
    // The floor of "input to screen": the bench runs itself this way in a pseudo-terminal.
    respondToEachRead()
}
let only = arguments.firstIndex(of: "--only").flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
BenchmarkRun(quick: arguments.contains("--quick"), only: only).runAll()
