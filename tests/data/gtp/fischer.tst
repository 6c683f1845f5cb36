# KataGo's time settings (kata-time_settings, kata-list_time_settings), as online-go.com's
# bridge gtp2ogs sends them: Fischer clocks, and the kgs-time_settings systems.
# All times in seconds, fractions allowed.

1 kata-list_time_settings
#? [none absolute byoyomi canadian fischer fischer-capped]

2 kata-time_settings fischer 1200 5
#? []

# gtp2ogs: main time, increment, the most the clock can hold, no limit a move.
3 kata-time_settings fischer-capped 86400 3600 172800 -1
#? []

4 time_left black 12345 0
#? []

# Fischer has no overtime: stones are read as 0.
5 time_left white 2598.5 1
#? []

6 kata-time_settings fischer-capped 30 10 -1 -1
#? []

7 kata-time_settings FISCHER 0.5 0.25
#? []

# No increment: sudden death.
8 kata-time_settings fischer 600 0
#? []

9 kata-time_settings none
#? []

10 kata-time_settings absolute 600.5
#? []

11 kata-time_settings byoyomi 900 30 5
#? []

12 kata-time_settings canadian 600 300 25
#? []

# A game under a 2 s + 0.5 s clock: moves come back well within it.
20 boardsize 9
#? []
21 clear_board
#? []
22 kata-time_settings fischer 2 0.5
#? []
23 genmove b
#? [[A-HJ][1-9]]
24 time_left w 1.5 0
#? []
25 genmove w
#? [[A-HJ][1-9]]
26 kata-time_settings fischer-capped 2 0.5 3 -1
#? []
27 genmove b
#? [[A-HJ][1-9]]
