/// The shells' completion scripts: swift-argument-parser's, with the default subcommand's
/// options offered at the root as well (`colourful-ball --record FILE` plays, so `--rec` Tab
/// completes there), which ArgumentParser's scripts leave out.
enum CompletionScript {
    /// `script`, ArgumentParser's completion script for `shell` (bash, zsh or fish), with the
    /// options of `play` (the default subcommand) offered at the root too; as it was for a
    /// shell or a script it does not know.
    static func withDefaultOptionsAtRoot(_ script: String, shell: String) -> String {
        switch shell {
        case "bash": bash(script)
        case "zsh": zsh(script)
        case "fish": fish(script)
        default: script
        }
    }

    /// The lines of the function `name` in `script` (from `name() {` to its closing `}`).
    private static func function(_ name: String, in lines: [Substring]) -> ArraySlice<Substring>? {
        guard let start = lines.firstIndex(of: "\(name)() {"[...]),
            let end = lines[start...].firstIndex(of: "}")
        else { return nil }
        return lines[start...end]
    }

    /// bash: the root's flags and options are play's besides its own, and an option's value is
    /// completed as play completes it.
    private static func bash(_ script: String) -> String {
        var lines = script.split(separator: "\n", omittingEmptySubsequences: false)
        guard let play = function("_colourful-ball_play", in: lines),
            let flags = play.first(where: { $0.hasPrefix("    non_repeating_flags=(") }),
            let options = play.first(where: { $0.hasPrefix("    non_repeating_options=(") }),
            let caseStart = play.firstIndex(of: "    case \"${prev}\" in"),
            let caseEnd = play[caseStart...].firstIndex(of: "    esac"),
            let root = function("_colourful-ball", in: lines),
            let rootFlags = root.firstIndex(of: "    local -a non_repeating_flags=(--version -h --help)"),
            let rootOptions = root.firstIndex(of: "    local -a non_repeating_options=()"),
            let offer = root[rootOptions...].firstIndex(of: "    __colourful-ball_offer_flags_options 0")
        else { return script }
        let valueCompletions = Array(play[caseStart...caseEnd])
        lines[offer] = Substring(
            "    __colourful-ball_offer_flags_options 0\n"
                + "    # play is the default subcommand: its options' values, completed at the root too.\n"
                + valueCompletions.joined(separator: "\n"))
        lines[rootOptions] = Substring("    local -a " + options.dropFirst(4))
        lines[rootFlags] = Substring("    local -a " + flags.dropFirst(4))
        return lines.joined(separator: "\n")
    }

    /// zsh: play's option specifications (and the arrays their values come from) in the root's.
    private static func zsh(_ script: String) -> String {
        var lines = script.split(separator: "\n", omittingEmptySubsequences: false)
        guard let play = function("_colourful-ball_play", in: lines),
            let specsStart = play.firstIndex(of: "    local -ar arg_specs=("),
            let specsEnd = play[specsStart...].firstIndex(of: "    )"),
            let root = function("_colourful-ball", in: lines),
            let rootSpecs = root.firstIndex(of: "    local -ar arg_specs=(")
        else { return script }
        let arrays = play[play.startIndex..<specsStart].filter { $0.hasPrefix("    local -ar ___") }
        let specs = play[(specsStart + 1)..<specsEnd].filter {
            !$0.contains("'--version[") && !$0.contains("{-h,--help}")
        }
        lines[rootSpecs] = Substring((arrays + ["    local -ar arg_specs=("] + specs).joined(separator: "\n"))
        return lines.joined(separator: "\n")
    }

    /// fish: each of play's `complete` lines once more for the root command.
    private static func fish(_ script: String) -> String {
        let lines = script.split(separator: "\n", omittingEmptySubsequences: false)
        let play = #"__colourful-ball_should_offer_completions_for_flags_or_options "colourful-ball play" "#
        let root = #"__colourful-ball_should_offer_completions_for_flags_or_options "colourful-ball" "#
        let added = lines.filter {
            $0.contains(play) && !$0.contains("\(play)version'") && !$0.contains("\(play)h help'")
        }.map { $0.replacing(play, with: root) }
        return (lines + added).joined(separator: "\n")
    }
}
