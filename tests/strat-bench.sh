#!/bin/sh
# strat-bench.sh [IVX] — what a stream compressor costs in timing-mode
# speed (`make bench`).
#
# For every workload of data/bin/MANIFEST (default arguments; the -On
# variants, kernels and selftest left out), `ivx strat --bench` runs the
# same STRAT_BENCH_CYCLES cycles on the timing model without observers,
# with the selector and the compressor STRAT_BENCH_SPEC on the value
# profile, and with the exact profile the error is measured against as
# well, five times each, in turn, and reports the least CPU time of each.
# Target: a compressor costs at most 10% of timing-mode speed. A loaded machine blurs
# the numbers, so the script reports and does not fail.
set -u
IVX=${1:-${IVX:-build/ivx}}
CYCLES=${STRAT_BENCH_CYCLES:-3000000}
SPEC=${STRAT_BENCH_SPEC:-H[P256]2048}
. "$(dirname "$0")/tools/bench-lib.sh"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

printf '%-12s %10s %10s %10s %9s %9s\n' workload "Mcycles/s" "with comp" "and exact" "comp" "both"
: >"$TMP/lost"
: >"$TMP/lost2"
: >"$TMP/rates"
bench_workloads >"$TMP/workloads"
while read -r prog args; do
    # shellcheck disable=SC2086
    line=$("$IVX" strat --bench --max-cycles "$CYCLES" --spec "$SPEC" "data/bin/$prog" -- $args 2>&1)
    a=$(echo "$line" | sed -n 's/.*timing model [0-9.]* s (\([0-9.]*\) M cycles\/s).*/\1/p')
    b=$(echo "$line" | sed -n 's/.*; with [^ ]* [0-9.]* s (\([0-9.]*\) M cycles\/s).*/\1/p')
    c=$(echo "$line" | sed -n 's/.*exact profile too [0-9.]* s (\([0-9.]*\) M cycles\/s).*/\1/p')
    v=$(echo "$line" | sed -n 's/.*M cycles\/s): speed \([-+][0-9.]*\)%; with the exact.*/\1/p')
    w=$(echo "$line" | sed -n 's/.*speed \([-+][0-9.]*\)%$/\1/p')
    n=$(echo "$line" | sed -n 's/strat bench: \([0-9]*\) cycles;.*/\1/p')
    printf '%-12s %10s %10s %10s %8s%% %8s%%\n' "${prog#workloads/}" "${a:-?}" "${b:-?}" "${c:-?}" "${v:-?}" "${w:-?}"
    [ -n "$a" ] && [ -n "$b" ] && [ -n "$c" ] && [ -n "$n" ] && echo "$n $a $b $c" >>"$TMP/rates"
    [ -n "$v" ] && echo "$v ${prog#workloads/}" | awk '{ printf "%.1f %s\n", -$1, $2 }' >>"$TMP/lost"
    [ -n "$w" ] && echo "$w ${prog#workloads/}" | awk '{ printf "%.1f %s\n", -$1, $2 }' >>"$TMP/lost2"
done <"$TMP/workloads"
mv=$(cut -d' ' -f1 "$TMP/lost" | median)
mw=$(cut -d' ' -f1 "$TMP/lost2" | median)
over=$(awk '$1 > 10 { printf "%s%s (%s%%)", sep, $2, $1; sep = ", " }' "$TMP/lost")
echo "strat $SPEC on the value profile: median speed lost ${mv}% (target: at most 10%); with the exact profile too ${mw}%"
echo "  compressor above the target: ${over:-none}"
awk '{ ta += $1 / $2; tb += $1 / $3; tc += $1 / $4 }
     END { if (ta > 0) printf "  the suite as one run: speed lost %.1f%% (compressor), %.1f%% (and exact profile)\n", 100 * (1 - ta / tb), 100 * (1 - ta / tc) }' "$TMP/rates"
