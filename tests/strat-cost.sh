#!/bin/sh
# strat-cost.sh [IVX] — what the stratified-sampling instrument costs in
# host instructions under callgrind: repeatable on a loaded machine, unlike
# time (not in make bench: needs valgrind, and is slow).
#
# For each workload, STRAT_COST_CYCLES cycles on the timing model three
# times: `ivx run` (no instrument), `ivx strat --no-exact` (selector and
# compressor), and `ivx strat` (and the exact profile the error needs);
# the instrument's share of the total is the speed it takes away.
set -u
IVX=${1:-${IVX:-build/ivx}}
CYCLES=${STRAT_COST_CYCLES:-500000}
SPEC=${STRAT_COST_SPEC:-H[P256]2048}
WORKLOADS=${STRAT_COST_WORKLOADS:-"interp:180 qsort:48 strproc:64 matmul:4"}
count() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
        sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
printf '%-10s %14s %14s %14s %9s %9s\n' workload "run (Minsn)" "+compressor" "+exact" "comp" "both"
for w in $WORKLOADS; do
    prog=data/bin/workloads/${w%%:*}
    args=${w#*:}
    a=$(count "$IVX" run --max-cycles "$CYCLES" "$prog" -- $args)
    b=$(count "$IVX" strat --no-exact --top 0 --every 1G --max-cycles "$CYCLES" --spec "$SPEC" "$prog" -- $args)
    c=$(count "$IVX" strat --top 0 --every 1G --max-cycles "$CYCLES" --spec "$SPEC" "$prog" -- $args)
    awk -v w="${w%%:*}" -v a="$a" -v b="$b" -v c="$c" 'BEGIN {
        printf "%-10s %14.1f %14.1f %14.1f %8.1f%% %8.1f%%\n", w, a / 1e6, b / 1e6, c / 1e6,
               100 * (1 - a / b), 100 * (1 - a / c) }'
done
echo "(comp, both: the share of host instructions the instrument adds, i.e. the timing-mode speed it takes away)"
