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

16 genmove x
#? [?syntax error: invalid color "x"]
17 genmove
#? [?syntax error: missing color]
18 genmove b w
#? [?syntax error: unexpected argument "w"]

19 kgs-genmove_cleanup b
#? [C2]

# Analysis streams, pipelined: each stops at once (the next line is waiting) and
# answers once.
20 lz-analyze b 10
#? [.*]
21 kata-analyze w 10 ownership true rootInfo true
#? [.*]
22 lz-analyze 10 avoid b C2,pass 1 minmoves 2 maxmoves 5
#? [.*]
23 lz-analyze b -5
#? [?syntax error: interval must not be negative]
24 kata-analyze b 10 bogus 1
#? [?syntax error: unknown key "bogus"]
25 kata-analyze b 10 ownership maybe
#? [?syntax error: ownership is not a boolean: "maybe"]
26 lz-analyze b 10 avoid b Z9 1
#? [?syntax error: bad vertex list "Z9"]
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
35 lz-genmove_analyze b 10
#? [.*play C2]
36 kata-genmove_analyze w 10
#? [.*play.*]
37 list_stones w
#? [.*]

# GoGui's analyze menu: every command it lists is known.
38 gogui-analyze_commands
#? [gfx/Tengen: Ownership/tengen-gfx_ownership %m dboard/Tengen: Ownership values/tengen-ownership %m gfx/Tengen: Visits/tengen-gfx_visits %m gfx/Tengen: Principal variation/tengen-gfx_pv %m string/Tengen: Win rate/tengen-winrate %m plist/Tengen: Dead stones/final_status_list dead plist/Tengen: Seki stones/final_status_list seki gfx/Tengen: Pass-alive groups/tengen-gfx_pass_alive string/Tengen: Score/final_score param/Tengen: Settings/tengen-params]
# Black is far ahead: the score lead is Black's by name, whichever colour searched.
39 tengen-winrate b
#? [Black wins.*]
391 tengen-winrate b
#? [.*score B+.*]
392 tengen-winrate w
#? [.*score B+.*]
40 tengen-gfx_pv w
#? [.*TEXT White wins.*]
41 tengen-gfx_visits
#? [.*TEXT.*]
42 tengen-winrate q
#? [?syntax error: invalid color "q"]

# Engine settings over GTP.
43 tengen-get playouts
#? [200]
44 tengen-set threads 2
#? []
45 tengen-get threads
#? [2]
46 tengen-set threads 0
#? [?syntax error: threads: expected an integer in 1..=1024: "0"]
47 tengen-set colour blue
#? [?syntax error: unknown setting "colour" (threads, parallelism, playouts, move_time, seed, policy, resign_threshold, ponder, max_nodes, lag)]
48 tengen-set policy light
#? []
49 tengen-set policy medium
#? [?syntax error: policy: unknown playout policy "medium" (expected light or heavy): "medium"]
149 tengen-set parallelism leaf
#? [?syntax error: parallelism: unknown parallelism "leaf" (expected root or tree): "leaf"]
50 tengen-params
#? [[string] threads 2 [list/root/tree] parallelism tree [string] playouts 200 [string] move_time 5 [string] seed 7 [list/light/heavy] policy light.*]
51 tengen-params ponder true
#? []
52 tengen-get ponder
#? [1]
53 tengen-set ponder false
#? []
54 genmove w
#? [.*]
