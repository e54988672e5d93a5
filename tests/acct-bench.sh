#!/bin/sh
# acct-bench.sh [IVX] — what the six CPI accounting units cost (`make bench`).
#
# For every workload of data/bin/MANIFEST (default arguments; the -On
# variants, kernels and selftest left out), `ivx cpistack --bench` runs the
# same ACCT_BENCH_CYCLES cycles on the timing model without observers and
# with the six units (naive, naive non-spec, POWER5, FMT, sFMT, ivx
# counters) attached as one observer, five times each, alternating, and
# reports the least CPU time of each.
# The cost is shown both ways: time added, and speed lost (the share of
# the timing model's cycles per second the units take away). The target,
# "at most 15% of timing-mode speed", is the second; the summary gives the
# median of each, the suite taken as one run, and names the workloads
# above 15% speed lost. A loaded machine blurs the numbers, so the script
# reports and does not fail.
#
# BENCH_TOOL=callgrind tests/acct-bench.sh [IVX]: the same ratios from host
# instruction counts (valgrind --tool=callgrind, one run of each of
# ACCT_BENCH_CG_CYCLES cycles, default 300000, counting only the timed
# runs), which do not move with the machine's load: the way to confirm a
# cost on a shared host. About 20 s a workload.
set -u
IVX=${1:-${IVX:-build/ivx}}
CYCLES=${ACCT_BENCH_CYCLES:-5000000}
. "$(dirname "$0")/tools/bench-lib.sh"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

if [ "$(bench_tool)" = callgrind ]; then
    CYCLES=${ACCT_BENCH_CG_CYCLES:-300000}
    echo "acct-bench: host instructions (callgrind), $CYCLES cycles of each workload"
    printf '%-12s %14s %14s %9s %9s\n' workload "timing model" "with units" "time" "speed"
    bench_callgrind_suite "$TMP/ir" 2 '{
        printf "%-12s %14d %14d %8.1f%% %8.1f%%\n", $3, $1, $2, 100 * ($2 / $1 - 1), 100 * ($1 / $2 - 1) }' \
        "$IVX" cpistack --bench --max-cycles "$CYCLES"
    if [ -s "$TMP/ir" ]; then
        mt=$(awk '{ printf "%.1f\n", 100 * ($2 / $1 - 1) }' "$TMP/ir" | median)
        mv=$(awk '{ printf "%.1f\n", 100 * (1 - $1 / $2) }' "$TMP/ir" | median)
        over=$(awk '100 * (1 - $1 / $2) > 15 { printf "%s%s (%.1f%%)", sep, $3, 100 * (1 - $1 / $2); sep = ", " }' "$TMP/ir")
        echo "accounting units (instructions): median time +${mt}%, median speed lost ${mv}% (target: at most 15% of timing-mode speed)"
        echo "  above 15%: ${over:-none}"
        awk '{ a += $1; b += $2 } END { printf "  the suite as one run: time %+.1f%%, speed lost %.1f%%\n", 100 * (b / a - 1), 100 * (1 - a / b) }' "$TMP/ir"
    fi
    exit 0
fi

printf '%-12s %14s %14s %9s %9s\n' workload "Mcycles/s" "with units" "time" "speed"
: >"$TMP/time"
: >"$TMP/lost"
: >"$TMP/rates"
bench_workloads >"$TMP/workloads"
while read -r prog args; do
    # shellcheck disable=SC2086
    line=$("$IVX" cpistack --bench --max-cycles "$CYCLES" "data/bin/$prog" -- $args 2>&1)
    a=$(echo "$line" | sed -n 's/.*timing model [0-9.]* s (\([0-9.]*\) M cycles\/s).*/\1/p')
    b=$(echo "$line" | sed -n 's/.*six units [0-9.]* s (\([0-9.]*\) M cycles\/s).*/\1/p')
    t=$(echo "$line" | sed -n 's/.*time \([-+][0-9.]*\)%.*/\1/p')
    v=$(echo "$line" | sed -n 's/.*speed \([-+][0-9.]*\)%$/\1/p')
    printf '%-12s %14s %14s %8s%% %8s%%\n' "${prog#workloads/}" "${a:-?}" "${b:-?}" "${t:-?}" "${v:-?}"
    [ -n "$t" ] && echo "$t" >>"$TMP/time"
    n=$(echo "$line" | sed -n 's/.*: \([0-9]*\) cycles;.*/\1/p')
    [ -n "$a" ] && [ -n "$b" ] && [ -n "$n" ] && echo "$n $a $b" >>"$TMP/rates"
    [ -n "$v" ] && echo "$v ${prog#workloads/}" | awk '{ printf "%.1f %s\n", -$1, $2 }' >>"$TMP/lost"
done <"$TMP/workloads"
mt=$(median <"$TMP/time" | awk '{ printf "%+.1f", $1 }')
mv=$(cut -d' ' -f1 "$TMP/lost" | median)
over=$(awk '$1 > 15 { printf "%s%s (%s%%)", sep, $2, $1; sep = ", " }' "$TMP/lost")
echo "accounting units: median time ${mt}%, median speed lost ${mv}% (target: at most 15% of timing-mode speed)"
if awk -v m="$mv" 'BEGIN { exit !(m <= 15) }'; then
    echo "  median under the target; above it: ${over:-none}"
else
    echo "  median ABOVE the target; above it: ${over}"
fi
# the whole suite as one run: each workload's cycles at each speed
awk '{ ta += $1 / $2; tb += $1 / $3 }
     END { if (ta > 0) printf "  the suite as one run: time %+.1f%%, speed lost %.1f%%\n", 100 * (tb / ta - 1), 100 * (1 - ta / tb) }' "$TMP/rates"
