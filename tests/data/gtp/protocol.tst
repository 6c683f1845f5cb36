# Protocol: framing, ids, preprocessing (GTP v2 draft 2, section 3.1), the command table.
# Answers are `=id text` / `?id text` ended by one empty line; comment and blank lines
# get no answer at all.

1 protocol_version
#? [2]

2 name
#? [Tengen]

# The package's version; the binary adds the commit it was built from.
3 version
#? [0\.4\.0( \([0-9a-f]{7,}\)| \(unknown\))?]

# Comments are cut (tabs, control characters, ids alone, huge ids and binary bytes are in
# protocol.transcript: gogui-regress rewrites or cannot send them).
5 known_command play # a trailing comment
#? [true]

7 known_command NAME
#? [false]

8 known_command kata-analyze
#? [true]

9 known_command no_such_command
#? [false]

13 list_commands
#? [protocol_version\nname\nversion\nknown_command\nlist_commands\nquit\nboardsize\nclear_board\nkomi\nplay\ngenmove\nundo\nfixed_handicap\nplace_free_handicap\nset_free_handicap\ntime_settings\ntime_left\nfinal_score\nfinal_status_list\nloadsgf\nprintsgf\nreg_genmove\nshowboard\nis_legal\nlist_stones\nkgs-genmove_cleanup\nkgs-time_settings\nkgs-rules\nkgs-game_over\ncgos-genmove_analyze\ncgos-opponent_name\ncgos-opponent_rating\ncgos-gameover\nlz-analyze\nkata-analyze\nlz-genmove_analyze\nkata-genmove_analyze\nkata-search\nkata-search_cancellable\nkata-search_analyze\nkata-search_analyze_cancellable\ngogui-analyze_commands\ngogui-interrupt\ntengen-ownership\ntengen-ownership_dboard\ntengen-gfx_ownership\ntengen-gfx_visits\ntengen-gfx_pv\ntengen-winrate\ntengen-unconditional_status\ntengen-gfx_pass_alive\ntengen-params\ntengen-get\ntengen-set\nkata-list-params\nkata-get-param\nkata-set-param\nkata-get-rules\nkata-set-rules\nlz-setoption\nkata-list_time_settings\nkata-time_settings]

17 gogui-interrupt
#? []

