#!/bin/sh
# acct-cost.sh DRIVER — the six accounting units' cost in host
# instructions (make acct-cost; needs valgrind).
#
# For every workload of data/bin/MANIFEST (default arguments; the -On
# variants, kernels and selftest left out), callgrind counts the host
# instructions core_run executes over ACCT_COST_CYCLES cycles (default
# 1 M) without observers and with the six units as one set
# (tests/tools/acct_cost.c). Unlike CPU time, these counts are the same
# on every run, whatever else the machine does; they are not time (the
# units' code runs at a different rate per instruction than the core's),
# so `make bench` (acct-bench.sh) stays the measure of the target.
set -u
DRV=${1:-build/tests/acct_cost}
CYCLES=${ACCT_COST_CYCLES:-1000000}
command -v valgrind >/dev/null || { echo "acct-cost: needs valgrind (apt-get install valgrind)"; exit 2; }
. "$(dirname "$0")/tools/bench-lib.sh"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

count() {
	valgrind --tool=callgrind --callgrind-out-file="$TMP/cg" --toggle-collect=core_run \
		"$DRV" "$@" >/dev/null 2>"$TMP/log" || { cat "$TMP/log" >&2; echo 0; return; }
	sed -n 's/^summary: *\([0-9]*\).*/\1/p' "$TMP/cg"
}

printf '%-12s %16s %16s %9s\n' workload "insns, no units" "with units" cost
: >"$TMP/cost"
bench_workloads >"$TMP/workloads"
while read -r prog args; do
    # shellcheck disable=SC2086
    a=$(count 0 "$CYCLES" "data/bin/$prog" $args)
    # shellcheck disable=SC2086
    b=$(count 1 "$CYCLES" "data/bin/$prog" $args)
    c=$(awk -v a="$a" -v b="$b" 'BEGIN { if (a > 0) printf "%+.1f", 100 * (b / a - 1) }')
    printf '%-12s %16s %16s %8s%%\n' "${prog#workloads/}" "$a" "$b" "$c"
    [ -n "$c" ] && echo "$c" >>"$TMP/cost"
done <"$TMP/workloads"
med=$(median <"$TMP/cost")
echo "accounting units: median cost ${med}% of timing-mode host instructions over $CYCLES cycles"
