# Move generation and analysis (the engine runs with --playouts 200 --threads 1).

1 boardsize 5
#? []
2 komi 0
#? []

# White C3 C4 has one liberty, C2: Black captures.
3 play b B3
#? []
4 play b B4
#? []
5 play b C5
#? []
6 play b D4
#? []
7 play b D3
#? []
8 play w C3
#? []
9 play w C4
#? []

# reg_genmove answers without playing.
10 reg_genmove b
#? [C2]
11 list_stones b
#? [B3 D3 B4 D4 C5]

12 genmove b
#? [C2]
13 list_stones w
#? []
14 undo
#? []
15 list_stones w
#? [C3 C4]

19 kgs-genmove_cleanup b
#? [C2]

# Analysis streams, pipelined: each stops at once (the next line is waiting) and
# answers once.
27 clear_board
#? []
28 play b B3
#? []
29 play b B4
#? []
30 play b C5
#? []
31 play b D4
#? []
32 play b D3
#? []
33 play w C3
#? []
34 play w C4
#? []
# gogui-regress reads an answer from its first space on, so `=35\nplay C2` reads as `C2`.
# Interval 10 s: a 200-playout search prints no info line before its move, however
# loaded the machine.
35 lz-genmove_analyze b 1000
#? [C2]
36 kata-genmove_analyze w 1000
#? [(pass|[A-HJ-T][0-9]+)]
37 list_stones w
#? [.*]

# GoGui's analyze menu: every command it lists is known.
38 gogui-analyze_commands
#? [gfx/Tengen: Ownership/tengen-gfx_ownership %m\ndboard/Tengen: Ownership values/tengen-ownership_dboard %m\ngfx/Tengen: Visits/tengen-gfx_visits %m\ngfx/Tengen: Principal variation/tengen-gfx_pv %m\nstring/Tengen: Win rate/tengen-winrate %m\nplist/Tengen: Dead stones/final_status_list dead\nplist/Tengen: Seki stones/final_status_list seki\ngfx/Tengen: Pass-alive groups/tengen-gfx_pass_alive\nstring/Tengen: Score/final_score\nparam/Tengen: Settings/tengen-params]
# Black is far ahead: the score lead is Black's by name, whichever colour searched.
39 tengen-winrate b
#? [Black wins.*]
391 tengen-winrate b
#? [.*score B\+.*]
392 tengen-winrate w
#? [.*score B\+.*]
40 tengen-gfx_pv w
#? [.*TEXT White wins.*]
41 tengen-gfx_visits
#? [.*TEXT.*]

# Engine settings over GTP.
43 tengen-get playouts
#? [200]
44 tengen-set threads 2
#? []
45 tengen-get threads
#? [2]
48 tengen-set policy light
#? []
50 tengen-params
#? [\[string\] threads 2\n\[list/root/tree\] parallelism tree\n\[string\] playouts 200\n\[string\] move_time 5\n\[bool\] full_move_time 0\n\[string\] seed 7\n\[list/light/heavy\] policy light\n.*]
51 tengen-params ponder true
#? []
52 tengen-get ponder
#? [1]
53 tengen-set ponder false
#? []
54 genmove w
#? [.*]

