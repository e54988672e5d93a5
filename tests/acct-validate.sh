#!/bin/sh
# acct-validate.sh [IVX] — accuracy of the CPI-stack counter architectures
# against the simulation-based reference stacks over the whole suite
# (`make validate`), run as three `ivx sweep`s (docs/sweep.md) and tabulated
# by `ivx sweep --merge --md` into docs/validation.md.
#
#   suite    every workload of data/bin/MANIFEST (default arguments) and,
#            when they are built (make realprogs), the real programs of
#            data/real/cases on their large inputs; ACCT_VALIDATE_INSNS
#            instructions each, x reference (the paper's; --ref-fu) x start
#            (cold: from the program's first instruction; warm: after
#            ACCT_VALIDATE_FF instructions of --fastforward, which warms
#            caches, TLBs and predictor)
#   kernels  every micro-kernel run whole (they are short, and start cold by
#            design), x reference
#   machines the suite again on two other cores, x start, the paper's
#            reference only: data/configs/small.ini (4/2/4/2 wide, a
#            64-entry ROB) and data/configs/big.ini (16/8/8/8 wide, a
#            256-entry ROB), caches and latencies as Table 2
#            (ACCT_VALIDATE_MACHINES=0 leaves them out)
#
# Each table has one column per accounting method in the results' JSON
# (`ivx cpistack --json`, "methods"), so a new method shows up by itself.
# The tables go to stdout and into docs/validation.md between the
# "generated" markers; the rest of that file (the analysis) is kept. The
# script reports and does not fail on accuracy: docs/validation.md says why
# a program misses. It fails when a job fails.
#
# ACCT_VALIDATE_JOBS: jobs at once (default: the host's processors);
# ACCT_VALIDATE_KEEP=DIR keeps the specs and result lines there.
set -u
IVX=${1:-${IVX:-build/ivx}}
. "$(dirname "$0")/tools/cases-lib.sh"
FF=${ACCT_VALIDATE_FF:-2M}
INSNS=${ACCT_VALIDATE_INSNS:-1M}
JOBS=${ACCT_VALIDATE_JOBS:-$(nproc)}
MACHINES=${ACCT_VALIDATE_MACHINES:-1}
DOC=${ACCT_VALIDATE_DOC:-docs/validation.md}
REAL=${ACCT_VALIDATE_REAL:-data/real/out}
TMP=${ACCT_VALIDATE_KEEP:-$(mktemp -d)}
mkdir -p "$TMP" || exit 1
[ -n "${ACCT_VALIDATE_KEEP:-}" ] || trap 'rm -rf "$TMP"' EXIT
start=$(date +%s)

# ---- the specs -------------------------------------------------------------
refs='[axis ref]
paper =
fu = --ref-fu
'
{
    echo "# written by tests/acct-validate.sh"
    echo "[sweep]"
    echo "command = cpistack"
    echo "options = --max-insns $INSNS"
    echo
    echo "$refs"
    echo "[axis start]"
    echo "cold ="
    echo "warm = --fastforward $FF"
} >"$TMP/suite.spec"
{
    echo "# written by tests/acct-validate.sh"
    echo "[sweep]"
    echo "command = cpistack"
    echo
    echo "$refs"
} >"$TMP/kernels.spec"

while IFS='|' read -r prog args _ _; do
    case "$prog" in \#*|"") continue ;; esac
    prog=$(echo $prog)
    args=$(words "$args")
    case "$prog" in
        selftest/*) continue ;;
        kernels/*) spec=kernels.spec; label="${prog#kernels/} ${args%% *}" ;;
        *) spec=suite.spec; label=${prog#workloads/} ;;
    esac
    printf '[program %s]\npath = data/bin/%s\nargs = %s\n\n' "$label" "$prog" "$args" >>"$TMP/$spec"
done <data/bin/MANIFEST

# The real programs, when built: on their large inputs (made as
# tests/realprogs.sh makes them), run in the inputs directory, which is the
# one directory they may open files in.
real_note="the real programs are not built (\`make realprogs\`), so they are left out"
if [ -x "$REAL/bin/bzip2" ]; then
    in=$REAL/inputs-large
    if [ ! -f "$in/.done" ]; then
        rm -rf "$in"
        if BIN=$(cd "$REAL/bin" && pwd) data/real/make-inputs.sh "$in" 20000 >"$TMP/inputs.log" 2>&1; then
            touch "$in/.done"
        else
            echo "acct-validate: making the real programs' inputs failed: $(tail -1 "$TMP/inputs.log")" >&2
        fi
    fi
    if [ -f "$in/.done" ]; then
        in=$(cd "$in" && pwd)
        bin=$(cd "$REAL/bin" && pwd)
        n_real=0
        while IFS='|' read -r name prog args stdin; do
            name=$(echo $name)
            case $name in ''|'#'*) continue ;; esac
            prog=$(echo $prog) stdin=$(echo $stdin)
            # (args split on blanks, as tests/realprogs.sh does)
            case_stanza "$name" "$bin" "$prog" "$args" "$stdin" "$in" >>"$TMP/suite.spec"
            n_real=$((n_real + 1))
        done <data/real/cases
        real_note="with the $n_real real programs of data/real/cases (\`make realprogs\`) on their large inputs"
    fi
fi

# The same programs on the two other cores (their programs are the suite's)
sets="suite kernels"
if [ "$MACHINES" != 0 ]; then
    sets="$sets machines"
    {
        echo "# written by tests/acct-validate.sh"
        echo "[sweep]"
        echo "command = cpistack"
        echo "options = --max-insns $INSNS"
        echo
        for m in small big; do
            printf '[config %s]\nfile = data/configs/%s.ini\n\n' "$m" "$m"
        done
        echo "[axis start]"
        echo "cold ="
        echo "warm = --fastforward $FF"
        echo
        sed -n '/^\[program /,$p' "$TMP/suite.spec"
    } >"$TMP/machines.spec"
fi

# ---- the sweeps --------------------------------------------------------------
status=0
for s in $sets; do
    n=$("$IVX" sweep --list "$TMP/$s.spec" | tail -n +2 | wc -l) || exit 1
    echo "acct-validate: $s: $n jobs, $JOBS at a time" >&2
    "$IVX" sweep -j "$JOBS" --results "$TMP/$s.jsonl" "$TMP/$s.spec" || status=1
done
elapsed=$(( $(date +%s) - start ))

# ---- the tables ----------------------------------------------------------------
table() {   # FILE SELECT...: one Markdown table
    f=$1; shift
    "$IVX" sweep --merge --md "$@" "$TMP/$f.jsonl" || status=1
}
{
    echo "Generated by \`make validate\` (tests/acct-validate.sh) with \`ivx sweep\`"
    echo "(docs/sweep.md), $(date -u '+%Y-%m-%d %H:%M UTC'), in ${elapsed} s with $JOBS jobs at a"
    echo "time on $(nproc) cores: \`ivx cpistack --max-insns $INSNS\` on every workload of"
    echo "data/bin/MANIFEST (its default arguments), $real_note, cold and warmed"
    echo "(\`--fastforward $FF\`); every micro-kernel whole; default machine"
    echo "(data/configs/default.ini = the paper's Table 2). The specs the script writes"
    echo "are kept with \`ACCT_VALIDATE_KEEP=DIR\`."
    echo
    echo "Each method's column is its maximum component error: the largest"
    echo "|component - reference component| / reference CPI over base and the 8"
    echo "components. *paper* is the paper's reference (long-latency units real in its"
    echo "base machine, so each counter stack's long-latency component is compared"
    echo "inside its base); *fu* is ivx's extended one (\`--ref-fu\`: a perfect"
    echo "long-latency step first, its own \"fu\" component)."
    if [ "$MACHINES" != 0 ]; then
        echo "*Other machines*: the same programs and starts on a smaller core"
        echo "(*small*, data/configs/small.ini: 4/2/4/2 fetch/dispatch/issue/commit wide,"
        echo "64-entry ROB, 32-entry LSQ, 64-entry issue queue) and a larger one (*big*,"
        echo "data/configs/big.ini: 16/8/8/8 wide, 256-entry ROB, 128-entry LSQ, 256-entry"
        echo "issue queue), caches and latencies as Table 2, the paper's reference."
    fi
    for ref in paper fu; do
        for st in warm cold; do
            echo
            echo "## Workloads$([ -x "$REAL/bin/bzip2" ] && echo " and real programs"), $st, reference: $ref"
            echo
            table suite --select ref=$ref --select start=$st
        done
        echo
        echo "## Micro-kernels (whole runs), reference: $ref"
        echo
        table kernels --select ref=$ref
    done
    if [ "$MACHINES" != 0 ]; then
        for m in small big; do
            for st in warm cold; do
                echo
                echo "## Other machines: the $m core, $st, reference: paper"
                echo
                table machines --select config=$m --select start=$st
            done
        done
    fi
} >"$TMP/table"

cat "$TMP/table"
if [ -f "$DOC" ] && grep -q '<!-- BEGIN generated' "$DOC"; then
    awk -v t="$TMP/table" '
    /<!-- BEGIN generated/ { print; while ((getline l < t) > 0) print l; skip = 1; next }
    /<!-- END generated/ { skip = 0 }
    !skip' "$DOC" >"$TMP/doc" && cp "$TMP/doc" "$DOC"
else
    { echo "# CPI-stack validation"; echo; echo "<!-- BEGIN generated by tests/acct-validate.sh -->"
      cat "$TMP/table"; echo "<!-- END generated -->"; } >"$DOC"
fi
echo "acct-validate: tables written to $DOC ($elapsed s)"
[ "$status" = 0 ] || echo "acct-validate: FAIL: some jobs failed (see the tables' status column)" >&2
exit "$status"
