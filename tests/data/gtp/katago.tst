# KataGo's and Leela Zero's settings and rules commands (kata-list-params,
# kata-get-param, kata-set-param, kata-get-rules, kata-set-rules, lz-setoption), as
# Lizzie, LizzieYzy and LizGoban send them. They read and write tengen-set's settings
# and the game's rules; their failure answers are in katago.transcript.

1 kata-list-params
#? [numSearchThreads maxVisits maxPlayouts maxTime ponderingEnabled threads parallelism playouts move_time full_move_time seed policy resign_threshold dynamic_komi ponder memory expand_after model_prior model_weight widen_visits policy_net net_visits net_blend net_weight net_min_size playout_model lag max_move_time]

# KataGo's names: numSearchThreads is threads.
2 kata-get-param numSearchThreads
#? [1]
3 kata-set-param numSearchThreads 2
#? []
4 kata-get-param numSearchThreads
#? [2]
5 tengen-get threads
#? [2]

# maxVisits and maxPlayouts are the playout budget; KataGo's 'no limit' (2^50, or
# more) is Tengen's 0, both ways.
6 kata-get-param maxVisits
#? [200]
7 kata-set-param maxPlayouts 300
#? []
8 kata-get-param maxVisits
#? [300]
9 tengen-get playouts
#? [300]
10 kata-set-param maxVisits 1125899906842624
#? []
11 tengen-get playouts
#? [0]
12 kata-get-param maxPlayouts
#? [1125899906842624]
13 kata-set-param maxVisits 0
#? []
14 kata-get-param maxVisits
#? [1125899906842624]
72 kata-set-param maxVisits 2000000000000000
#? []
73 tengen-get playouts
#? [0]
15 kata-set-param maxVisits 200
#? []

# maxTime is move_time, in seconds.
16 kata-set-param maxTime 2.5
#? []
17 kata-get-param maxTime
#? [2\.5]
18 tengen-get move_time
#? [2\.5]

# ponderingEnabled is ponder, written true/false.
19 kata-get-param ponderingEnabled
#? [false]
20 kata-set-param ponderingEnabled true
#? []
21 kata-get-param ponderingEnabled
#? [true]
22 tengen-get ponder
#? [1]
23 kata-set-param ponderingEnabled false
#? []

# Tengen's own names, any case, as tengen-get/tengen-set read them.
24 kata-set-param resign_threshold 0.2
#? []
25 kata-get-param RESIGN_THRESHOLD
#? [0\.2]
26 kata-get-param policy
#? [heavy|light]

# Leela Zero's options: Visits and Playouts are the playout budget (0 no limit),
# Pondering is ponder, Resign Percentage is resign_threshold in percent (-1: the default),
# Threads is threads; the name may hold spaces, any case.
27 lz-setoption name visits value 1
#? []
28 tengen-get playouts
#? [1]
29 lz-setoption name Visits value 0
#? []
30 tengen-get playouts
#? [0]
# Visits and Playouts at Leela Zero's maximum (1000000000, which Lizzie sends to lift
# the limit) or above are no budget too: the clock decides, as there.
74 lz-setoption name Visits value 1000000000
#? []
75 tengen-get playouts
#? [0]
76 lz-setoption name playouts value 999999999
#? []
77 tengen-get playouts
#? [999999999]
31 lz-setoption name Playouts value 200
#? []
32 kata-get-param maxPlayouts
#? [200]
33 lz-setoption name Resign Percentage value 5
#? []
34 tengen-get resign_threshold
#? [0\.05]
35 lz-setoption name resign percentage value -1
#? []
36 tengen-get resign_threshold
#? [0\.1]
37 lz-setoption name Resign Percentage value 0
#? []
38 tengen-get resign_threshold
#? [0]
39 lz-setoption name Pondering value true
#? []
40 tengen-get ponder
#? [1]
41 lz-setoption name Pondering value false
#? []
42 lz-setoption name Threads value 1
#? []
43 tengen-get threads
#? [1]

# The rules in KataGo's JSON; the komi is not part of them. Names mean what they mean
# to kgs-rules and --rules (Tengen's Chinese and Japanese rules keep positional superko).
44 kata-get-rules
#? [\{"friendlyPassOk":true,"hasButton":false,"ko":"POSITIONAL","scoring":"AREA","suicide":false,"tax":"NONE","whiteHandicapBonus":"N"\}]
45 komi 0.5
#? []
46 kata-set-rules japanese
#? []
47 kata-get-rules
#? [\{"friendlyPassOk":true,"hasButton":false,"ko":"POSITIONAL","scoring":"TERRITORY","suicide":false,"tax":"SEKI","whiteHandicapBonus":"0"\}]
# The komi stays.
48 printsgf
#? [(.*KM\[0\.5\].*RU\[Japanese\]|.*RU\[Japanese\].*KM\[0\.5\]).*]
49 kata-set-rules korean
#? []
50 kata-get-rules
#? [.*"scoring":"TERRITORY".*]
51 kata-set-rules aga
#? []
52 kata-get-rules
#? [\{"friendlyPassOk":true,"hasButton":false,"ko":"SITUATIONAL","scoring":"AREA","suicide":false,"tax":"NONE","whiteHandicapBonus":"N-1"\}]
53 kata-set-rules bga
#? []
54 kata-get-rules
#? [.*"ko":"SITUATIONAL".*"whiteHandicapBonus":"N-1".*]
55 kata-set-rules tromp-taylor
#? []
56 kata-get-rules
#? [\{"friendlyPassOk":false,"hasButton":false,"ko":"POSITIONAL","scoring":"AREA","suicide":true,"tax":"NONE","whiteHandicapBonus":"0"\}]
156 kata-set-rules {"friendlyPassOk":false,"ko":"POSITIONAL"}
#? []
157 kata-get-rules
#? [\{"friendlyPassOk":false,"hasButton":false,"ko":"POSITIONAL","scoring":"AREA","suicide":true,"tax":"NONE","whiteHandicapBonus":"0"\}]
57 kata-set-rules new-zealand
#? []
58 kata-get-rules
#? [\{"friendlyPassOk":true,"hasButton":false,"ko":"SITUATIONAL","scoring":"AREA","suicide":true,"tax":"NONE","whiteHandicapBonus":"0"\}]
59 kata-set-rules chinese-ogs
#? []
60 kata-get-rules
#? [\{"friendlyPassOk":true,"hasButton":false,"ko":"POSITIONAL","scoring":"AREA","suicide":false,"tax":"NONE","whiteHandicapBonus":"N"\}]
61 kata-set-rules New Zealand
#? []
62 kata-get-rules
#? [.*"suicide":true.*]
63 kata-set-rules Chinese
#? []

# A JSON object: set, then get the same back (KataGo's own Chinese: simple ko).
64 kata-set-rules {"hasButton":false,"ko":"SIMPLE","scoring":"AREA","suicide":false,"tax":"NONE","whiteHandicapBonus":"N","friendlyPassOk":true}
#? []
65 kata-get-rules
#? [\{"friendlyPassOk":true,"hasButton":false,"ko":"SIMPLE","scoring":"AREA","suicide":false,"tax":"NONE","whiteHandicapBonus":"N"\}]
66 kata-set-rules { "ko": "SITUATIONAL", "scoring": "TERRITORY", "suicide": true }
#? []
67 kata-get-rules
#? [\{"friendlyPassOk":true,"hasButton":false,"ko":"SITUATIONAL","scoring":"TERRITORY","suicide":true,"tax":"SEKI","whiteHandicapBonus":"0"\}]
# Keys left out take KataGo's defaults (Tromp-Taylor's values).
68 kata-set-rules {}
#? []
69 kata-get-rules
#? [\{"friendlyPassOk":false,"hasButton":false,"ko":"POSITIONAL","scoring":"AREA","suicide":true,"tax":"NONE","whiteHandicapBonus":"0"\}]
70 kata-set-rules {"ko":"simple","scoring":"area","whiteHandicapBonus":"N-1","suicide":false}
#? []
71 kata-get-rules
#? [.*"ko":"SIMPLE".*"suicide":false.*"whiteHandicapBonus":"N-1".*]
