# Handicap: fixed_handicap (the spec's table), place_free_handicap, set_free_handicap.

1 boardsize 19
#? []

2 fixed_handicap 2
#? [D4 Q16]

3 list_stones b
#? [D4 Q16]

# Only on an empty board.

5 clear_board
#? []

6 fixed_handicap 9
#? [D4 Q16 D16 Q4 D10 Q10 K4 K16 K10]

7 clear_board
#? []

8 fixed_handicap 5
#? [D4 Q16 D16 Q4 K10]

9 clear_board
#? []

14 list_stones b
#? []

15 boardsize 9
#? []

16 fixed_handicap 9
#? [C3 G7 C7 G3 C5 G5 E3 E7 E5]

17 boardsize 13
#? []

18 fixed_handicap 5
#? [D4 K10 D10 K4 G7]

# Even sizes and 7x7 take at most 4; below 7x7 none.
19 boardsize 10
#? []

20 fixed_handicap 4
#? [C3 H8 C8 H3]

21 clear_board
#? []

23 boardsize 7
#? []

24 fixed_handicap 4
#? [C3 E5 C5 E3]

25 clear_board
#? []

27 boardsize 6
#? []

29 boardsize 25
#? []

30 fixed_handicap 9
#? [D4 W22 D22 W4 D13 W13 N4 N22 N13]

# Handicap stones are not moves: undo cannot take them back; White moves next.

32 showboard
#? [.*White to move, move 1.*]

# place_free_handicap: the engine chooses.
33 boardsize 19
#? []

34 place_free_handicap 4
#? [D4 Q16 D16 Q4]

36 boardsize 5
#? []

39 place_free_handicap 3
#? [.*]

40 boardsize 3
#? []

41 place_free_handicap 8
#? [.*]

# set_free_handicap: the controller's points.
42 boardsize 9
#? []

43 set_free_handicap C3 G7 E5
#? []

44 list_stones b
#? [C3 E5 G7]

46 clear_board
#? []

52 list_stones b
#? []

53 play b E5
#? []


# White's compensation for the handicap stones under area scoring: one a stone (Chinese),
# one a stone after the first (AGA), none under territory scoring. Two Black stones
# alone own the whole 9x9 board: 81 points area, 79 territory.

60 boardsize 9
#? []

61 komi 0.5
#? []

62 fixed_handicap 2
#? [C3 G7]

# White passes: final_score counts by the rules (after a move that is not a pass it estimates).
162 play w pass
#? []

63 final_score
#? [B\+78\.5]

64 kgs-rules aga
#? []

65 final_score
#? [B\+79\.5]

66 kgs-rules japanese
#? []

67 final_score
#? [B\+78\.5]

68 kgs-rules chinese
#? []
