#!/usr/bin/env bash
# Light playouts per CPU-second, Tengen against libEGO, side by side on this machine.
#
#   benches/compare.sh LIBEGO_DIR [RUNS]
#
# LIBEGO_DIR is libEGO's build directory as ../shared/tools/build-anchors.sh leaves it:
# it must hold build9/engine/engine and build19/engine/engine (board size fixed at
# compile time). For each of 9x9 and 19x19 the script runs, RUNS times (default 3) and
# interleaved, `tengen bench --policy light` on one thread and libEGO's `engine -b`, and
# prints each run, the medians and the ratio Tengen / libEGO.
#
# Both figures are per CPU-second: Tengen's `playouts_per_cpu_sec` (the measuring
# thread's own CPU time), libEGO's "kpps" (its process's user time), so a busy machine
# lowers neither much; still, run it on a quiet machine for figures to publish.
#
# Environment: TENGEN (default target/release/tengen, built with `cargo build
# --release` if missing), SECONDS_EACH (Tengen's seconds a run, default 3),
# EGO_KILO9 / EGO_KILO19 (libEGO's thousands of playouts a run, default 200 and 30).
# Not part of CI: .ci/run does not need libEGO.
set -euo pipefail

die() {
  echo "compare.sh: $*" >&2
  exit 2
}

[ $# -ge 1 ] && [ $# -le 2 ] || die "usage: benches/compare.sh LIBEGO_DIR [RUNS]"
ego_dir=$1
runs=${2:-3}
[[ $runs =~ ^[1-9][0-9]*$ ]] || die "RUNS must be a positive whole number, not '$runs'"
[ -d "$ego_dir" ] || die "libEGO directory '$ego_dir' does not exist"
ego9=$ego_dir/build9/engine/engine
ego19=$ego_dir/build19/engine/engine
for e in "$ego9" "$ego19"; do
  [ -x "$e" ] || die "'$e' is missing or not executable (build libEGO with ../shared/tools/build-anchors.sh)"
done
seconds=${SECONDS_EACH:-3}
kilo9=${EGO_KILO9:-200}
kilo19=${EGO_KILO19:-30}

root=$(cd "$(dirname "$0")/.." && pwd)
tengen=${TENGEN:-$root/target/release/tengen}
if [ ! -x "$tengen" ]; then
  [ -z "${TENGEN:-}" ] || die "TENGEN='$tengen' is not an executable"
  echo "building $tengen" >&2
  (cd "$root" && cargo build --release --quiet) || die "cargo build --release failed"
fi

# Playouts per CPU-second of one light `tengen bench` run on a size.
tengen_rate() {
  local out
  out=$("$tengen" bench --policy light --sizes "$1" --no-search --no-midgame --threads 1 \
    --seconds "$seconds" --json) || die "tengen bench failed"
  grep -o '"playouts_per_cpu_sec":[0-9.]*' <<<"$out" | head -1 | cut -d: -f2 \
    | grep . || die "tengen bench printed no playouts_per_cpu_sec (no CPU clock here?)"
}

# Playouts per CPU-second of one libEGO benchmark run ("... kpps" times 1000).
ego_rate() {
  local out
  out=$("$1" -b "$2" 2>&1) || die "'$1 -b $2' failed"
  awk '$2 == "kpps" { printf "%.0f\n", $1 * 1000; found = 1 } END { exit !found }' <<<"$out" \
    || die "'$1 -b $2' printed no kpps line"
}

median() {
  sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) CPUs; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "tengen: $tengen ($("$tengen" --version 2>/dev/null || echo '?'))"
echo "libego: $ego_dir"
printf '\n%-6s %-4s %14s %14s\n' size run tengen/CPU-s libego/CPU-s
summary=()
for size in 9 19; do
  if [ "$size" = 9 ]; then ego=$ego9 kilo=$kilo9; else ego=$ego19 kilo=$kilo19; fi
  t_all=() e_all=()
  for ((r = 1; r <= runs; r++)); do
    t=$(tengen_rate "$size")
    e=$(ego_rate "$ego" "$kilo")
    t_all+=("$t") e_all+=("$e")
    printf '%-6s %-4s %14.0f %14.0f\n' "${size}x$size" "$r" "$t" "$e"
  done
  tm=$(printf '%s\n' "${t_all[@]}" | median)
  em=$(printf '%s\n' "${e_all[@]}" | median)
  summary+=("$(awk -v s="${size}x$size" -v t="$tm" -v e="$em" \
    'BEGIN { printf "%-6s %14.0f %14.0f %8.2f", s, t, e, t / e }')")
done
echo
echo "medians of $runs interleaved runs, light playouts per CPU-second, one thread:"
printf '%-6s %14s %14s %8s\n' size tengen libego ratio
printf '%s\n' "${summary[@]}"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
