#!/bin/sh
# acct-bench.sh [IVX] — what the five CPI accounting units cost (`make bench`).
#
# For every workload of data/bin/MANIFEST (default arguments; the -On
# variants, kernels and selftest left out), `ivx cpistack --bench` runs the
# same ACCT_BENCH_CYCLES cycles on the timing model without observers and
# with the five units (naive, naive non-spec, POWER5, FMT, sFMT) attached
# as one observer, five times each, alternating, and reports the least CPU
# time of each.
# The target is at most 15% slower; a loaded machine blurs the numbers, so
# the script reports and does not fail.
set -u
IVX=${1:-${IVX:-build/ivx}}
CYCLES=${ACCT_BENCH_CYCLES:-5000000}
. "$(dirname "$0")/tools/bench-lib.sh"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

printf '%-12s %14s %14s %9s\n' workload "Mcycles/s" "with units" "cost"
: >"$TMP/cost"
bench_workloads >"$TMP/workloads"
while read -r prog args; do
    # shellcheck disable=SC2086
    line=$("$IVX" cpistack --bench --max-cycles "$CYCLES" "data/bin/$prog" -- $args 2>&1)
    a=$(echo "$line" | sed -n 's/.*timing model [0-9.]* s (\([0-9.]*\) M cycles\/s).*/\1/p')
    b=$(echo "$line" | sed -n 's/.*five units [0-9.]* s (\([0-9.]*\) M cycles\/s).*/\1/p')
    c=$(echo "$line" | sed -n 's/.*: \([-+][0-9.]*\)%$/\1/p')
    printf '%-12s %14s %14s %8s%%\n' "${prog#workloads/}" "${a:-?}" "${b:-?}" "${c:-?}"
    [ -n "$c" ] && echo "$c" >>"$TMP/cost"
done <"$TMP/workloads"
med=$(median <"$TMP/cost")
if awk -v m="$med" 'BEGIN { exit !(m <= 15) }'; then
    echo "accounting units: median cost ${med}% of timing-mode time (target: at most 15%)"
else
    echo "accounting units: median cost ${med}% of timing-mode time, ABOVE the 15% target"
fi
