#!/bin/sh
# coproc-bench.sh IVX — what the profiling co-processor running the value
# program costs in timing-mode speed (`make bench`).
#
# For every workload of the bench suite (bench-lib.sh), COPROC_BENCH_CYCLES
# cycles (default 5M) of `ivx run --stats` and of
# `ivx coproc --program value --speed` (no exact profile), alternated
# COPROC_BENCH_REPS times (default 3); the medians of the simulated cycles
# per host second and their ratio. The target: the ratio's median over the
# suite is at least 0.75 (the program costs at most 25%). A loaded machine
# makes the ratio noisy, so the script reports and does not fail.
set -u
IVX=${1:-build/ivx}
CYC=${COPROC_BENCH_CYCLES:-5000000}
REPS=${COPROC_BENCH_REPS:-3}
. "$(dirname "$0")/tools/bench-lib.sh"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
printf '%-12s %12s %12s %8s\n' workload "plain Mc/s" "coproc Mc/s" ratio
: >"$TMP/ratios"
bench_workloads >"$TMP/w"
while read -r prog args; do
    : >"$TMP/a"; : >"$TMP/b"
    i=0
    while [ $i -lt "$REPS" ]; do
        # shellcheck disable=SC2086
        "$IVX" run --stats --max-cycles "$CYC" "data/bin/$prog" -- $args 2>&1 >/dev/null |
            sed -n 's/.*s: \([0-9.]*\) M cycles\/s.*/\1/p' >>"$TMP/a"
        # shellcheck disable=SC2086
        "$IVX" coproc --program value --speed --max-cycles "$CYC" "data/bin/$prog" -- $args 2>/dev/null |
            sed -n 's/^host .* s: \([0-9.]*\) M cycles\/s.*/\1/p' >>"$TMP/b"
        i=$((i + 1))
    done
    a=$(median <"$TMP/a"); b=$(median <"$TMP/b")
    r=$(awk -v a="$a" -v b="$b" 'BEGIN { if (a > 0) printf "%.3f", b / a; else print "?" }')
    printf '%-12s %12s %12s %8s\n' "${prog#workloads/}" "$a" "$b" "$r"
    [ "$r" != "?" ] && echo "$r" >>"$TMP/ratios"
done <"$TMP/w"
m=$(median <"$TMP/ratios")
lo=$(sort -g "$TMP/ratios" | head -n 1)
printf '%-12s %12s %12s %8s\n' median "" "" "$m"
if awk -v m="$m" 'BEGIN { exit !(m >= 0.75) }'; then
    echo "coproc value program: median speed ratio $m, lowest $lo (target >= 0.75)"
else
    echo "coproc value program: median speed ratio $m, lowest $lo, BELOW the 0.75 target (is the machine loaded?)"
fi
