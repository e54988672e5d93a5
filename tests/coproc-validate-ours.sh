#!/bin/sh
# coproc-validate-ours.sh IVX — the target for the nearest of our
# value profilers (`make validate`): value_topk_young.s with `--estimate
# shrink` (docs/coproc.md, "Where it stands") on the six sets of
# real-program runs with more than 1000 distinct loads: data/real/cases
# (the runs the programs were developed on) and the five held-out sets
# cases-unseen-coproc, cases-fresh-coproc, cases-fresh2-coproc,
# cases-fresh3-coproc (picked after value_topk_first.s was chosen) and
# cases-fresh4-coproc (after value_topk_young.s was chosen), small
# inputs, whole runs, seed 1 (tests/coproc-validate.sh's real-program
# table for each), then one line: how many runs are under 5 points, and
# on how many the plain sampler at the co-processor's overhead is worse.
# COPROC_OURS_PROGRAM and COPROC_OURS_OPTS change the program and the
# options. Needs `make realprogs` (REALPROGS_OUT, as coproc-validate.sh);
# about 8 minutes on the 2-core machine. It reports and does not fail.
set -u
IVX=${1:-build/ivx}
PROGRAM=${COPROC_OURS_PROGRAM:-value_topk_young}
OPTS=${COPROC_OURS_OPTS:---estimate shrink}
out=${REALPROGS_OUT:-data/real/out}
[ -f "$out/inputs-small/.done" ] || { echo "coproc-validate-ours: $out/inputs-small not built (make realprogs): nothing to do"; exit 0; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
for set in cases cases-unseen-coproc cases-fresh-coproc cases-fresh2-coproc cases-fresh3-coproc cases-fresh4-coproc; do
    echo
    echo "== data/real/$set"
    COPROC_VALIDATE_CASES=data/real/$set COPROC_VALIDATE_PROGRAM=$PROGRAM COPROC_VALIDATE_OPTS=$OPTS \
        COPROC_VALIDATE_SUITE=0 COPROC_VALIDATE_LARGE=0 tests/coproc-validate.sh "$IVX" | tee "$TMP/$set"
done
# a row: | name | loads | err@1/4 | err | overhead | never | s@1/4 | sampler err (same overhead) | ...
cat "$TMP"/cases* | awk -F'|' '/^\| [a-z]/ && $2 !~ /program/ {
        n++; if ($5 + 0 < 5) under++; if ($9 + 0 > $5 + 0) worse++
        if ($5 + 0 > worst) { worst = $5 + 0; wname = $2 } }
    END { gsub(/ /, "", wname)
          printf "\n%s (%s): under 5 points on %d of %d real-program runs (worst %s, %.2f); the sampler at the same overhead worse on %d\n",
                 prog, opts, under, n, wname, worst, worse }' prog="$PROGRAM" opts="$OPTS"
