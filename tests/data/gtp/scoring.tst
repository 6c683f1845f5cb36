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
