#!/bin/sh
# dcpi-validate.sh [IVX] — how DCPI's per-procedure estimate converges to
# the simulator's truth as samples accumulate: each workload is profiled
# with CYCLES periods of 64K (the paper's default), 16K, 4K and 1K (dP =
# P/16), and for each the total variation distance between the sampled
# cycle shares of the procedures and the true shares (cycles each
# procedure's instructions spent at the in-order head) is printed:
# sum over procedures of |estimate - truth| / 2, in percentage points.
# Prints a Markdown table (docs/dcpi.md holds one).
#
# The workloads: every program of the suite (data/bin/MANIFEST with its
# default arguments; the -On variants, kernels and selftest left out, as
# in `make bench`), or those named in DCPI_VALIDATE_WORKLOADS; then the
# real programs of data/real/cases when they are built (`make
# realprogs`; DCPI_VALIDATE_REAL=0 leaves them out; REALPROGS_OUT says
# where they are, default data/real/out), on their small inputs, each run
# cut at DCPI_VALIDATE_REAL_CYCLES cycles (default 20M; the estimate and
# the truth cover the same cycles). DCPI_VALIDATE_CYCLES=N cuts the
# suite's runs at N cycles too (default: whole runs).
IVX=${1:-${IVX:-build/ivx}}
case $IVX in /*) ;; *) IVX=$(pwd)/$IVX ;; esac
cd "$(dirname "$0")/.." || exit 2
. tests/tools/bench-lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
command -v python3 >/dev/null || { echo "dcpi-validate: needs python3"; exit 1; }

# cell DB: "distance (samples)" from the profile database DB
cell() {
    "$IVX" dcpiprof --db "$1" --json "$1.json" >/dev/null || return 1
    python3 - "$1.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
if all(p['procedure'] == '[unknown]' for p in d['procedures']):
    print("nosym")
    sys.exit(0)
tv = sum(abs(p['share'].get('cycles', 0) - p['truth_share'].get('cycles', 0)) for p in d['procedures']) / 2
print("%.2f (%d)" % (100 * tv, d['events']['cycles']['samples']))
PY
}

# row NAME DIR ARGS...: profile `ivx profile ARGS` with each period, from DIR
row() {
    name=$1 dir=$2
    shift 2
    line="| $name |"
    for p in 65536 16384 4096 1024; do
        db=$tmp/$(echo "$name" | tr '/ ' '__').$p
        # (a run cut by --max-cycles ends with status 1: its profile covers
        # the cycles run, which is what is wanted)
        (cd "$dir" && "$IVX" profile --quiet --events cycles --period "$p" --db "$db" "$@") >"$db.log" 2>&1
        c=$(cell "$db" 2>/dev/null) || { echo "dcpi-validate: profile of $name failed: $(tail -1 "$db.log")" >&2; return 1; }
        case $c in nosym*) echo "| $name | (no symbols: every pc is [unknown]) | | | |"; return 0 ;; esac
        line="$line $c |"
    done
    echo "$line"
}

echo "| workload | P=65536 | P=16384 | P=4096 | P=1024 |"
echo "|---|---|---|---|---|"
top=$(pwd)
if [ -n "${DCPI_VALIDATE_WORKLOADS:-}" ]; then
    for w in $DCPI_VALIDATE_WORKLOADS; do echo "workloads/$w"; done
else
    bench_workloads
fi >"$tmp/list"
while read -r prog args; do
    # shellcheck disable=SC2086
    row "${prog#workloads/}" "$top" ${DCPI_VALIDATE_CYCLES:+--max-cycles "$DCPI_VALIDATE_CYCLES"} \
        "$top/data/bin/$prog" -- $args </dev/null || exit 1
done <"$tmp/list"

out=${REALPROGS_OUT:-data/real/out}
if [ "${DCPI_VALIDATE_REAL:-1}" != 0 ] && [ -d "$out/bin" ] && [ -f "$out/inputs-small/.done" ]; then
    bin=$(cd "$out/bin" && pwd)
    in=$(cd "$out/inputs-small" && pwd)
    grep -v '^#' data/real/cases | while IFS='|' read -r name prog args stdin; do
        name=$(echo $name) prog=$(echo $prog) stdin=$(echo $stdin)
        [ -n "$name" ] || continue
        sin=
        [ "$stdin" != - ] && sin="--stdin $in/$stdin"
        set -f
        # shellcheck disable=SC2086
        row "$name" "$in" --max-cycles "${DCPI_VALIDATE_REAL_CYCLES:-20000000}" --dir "$in" $sin "$bin/$prog" -- $args </dev/null ||
            echo "| $name | (profile failed) | | | |"
        set +f
    done
elif [ "${DCPI_VALIDATE_REAL:-1}" != 0 ]; then
    echo
    echo "(real programs not built: make realprogs)"
fi
echo
echo "Each cell: total variation distance in percentage points (samples taken)."
