# Scoring: final_score and final_status_list from the engine's dead-stone estimate and
# the rules' count (area under Chinese rules; territory under kgs-rules japanese).

1 boardsize 5
#? []
2 komi 0
#? []

# Black owns columns A-C, White D-E: every stone alive.
3 play b C1
#? []
4 play b C2
#? []
5 play b C3
#? []
6 play b C4
#? []
7 play b C5
#? []
8 play w D1
#? []
9 play w D2
#? []
10 play w D3
#? []
11 play w D4
#? []
12 play w D5
#? []

13 final_score
#? [B\+5]
14 final_status_list dead
#? []
15 final_status_list seki
#? []
16 final_status_list alive
#? [C1 C2 C3 C4 C5\nD1 D2 D3 D4 D5]

# Komi moves the result.
19 komi 7.5
#? []
20 final_score
#? [W\+2\.5]
21 komi 5
#? []
# A draw: GTP's `0` (other engines write B+0 or W+0).
22 final_score
#? [(0|B\+0|W\+0)]

# A lone white stone inside Black's area is dead and counts for Black.
23 komi 0
#? []
24 play w A3
#? []
25 final_status_list dead
#? [A3]
26 final_score
#? [B\+5]

# Territory counting: the dead stone is a prisoner, the stones are not points.
27 kgs-rules japanese
#? []
28 final_score
#? [B\+6]


# Static life and death (tengen-unconditional_status, GNU Go's words): a corner
# group with two one-point eyes is pass-alive, its eyes are its territory.
boardsize 7
clear_board
play b B7
play b D7
play b A6
play b B6
play b C6
play b D6
play w E7
play w E6
play w E5
200 tengen-unconditional_status B7
#? [alive]
201 tengen-unconditional_status A7
#? [black_territory]
202 tengen-unconditional_status E7
#? [undecided]
203 tengen-unconditional_status G1
#? [undecided]

# During a game final_score is the judgement's estimate, as the search sees it: one
# black stone on an open 9x9 board is not worth the 81-point count (B+73.5); after a
# pass it is the rules' count, what the game scores if it ends at the next pass.
40 kgs-rules chinese
#? []
41 boardsize 9
#? []
42 clear_board
#? []
43 komi 7.5
#? []
44 play b E5
#? []
45 final_score
#? [(W\+[0-9]+(\.5)?|B\+[0-9](\.5)?|0)]
46 tengen-gfx_ownership
#? [(INFLUENCE[^\n]*\n){9}TEXT (W\+[0-9]+(\.5)?|B\+[0-9](\.5)?|0) \(an estimate: nobody has passed\) with 0 dead and 0 seki stones]
47 play w pass
#? []
48 final_score
#? [B\+73\.5]

# tengen-ownership is for people: which sign is whose, the score, coordinates around
# the grid. tengen-ownership_dboard is the bare grid GoGui's dboard type reads.
49 tengen-ownership
# (gogui-regress compares from the first space on: past `Ownership:`, and past a
# dboard's first value.)
#? [\+1\.00 is Black's, -1\.00 White's, 0\.00 nobody's; B\+73\.5 \(the count\)\n +A +B +C +D +E +F +G +H +J\n  9 [-+]\d\.\d\d( [-+]\d\.\d\d){8}   9\n(.*\n){7}  1 [-+]\d\.\d\d( [-+]\d\.\d\d){8}   1\n +A +B +C +D +E +F +G +H +J]
50 tengen-ownership_dboard
#? [-?\d\.\d\d( -?\d\.\d\d){7}(\n-?\d\.\d\d( -?\d\.\d\d){8}){8}]
