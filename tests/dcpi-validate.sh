#!/bin/sh
# dcpi-validate.sh [IVX] — how DCPI's per-procedure estimate converges to
# the simulator's truth as samples accumulate: each workload is profiled
# with CYCLES periods of 64K (the paper's default), 16K, 4K and 1K (dP =
# P/16), and for each the total variation distance between the sampled
# cycle shares of the procedures and the true shares (cycles each
# procedure's instructions spent at the in-order head) is printed:
# sum over procedures of |estimate - truth| / 2, in percentage points.
# Prints a Markdown table (docs/dcpi.md holds one).
IVX=${1:-${IVX:-build/ivx}}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
command -v python3 >/dev/null || { echo "dcpi-validate: needs python3"; exit 1; }
echo "| workload | P=65536 | P=16384 | P=4096 | P=1024 |"
echo "|---|---|---|---|---|"
for w in ${DCPI_VALIDATE_WORKLOADS:-qsort hashtab interp strproc}; do
    line="| $w |"
    for p in 65536 16384 4096 1024; do
        db=$tmp/$w.$p
        "$IVX" profile --quiet --events cycles --period "$p" --db "$db" "data/bin/workloads/$w" >/dev/null 2>&1 ||
            { echo "dcpi-validate: profile of $w failed" >&2; exit 1; }
        "$IVX" dcpiprof --db "$db" --json "$db.json" >/dev/null || exit 1
        cell=$(python3 - "$db.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
tv = sum(abs(p['share'].get('cycles', 0) - p['truth_share'].get('cycles', 0)) for p in d['procedures']) / 2
print("%.2f (%d)" % (100 * tv, d['events']['cycles']['samples']))
PY
)
        line="$line $cell |"
    done
    echo "$line"
done
echo
echo "Each cell: total variation distance in percentage points (samples taken)."
