#!/bin/sh
# bench.sh IVX — simulation speed per workload (`make bench`).
#
# For every workload of data/bin/MANIFEST (default arguments; the -On
# variants and the kernels are left out):
#   timing      `ivx run --stats --max-cycles $BENCH_CYCLES`: simulated
#               cycles per host second and MIPS of the timing model (the
#               host time is that of the simulation loop alone)
#   functional  `ivx run --functional --stats`, median MIPS of 5 runs
# then the medians over the suite. The target for the timing model is a
# median of at least 5 M cycles/s on the reference 2-core machine; a
# loaded machine measures less, so the script reports and does not fail.
set -u
IVX=${1:-build/ivx}
BENCH_CYCLES=${BENCH_CYCLES:-20000000}
. "$(dirname "$0")/tools/bench-lib.sh"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

printf '%-12s %12s %10s %8s %14s\n' workload "Mcycles/s" "MIPS" "IPC" "func MIPS"
: >"$TMP/mcps"
: >"$TMP/fmips"
bench_workloads >"$TMP/workloads"
while read -r prog args; do
    name=${prog#workloads/}
    # shellcheck disable=SC2086
    "$IVX" run --stats --max-cycles "$BENCH_CYCLES" "data/bin/$prog" -- $args >/dev/null 2>"$TMP/t.err"
    line=$(grep "host .* M cycles/s" "$TMP/t.err")
    mcps=$(echo "$line" | sed 's/.*s: \([0-9.]*\) M cycles\/s.*/\1/')
    mips=$(echo "$line" | sed 's/.*cycles\/s, \([0-9.]*\) MIPS.*/\1/')
    ipc=$(sed -n 's/.*IPC \([0-9.]*\).*/\1/p' "$TMP/t.err")
    : >"$TMP/f"
    for _ in 1 2 3 4 5; do
        # shellcheck disable=SC2086
        "$IVX" run --functional --stats "data/bin/$prog" -- $args 2>&1 >/dev/null |
            sed -n 's/.*: \([0-9.]*\) MIPS$/\1/p' >>"$TMP/f"
    done
    fmips=$(median <"$TMP/f")
    printf '%-12s %12s %10s %8s %14s\n' "$name" "${mcps:-?}" "${mips:-?}" "${ipc:-?}" "${fmips:-?}"
    [ -n "$mcps" ] && echo "$mcps" >>"$TMP/mcps"
    [ -n "$fmips" ] && echo "$fmips" >>"$TMP/fmips"
done <"$TMP/workloads"
m=$(median <"$TMP/mcps")
f=$(median <"$TMP/fmips")
printf '%-12s %12s %10s %8s %14s\n' median "$m" "" "" "$f"
if awk -v m="$m" 'BEGIN { exit !(m >= 5) }'; then
    echo "timing model: median $m M cycles/s (target 5)"
else
    echo "timing model: median $m M cycles/s, BELOW the 5 M cycles/s target (is the machine loaded?)"
fi
