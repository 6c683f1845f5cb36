#!/usr/bin/env python3
"""Runs the `unconditional_status` tests of a GNU Go regression file against
Tengen's `tengen-unconditional_status`, from the file's folder (its `loadsgf` paths
are relative to it), passing every other command through. Prints the tally and each
disagreement. The suite itself stays outside this repository:

    python3 tests/tools/unconditional_tst.py /tmp/gnugo/regression/unconditional.tst \
        target/release/tengen gtp --quiet --threads 1
"""
import subprocess, sys, re, os

tst, engine = sys.argv[1], sys.argv[2:]
os.chdir(os.path.dirname(os.path.abspath(tst)))
p = subprocess.Popen(engine, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                     stderr=subprocess.DEVNULL, text=True)

def ask(cmd):
    p.stdin.write(cmd + "\n"); p.stdin.flush()
    out = []
    while True:
        line = p.stdout.readline()
        if line == "\n" or line == "":
            break
        out.append(line.rstrip("\n"))
    s = "\n".join(out)
    return s[1:].strip() if s[:1] in "=?" else s

pending = None
total = ok = 0
fails = []
sgf = None
for raw in open(os.path.basename(tst)):
    line = raw.strip()
    if line.startswith("#?") and pending:
        n, cmd, got = pending
        m = re.match(r"#\?\s*\[(.*)\]", line)
        if not m:
            pending = None
            continue
        want = m.group(1)
        pat = "^(" + want + ")$"
        total += 1
        if re.match(pat, got):
            ok += 1
        else:
            fails.append((sgf, n, cmd, want, got))
        pending = None
        continue
    if not line or line.startswith("#"):
        continue
    m = re.match(r"(\d+)\s+unconditional_status\s+(\S+)", line)
    if m:
        pending = (m.group(1), line, ask("tengen-unconditional_status " + m.group(2)))
        continue
    if line.startswith("loadsgf"):
        sgf = line.split()[1]
    ask(line)
print(f"{tst}: {ok}/{total}")
for f in fails:
    print("  %s #%s %s: want [%s] got %s" % f)
