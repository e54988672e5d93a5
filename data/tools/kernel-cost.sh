#!/bin/sh
# kernel-cost.sh [IVX] [IVX-RUN-OPTIONS...] — measure what each teaching
# micro-kernel's event costs on the timing model, by the slope method.
#
# For every kernel mode other than nomiss, runs MODE and nomiss at two
# repetition counts (R1, R2) and reports
#     (cycles(MODE, R2) - cycles(nomiss, R2) - (same at R1)) / (R2 - R1)
# the extra cycles per repetition the mode's events cost, with start-up,
# warm-up and first-time predictor effects cancelled out. Divide by the
# events per repetition the kernel prints (dmiss=/imiss=/bmiss= over reps).
# Extra arguments go to `ivx run` (e.g. -o memory.latency=100).
ivx=${1:-build/ivx}
[ $# -gt 0 ] && shift
R1=${R1:-50}
R2=${R2:-150}
cd "$(dirname "$0")/../.." || exit 1
[ -x "$ivx" ] || { echo "kernel-cost: $ivx not found" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

opts="$*"   # word-split below on purpose: a list of options

cycles() {  # cycles KERNEL MODE REPS: prints the cycle count, or fails
    "$ivx" run $opts --json "$tmp/j" "data/bin/kernels/$1" -- "$2" "$3" \
        > "$tmp/out" 2> "$tmp/err" || return 1
    sed 's/.*"cycles":\([0-9]*\).*/\1/' "$tmp/j"
}
fail() { echo "kernel-cost: ivx run failed: $(head -n 1 "$tmp/err")" >&2; exit 1; }

printf '%-22s %-7s %12s %12s %14s\n' kernel mode "cyc/rep@R1" "cyc/rep@R2" "extra cyc/rep"
for src in data/kernels/k*.S; do
    k=$(basename "$src" .S)
    modes=$(sed -n 's/^#define KERNEL_MODES "\(.*\)"/\1/p' "$src")
    n1=$(cycles "$k" nomiss "$R1") || fail
    n2=$(cycles "$k" nomiss "$R2") || fail
    for m in $modes; do
        [ "$m" = nomiss ] && continue
        m1=$(cycles "$k" "$m" "$R1") || fail
        m2=$(cycles "$k" "$m" "$R2") || fail
        events=$(sed 's/.*reps=[0-9]*//' "$tmp/out")
        awk -v k="$k" -v m="$m" -v a1="$m1" -v a2="$m2" -v b1="$n1" -v b2="$n2" \
            -v r1="$R1" -v r2="$R2" -v ev="$events" 'BEGIN {
            printf "%-22s %-7s %12.1f %12.1f %14.1f  (%s at %d reps)\n", k, m,
                (a1 - b1) / r1, (a2 - b2) / r2, ((a2 - b2) - (a1 - b1)) / (r2 - r1), ev, r2 }'
    done
done
