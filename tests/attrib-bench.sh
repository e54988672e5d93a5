#!/bin/sh
# attrib-bench.sh [IVX] — what the attribution observer costs in
# timing-mode speed (`make bench`). For every workload of data/bin/MANIFEST
# (default arguments; the -On variants, kernels and selftest left out),
# `ivx attrib --bench` runs the same ATTRIB_BENCH_CYCLES cycles without
# and with the attributor, three times each, alternating, and reports the
# least CPU time of each; the summary gives the median time ratio. It is
# an instrument for validation runs, not an always-on one, so there is no
# target; a loaded machine blurs the numbers, so the script never fails
# on them.
set -u
IVX=${1:-${IVX:-build/ivx}}
CYCLES=${ATTRIB_BENCH_CYCLES:-3000000}
. "$(dirname "$0")/tools/bench-lib.sh"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

printf '%-12s %10s %14s %8s\n' workload "Mcycles/s" "with attrib" "time x"
: >"$TMP/ratios"
bench_workloads >"$TMP/workloads"
while read -r prog args; do
    # shellcheck disable=SC2086
    line=$("$IVX" attrib --bench --max-cycles "$CYCLES" "data/bin/$prog" -- $args 2>&1 >/dev/null | grep 'bench') ||
        { echo "attrib-bench: $prog failed" >&2; exit 1; }
    a=$(echo "$line" | sed -n 's/.*timing model [0-9.]* s (\([0-9.]*\) M cycles\/s).*/\1/p')
    b=$(echo "$line" | sed -n 's/.*with attribution [0-9.]* s (\([0-9.]*\) M cycles\/s).*/\1/p')
    x=$(echo "$line" | sed -n 's/.*time x\([0-9.]*\).*/\1/p')
    printf '%-12s %10s %14s %8s\n' "${prog#workloads/}" "$a" "$b" "$x"
    echo "$x" >>"$TMP/ratios"
done <"$TMP/workloads"
echo "attrib-bench: median time with the attributor x$(median <"$TMP/ratios") ($CYCLES cycles per workload)"
