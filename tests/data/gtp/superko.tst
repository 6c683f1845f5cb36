# Ko and positional superko (the default, Chinese rules): a move may not recreate any
# earlier whole-board position.

1 boardsize 5
#? []

# A ko at C3/D3: Black C4 B3 C2 around C3, White D4 E3 D2 around D3, White in C3.
2 play b C4
#? []
3 play b B3
#? []
4 play b C2
#? []
5 play w D4
#? []
6 play w E3
#? []
7 play w D2
#? []
8 play w C3
#? []

# Black takes the ko.
9 play b D3
#? []

10 list_stones w
#? [D2 E3 D4]

# The immediate recapture is simple ko.

12 is_legal w C3
#? [0]

# After two passes simple ko is gone, but the recapture would repeat the position
# before Black took: positional superko.
13 play w pass
#? []
14 play b pass
#? []
15 is_legal w C3
#? [0]

# Undo the passes: still simple ko.
17 undo
#? []
18 undo
#? []

# White plays elsewhere, Black answers elsewhere: now the recapture makes a new
# position and is legal.
20 play w A5
#? []
21 play b E1
#? []
22 play w C3
#? []
23 list_stones b
#? [E1 C2 B3 C4]

