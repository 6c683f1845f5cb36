# Time settings and clocks (they change no position; failures change nothing).

1 time_settings 300 30 5
#? []

2 time_settings 0 1 0
#? []

3 time_settings 600 0 0
#? []

4 time_settings 300 30
#? [?syntax error: missing byo-yomi stones]

5 time_settings -1 30 5
#? [?syntax error: main time must not be negative: "-1"]

6 time_settings 300 nan 5
#? [?syntax error: byo-yomi time is not a finite number: "nan"]

7 time_settings 300 30 -5
#? [?syntax error: byo-yomi stones must be a non-negative integer: "-5"]

8 time_left b 120 0
#? []

9 time_left white 25.5 3
#? []

# KataGo accepts an overrun clock; it counts as zero.
10 time_left w -1 0
#? []

11 time_left x 10 0
#? [?syntax error: invalid color "x"]

12 time_left b 10
#? [?syntax error: missing stones]

13 kgs-time_settings none
#? []

14 kgs-time_settings absolute 600
#? []

15 kgs-time_settings byoyomi 600 30 5
#? []

16 kgs-time_settings canadian 600 300 25
#? []

17 kgs-time_settings fischer 600 10
#? [?syntax error: unknown time system "fischer" (none, absolute, byoyomi, canadian)]

18 kgs-time_settings byoyomi 600 30
#? [?syntax error: missing periods]

19 kgs-time_settings
#? [?syntax error: missing time system]

20 kgs-rules japanese
#? []

21 kgs-rules chinese
#? []

22 kgs-rules aga
#? []

23 kgs-rules new_zealand
#? []

24 kgs-rules chess
#? [?syntax error: unknown rules "chess"]
