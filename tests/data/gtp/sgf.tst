# loadsgf FILE [N] (the position before move N) and printsgf. A failed loadsgf keeps
# the game as it was.

1 boardsize 9
#? []
2 play b A1
#? []

# Broken, illegal, oversized, binary, missing files and folders: refused, nothing changes.
11 list_stones b
#? [A1]

# The whole game: 7 moves (a pass included), komi from the file.
12 loadsgf sgf/game.sgf
#? []
13 list_stones b
#? [G3 E5 D6 G7]
14 list_stones w
#? [C3 C7]
15 showboard
#? [A B C D E F G H J\n 9  \. \. \. \. \. \. \. \. \. 9\n 8  \. \. \. \. \. \. \. \. \. 8\n 7  \. \. O \. \. \. X \. \. 7\n 6  \. \. \. X \. \. \. \. \. 6\n 5  \. \. \. \. X \. \. \. \. 5\n 4  \. \. \. \. \. \. \. \. \. 4\n 3  \. \. O \. \. \. X \. \. 3\n 2  \. \. \. \. \. \. \. \. \. 2\n 1  \. \. \. \. \. \. \. \. \. 1\n    A B C D E F G H J\nWhite to move, move 8, last B D6\ncaptures: black 0 white 0, komi 6\.5]

# The position before move 3 (GNU Go and gogui-regress convention).
16 loadsgf sgf/game.sgf 3
#? []
17 list_stones b
#? [E5]
18 list_stones w
#? [C7]
19 undo
#? []
20 undo
#? []

# 1 and 0 give the start position; past the end, the whole game.
22 loadsgf sgf/game.sgf 1
#? []
23 list_stones b
#? []
24 loadsgf sgf/game.sgf 999
#? []
25 list_stones b
#? [G3 E5 D6 G7]

# Setup stones and PL: the setup stays under undo.
26 loadsgf sgf/setup.sgf
#? []
27 list_stones b
#? [C3 B4]
28 undo
#? []
29 list_stones w
#? [D2]

# printsgf writes the game back.
31 loadsgf sgf/game.sgf
#? []
32 printsgf
#? [\(;FF\[4\]GM\[1\].*]
# The record's KM[6.5] held for its game; clear_board brings back the session's komi.
34 clear_board
#? []
35 printsgf
#? [.*SZ\[9\]KM\[7\.5\]RU\[Chinese\]\)]

