function __colourful-ball_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __colourful-ball_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __colourful-ball_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __colourful-ball_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __colourful-ball_parse_tokens -S
    set -l unparsed_tokens (__colourful-ball_tokens -pc)
    switch $unparsed_tokens[1]
    case 'colourful-ball'
        __colourful-ball_parse_subcommand 0 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'play'
            __colourful-ball_parse_subcommand 0 'record=' 'force' 'streams' 'version' 'h/help'
        case 'replay'
            __colourful-ball_parse_subcommand 1 'speed=' 'max-idle=' 'headless' 'marbles' 'json' 'asciicast=' 'force' 'streams' 'paused' 'width=' 'version' 'h/help'
        case 'colour'
            __colourful-ball_parse_subcommand -r 1 'cells' 'flatten=' 'complement=' 'palette' 'json' 'version' 'h/help'
        case 'help'
            __colourful-ball_parse_subcommand -r 1 'version'
        end
    end
end

function __colourful-ball_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __colourful-ball_parse_subcommand -S -a positional_count
    argparse -s r -- $argv
    set -l option_specs $argv[2..]
    set -l is_repeating_positional $_flag_r
    set -el _flag_r
    set -a commands $unparsed_tokens[1]
    set positional_index 0
    while true
        set -e unparsed_tokens[1]
        argparse -sn "$commands" $option_specs -- $unparsed_tokens 2> /dev/null
        set unparsed_tokens $argv
        set positional_index (math $positional_index + 1)
        for non_repeating_flag_or_option in $non_repeating_flags_or_options
            if set -ql "_flag_$(string replace -a - _ -- $non_repeating_flag_or_option)"
                set non_repeating_flags_or_options_absent 1
                break
            end
        end
        test (count $unparsed_tokens) -eq 0 -o \( -z "$is_repeating_positional" -a "$positional_index" -gt "$positional_count" \) && break
    end
end

function __colourful-ball_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __colourful-ball_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__colourful-ball_tokens -p)
    if test -z "$(__colourful-ball_tokens -t)"
        set -l index (count (__colourful-ball_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'colourful-ball' -f
complete -c 'colourful-ball' -n '__colourful-ball_should_offer_completions_for_flags_or_options "colourful-ball" version' -l 'version' -d 'Show the version.'
complete -c 'colourful-ball' -n '__colourful-ball_should_offer_completions_for_flags_or_options "colourful-ball" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'colourful-ball' -n '__colourful-ball_should_offer_completions_for_positional "colourful-ball" -eq 1' -fa 'play' -d 'Drag the ball with the mouse or move it with the keys (the default).'
complete -c 'colourful-ball' -n '__colourful-ball_should_offer_completions_for_positional "colourful-ball" -eq 1' -fa 'replay' -d 'Replay a recorded session: in the terminal, headless, or as an asciicast.'
complete -c 'colourful-ball' -n '__colourful-ball_should_offer_completions_for_positional "colourful-ball" -eq 1' -fa 'colour' -d 'Print the ball and background colours for a position, or flatten / complement a colour.'
complete -c 'colourful-ball' -n '__colourful-ball_should_offer_completions_for_positional "colourful-ball" -eq 1' -fa 'help' -d 'Show subcommand help information.'
complete -c 'colourful-ball' -n '__colourful-ball_should_offer_completions_for_flags_or_options "colourful-ball play" record' -l 'record' -d 'Record the session to a replay file (see `colourful-ball replay`).' -rfka ''
complete -c 'colourful-ball' -n '__colourful-ball_should_offer_completions_for_flags_or_options "colourful-ball play" force' -l 'force' -d 'With --record, overwrite the file if it exists.'
complete -c 'colourful-ball' -n '__colourful-ball_should_offer_completions_for_flags_or_options "colourful-ball play" streams' -l 'streams' -d 'Open the streams panel at the start: the streams as marble lanes (s opens and closes it).'
complete -c 'colourful-ball' -n '__colourful-ball_should_offer_completions_for_flags_or_options "colourful-ball play" version' -l 'version' -d 'Show the version.'
complete -c 'colourful-ball' -n '__colourful-ball_should_offer_completions_for_flags_or_options "colourful-ball play" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'colourful-ball' -n '__colourful-ball_should_offer_completions_for_flags_or_options "colourful-ball replay" speed' -l 'speed' -d 'Play this many times as fast, from 0.01 to 1000 (2 is twice as fast).' -rfka ''
complete -c 'colourful-ball' -n '__colourful-ball_should_offer_completions_for_flags_or_options "colourful-ball replay" max-idle' -l 'max-idle' -d 'Cap every pause at this many seconds, from 0 to 604800 (as asciinema\'s idle limit).' -rfka ''
complete -c 'colourful-ball' -n '__colourful-ball_should_offer_completions_for_flags_or_options "colourful-ball replay" headless' -l 'headless' -d 'Print one line per position change instead of drawing: time, cell, points, colours.'
complete -c 'colourful-ball' -n '__colourful-ball_should_offer_completions_for_flags_or_options "colourful-ball replay" marbles' -l 'marbles' -d 'Print the recording\'s streams as a marble diagram instead of playing it.'
complete -c 'colourful-ball' -n '__colourful-ball_should_offer_completions_for_flags_or_options "colourful-ball replay" json' -l 'json' -d 'With --headless, print one JSON object per line.'
complete -c 'colourful-ball' -n '__colourful-ball_should_offer_completions_for_flags_or_options "colourful-ball replay" asciicast' -l 'asciicast' -d 'Write the replay as an asciicast v2 file (asciinema\'s format) instead of playing it (`-`: standard output).' -rfka ''
complete -c 'colourful-ball' -n '__colourful-ball_should_offer_completions_for_flags_or_options "colourful-ball replay" force' -l 'force' -d 'With --asciicast, overwrite the output file if it exists.'
complete -c 'colourful-ball' -n '__colourful-ball_should_offer_completions_for_flags_or_options "colourful-ball replay" streams' -l 'streams' -d 'In the terminal, open the streams panel at the start (s opens and closes it).'
complete -c 'colourful-ball' -n '__colourful-ball_should_offer_completions_for_flags_or_options "colourful-ball replay" paused' -l 'paused' -d 'In the terminal, start paused before the first intent (intent 0).'
complete -c 'colourful-ball' -n '__colourful-ball_should_offer_completions_for_flags_or_options "colourful-ball replay" width' -l 'width' -d 'With --marbles, the width of each block in characters (default: the terminal\'s, or 80).' -rfka ''
complete -c 'colourful-ball' -n '__colourful-ball_should_offer_completions_for_flags_or_options "colourful-ball replay" version' -l 'version' -d 'Show the version.'
complete -c 'colourful-ball' -n '__colourful-ball_should_offer_completions_for_flags_or_options "colourful-ball replay" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'colourful-ball' -n '__colourful-ball_should_offer_completions_for_flags_or_options "colourful-ball colour" cells' -l 'cells' -d 'Read X and Y as a cell column and row (0-based) instead of points.'
complete -c 'colourful-ball' -n '__colourful-ball_should_offer_completions_for_flags_or_options "colourful-ball colour" flatten' -l 'flatten' -d 'Print the flat colour nearest to a colour.' -rfka ''
complete -c 'colourful-ball' -n '__colourful-ball_should_offer_completions_for_flags_or_options "colourful-ball colour" complement' -l 'complement' -d 'Print the complementary flat colour of a colour.' -rfka ''
complete -c 'colourful-ball' -n '__colourful-ball_should_offer_completions_for_flags_or_options "colourful-ball colour" palette' -l 'palette' -d 'List all 48 flat colours (with swatches on a colour terminal).'
complete -c 'colourful-ball' -n '__colourful-ball_should_offer_completions_for_flags_or_options "colourful-ball colour" json' -l 'json' -d 'Print JSON instead of text.'
complete -c 'colourful-ball' -n '__colourful-ball_should_offer_completions_for_flags_or_options "colourful-ball colour" version' -l 'version' -d 'Show the version.'
complete -c 'colourful-ball' -n '__colourful-ball_should_offer_completions_for_flags_or_options "colourful-ball colour" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'colourful-ball' -n '__colourful-ball_should_offer_completions_for_flags_or_options "colourful-ball help" version' -l 'version' -d 'Show the version.'
