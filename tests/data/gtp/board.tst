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

8 play b E5
#? [?illegal move: point is occupied]

9 play b i5
#? [?syntax error: invalid vertex: "i5"]

10 play b J10
#? [?syntax error: vertex is off the board: "J10"]

11 play b A0
#? [?syntax error: vertex is off the board: "A0"]

12 play x D4
#? [?syntax error: invalid color "x"]

13 play b
#? [?syntax error: missing vertex]

14 play b D4 extra
#? [?syntax error: unexpected argument "extra"]

# None of the failures above played anything.
15 list_stones b
#? [C3 E5]

16 is_legal b E5
#? [0]

17 is_legal w D4
#? [1]

18 is_legal b pass
#? [1]

19 is_legal b Z9
#? [?syntax error: vertex is off the board: "Z9"]

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

25 undo
#? [?cannot undo]

26 list_stones b
#? []

# Boardsize: 2..=25; a failure keeps the old board.
27 play b D4
#? []

28 boardsize 1
#? [?unacceptable size]

29 boardsize 0
#? [?unacceptable size]

30 boardsize 26
#? [?unacceptable size]

31 boardsize 1000
#? [?unacceptable size]

32 boardsize -3
#? [?unacceptable size]

33 boardsize 99999999999999999999999999
#? [?unacceptable size]

34 boardsize nine
#? [?syntax error: size is not an integer: "nine"]

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

47 komi NaN
#? [?syntax error: komi is not a finite number: "NaN"]

48 komi inf
#? [?syntax error: komi is not a finite number: "inf"]

49 komi 1e999
#? [?syntax error: komi is not a finite number: "1e999"]

50 komi abc
#? [?syntax error: komi is not a finite number: "abc"]

51 komi 5000
#? [?syntax error: komi must be a finite number between -1000 and 1000]

52 komi
#? [?syntax error: missing komi]

# Capture, and suicide refused.
53 boardsize 5
#? []

54 play b B1
#? []

55 play b A2
#? []

56 play w A1
#? [?illegal move: suicide]

57 play b B2
#? []

58 play w pass
#? []

59 showboard
#? [ A B C D E 5 . . . . . 5 4 . . . . . 4 3 . . . . . 3 2 X X . . . 2 1 . X . . . 1 A B C D E Black to move, move 5, last W pass captures: black 0 white 0, komi -3.5]

60 clear_board
#? []

61 list_stones b
#? []
