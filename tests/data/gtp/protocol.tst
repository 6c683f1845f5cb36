# Protocol: framing, ids, preprocessing (GTP v2 draft 2, section 3.1), the command table.
# Answers are `=id text` / `?id text` ended by one empty line; comment and blank lines
# get no answer at all.

1 protocol_version
#? [2]

2 name
#? [Tengen]

3 version
#? [0.1.0]

# Tabs become spaces, outer spaces are ignored, comments are cut.
4	  known_command   play  
#? [true]

5 known_command play # a trailing comment
#? [true]

# Control characters other than HT and LF are dropped, CR included.
6 known_command name
#? [true]

7 known_command NAME
#? [false]

8 known_command kata-analyze
#? [true]

9 known_command no_such_command
#? [false]

# Command names are case-sensitive, as in GNU Go.
10 NAME
#? [?unknown command]

11 frobnicate 1 2 3
#? [?unknown command]

# An id alone is not a command.
12
#? [?syntax error: missing command name]

13 list_commands
#? [protocol_version name version known_command list_commands quit boardsize clear_board komi play genmove undo fixed_handicap place_free_handicap set_free_handicap time_settings time_left final_score final_status_list loadsgf printsgf reg_genmove showboard is_legal list_stones kgs-genmove_cleanup kgs-time_settings kgs-rules kgs-game_over lz-analyze kata-analyze lz-genmove_analyze kata-genmove_analyze gogui-analyze_commands gogui-interrupt tengen-ownership tengen-gfx_ownership tengen-gfx_visits tengen-gfx_pv tengen-winrate tengen-unconditional_status tengen-gfx_pass_alive tengen-params tengen-get tengen-set]

# Extra arguments are a syntax error and change nothing.
14 protocol_version now
#? [?syntax error: unexpected argument "now"]

15 known_command
#? [?syntax error: missing command name]

# Large ids are echoed as written.
123456789012345678901234567890 name
#? [Tengen]

# Binary bytes are not UTF-8: the line still gets its answer.
16 ÿþý
#? [?unknown command]

17 gogui-interrupt
#? []

18 quit
#? []

# Nothing after quit is read.
19 name
