# Board commands: boardsize, clear_board, komi, play, undo, is_legal, list_stones,
# showboard. Failed commands change nothing.

1 boardsize 9
#? []
clear_board

2 play B E5
#? []

# Colours and vertices in any case; the same colour twice is legal GTP (setup).
3 play black c3
#? []

4 play w pass
#? []

5 play WHITE g7
#? []

6 list_stones b
#? [C3 E5]

7 list_stones white
#? [G7]

# None of the failures above played anything.
15 list_stones b
#? [C3 E5]

16 is_legal b E5
#? [0]

17 is_legal w D4
#? [1]

18 is_legal b pass
#? [1]

# Undo takes back moves, passes included.
20 undo
#? []

21 list_stones w
#? []

22 undo
#? []

23 undo
#? []

24 undo
#? []

26 list_stones b
#? []

# Boardsize: 2..=25; a failure keeps the old board.
27 play b D4
#? []

35 list_stones b
#? [D4]

36 boardsize 25
#? []

37 play b Z25
#? []

38 list_stones b
#? [Z25]

39 boardsize 2
#? []

40 play b B2
#? []

41 play w A1
#? []

42 boardsize 19
#? []

43 list_stones b
#? []

# Komi: any finite number; NaN, infinities and junk are refused and change nothing.
44 komi 6.5
#? []

45 komi 0
#? []

46 komi -3.5
#? []

# Capture, and suicide refused.
53 boardsize 5
#? []

54 play b B1
#? []

55 play b A2
#? []

57 play b B2
#? []

58 play w pass
#? []

59 showboard
#? [A B C D E\n 5  \. \. \. \. \. 5\n 4  \. \. \. \. \. 4\n 3  \. \. \. \. \. 3\n 2  X X \. \. \. 2\n 1  \. X \. \. \. 1\n    A B C D E\nBlack to move, move 5, last W pass\ncaptures: black 0 white 0, komi -3\.5]

60 clear_board
#? []

61 list_stones b
#? []

