# Time settings and clocks (they change no position; failures change nothing).

1 time_settings 300 30 5
#? []

2 time_settings 0 1 0
#? []

3 time_settings 600 0 0
#? []

8 time_left b 120 0
#? []

9 time_left white 25.5 3
#? []

# KataGo accepts an overrun clock; it counts as zero.
10 time_left w -1 0
#? []

13 kgs-time_settings none
#? []

14 kgs-time_settings absolute 600
#? []

15 kgs-time_settings byoyomi 600 30 5
#? []

16 kgs-time_settings canadian 600 300 25
#? []

20 kgs-rules japanese
#? []

21 kgs-rules chinese
#? []

22 kgs-rules aga
#? []

23 kgs-rules new_zealand
#? []

