#!/bin/sh
# strat-bench.sh [IVX] — what a stream compressor costs in timing-mode
# speed (`make bench`).
#
# For every workload of data/bin/MANIFEST (default arguments; the -On
# variants, kernels and selftest left out), `ivx strat --bench` runs the
# same STRAT_BENCH_CYCLES cycles on the timing model without observers and
# with the instrument (selector, the compressor STRAT_BENCH_SPEC on the
# value profile, and the exact profile the error is measured against),
# five times each, alternating, and reports the least CPU time of each.
# Target: at most 10% of timing-mode speed lost. A loaded machine blurs
# the numbers, so the script reports and does not fail.
set -u
IVX=${1:-${IVX:-build/ivx}}
CYCLES=${STRAT_BENCH_CYCLES:-3000000}
SPEC=${STRAT_BENCH_SPEC:-H[P256]2048}
. "$(dirname "$0")/tools/bench-lib.sh"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

printf '%-12s %14s %14s %9s %9s\n' workload "Mcycles/s" "with $SPEC" "time" "speed"
: >"$TMP/lost"
: >"$TMP/rates"
bench_workloads >"$TMP/workloads"
while read -r prog args; do
    # shellcheck disable=SC2086
    line=$("$IVX" strat --bench --max-cycles "$CYCLES" --spec "$SPEC" "data/bin/$prog" -- $args 2>&1)
    a=$(echo "$line" | sed -n 's/.*timing model [0-9.]* s (\([0-9.]*\) M cycles\/s).*/\1/p')
    b=$(echo "$line" | sed -n 's/.*with .* [0-9.]* s (\([0-9.]*\) M cycles\/s).*/\1/p')
    t=$(echo "$line" | sed -n 's/.*time \([-+][0-9.]*\)%.*/\1/p')
    v=$(echo "$line" | sed -n 's/.*speed \([-+][0-9.]*\)%$/\1/p')
    n=$(echo "$line" | sed -n 's/strat bench: \([0-9]*\) cycles;.*/\1/p')
    printf '%-12s %14s %14s %8s%% %8s%%\n' "${prog#workloads/}" "${a:-?}" "${b:-?}" "${t:-?}" "${v:-?}"
    [ -n "$a" ] && [ -n "$b" ] && [ -n "$n" ] && echo "$n $a $b" >>"$TMP/rates"
    [ -n "$v" ] && echo "$v ${prog#workloads/}" | awk '{ printf "%.1f %s\n", -$1, $2 }' >>"$TMP/lost"
done <"$TMP/workloads"
mv=$(cut -d' ' -f1 "$TMP/lost" | median)
over=$(awk '$1 > 10 { printf "%s%s (%s%%)", sep, $2, $1; sep = ", " }' "$TMP/lost")
echo "strat ($SPEC, value profile + exact profile): median speed lost ${mv}% (target: at most 10%)"
echo "  above the target: ${over:-none}"
awk '{ ta += $1 / $2; tb += $1 / $3 }
     END { if (ta > 0) printf "  the suite as one run: speed lost %.1f%%\n", 100 * (1 - ta / tb) }' "$TMP/rates"
