//! KataGo's JSON analysis engine protocol: one query a line on stdin, one response a line on stdout.
