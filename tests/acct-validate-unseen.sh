#!/bin/sh
# acct-validate-unseen.sh [IVX] — the CPI-stack counters' accuracy on a
# third, held-out set of real-program runs (data/real/cases-unseen): programs
# and inputs that were never used while the ivx counters' rules were chosen
# (docs/validation.md, "The unseen set"). `make validate` runs it
# (tests/mk/unseen.mk); it is not part of `make test`.
#
#   1. inputs   data/real/make-inputs.sh's files at scale 20000 (the large
#               inputs), the scripts of data/real/unseen/ and lines-300.txt
#               (text.txt's first 300 lines), in $REAL/inputs-unseen (made
#               once; made again when a script changes)
#   2. check    each case under qemu-aarch64 and `ivx run --functional`, both
#               in the inputs directory: qemu's exit status must be 0, ivx's
#               standard output and status the same bytes, and the run at
#               least FF + INSNS instructions long (it is measured after FF
#               of fast-forward);
#               a case that fails either is FAIL and is left out of the sweep
#   3. sweep    `ivx cpistack --max-insns INSNS` on each case, cold and warm
#               (`--fastforward FF`), with the paper's reference and with
#               ivx's extended one (`--ref-fu`), as one `ivx sweep`
#   4. tables   `ivx sweep --merge --md`, per reference, warm and cold, to
#               stdout and into docs/validation.md between the "unseen-set
#               table" markers
#
# Like tests/acct-validate.sh it reports accuracy and does not fail on it; it
# fails (status 1) when a case differs from qemu, is too short, or a job
# fails. Without the real programs (`make realprogs`) or qemu-aarch64 it says
# NOT RUN and exits 0.
#
# ACCT_VALIDATE_FF, _INSNS, _JOBS, _DOC, _REAL, _KEEP=DIR as in
# tests/acct-validate.sh (defaults 2M, 1M, the host's processors,
# docs/validation.md, data/real/out); ACCT_UNSEEN_CASES replaces
# data/real/cases-unseen, ACCT_UNSEEN_SCRIPTS data/real/unseen (the inputs
# are then made in $REAL/inputs-NAME, NAME that folder's name),
# ACCT_UNSEEN_SET the set's name in the tables' titles and markers
# ("unseen"), ACCT_UNSEEN_PROGS the folder of the cases' programs
# ($REAL/bin). `make validate` runs the script twice more, for the fourth
# set, data/real/cases-fresh, and the fifth, data/real/cases-fp (C programs
# of data/real/fp/ built with the cross compiler; tests/mk/unseen.mk).
set -u
IVX=${1:-${IVX:-build/ivx}}
IVX=$(cd "$(dirname "$IVX")" && pwd)/$(basename "$IVX") || exit 1
cd "$(dirname "$0")/.." || exit 1      # the paths below are the checkout's
. tests/tools/cases-lib.sh
FF=${ACCT_VALIDATE_FF:-2M}
INSNS=${ACCT_VALIDATE_INSNS:-1M}
JOBS=${ACCT_VALIDATE_JOBS:-$(nproc)}
DOC=${ACCT_VALIDATE_DOC:-docs/validation.md}
REAL=${ACCT_VALIDATE_REAL:-data/real/out}
CASES=${ACCT_UNSEEN_CASES:-data/real/cases-unseen}
SCRIPTS=${ACCT_UNSEEN_SCRIPTS:-data/real/unseen}
SET=${ACCT_UNSEEN_SET:-unseen}
TMP=${ACCT_VALIDATE_KEEP:-$(mktemp -d)}
mkdir -p "$TMP" || exit 1
[ -n "${ACCT_VALIDATE_KEEP:-}" ] || trap 'rm -rf "$TMP"' EXIT
start=$(date +%s)

if [ ! -x "$REAL/bin/busybox" ]; then
    echo "acct-validate-unseen: NOT RUN: the real programs are not built (make realprogs)"
    exit 0
fi
if ! command -v qemu-aarch64 >/dev/null; then
    echo "acct-validate-unseen: NOT RUN: qemu-aarch64 is not installed (make realprogs-deps)"
    exit 0
fi
bin=$(cd "$REAL/bin" && pwd)
progs=$(cd "${ACCT_UNSEEN_PROGS:-$bin}" && pwd) || exit 1

# "1M" -> 1000000: the instruction counts below are compared as numbers
insns_of() {
    case $1 in
        *k) echo $(( ${1%k} * 1000 )) ;;
        *M) echo $(( ${1%M} * 1000000 )) ;;
        *G) echo $(( ${1%G} * 1000000000 )) ;;
        *) echo "$1" ;;
    esac
}
need=$(( $(insns_of "$FF") + $(insns_of "$INSNS") ))

# ---- 1. the inputs -----------------------------------------------------------
in=$REAL/inputs-$(basename "$SCRIPTS")
stamp=$(cat "$SCRIPTS"/* data/real/make-inputs.sh tests/acct-validate-unseen.sh | cksum)
if [ ! -f "$in/.done" ] || [ "$(cat "$in/.done")" != "$stamp" ]; then
    rm -rf "$in"
    if ! BIN=$bin data/real/make-inputs.sh "$in" 20000 >"$TMP/inputs.log" 2>&1 ||
       ! cp "$SCRIPTS"/* "$in/" ||
       ! head -n 300 "$in/text.txt" >"$in/lines-300.txt"; then
        echo "acct-validate-unseen: FAIL: making the inputs: $(tail -1 "$TMP/inputs.log")"
        exit 1
    fi
    echo "$stamp" >"$in/.done"
fi
in=$(cd "$in" && pwd)

# ---- 2. the check against qemu, and the spec ---------------------------------
{
    echo "# written by tests/acct-validate-unseen.sh"
    echo "[sweep]"
    echo "command = cpistack"
    echo "options = --max-insns $INSNS"
    echo
    echo "[axis ref]"
    echo "paper ="
    echo "fu = --ref-fu"
    echo
    echo "[axis start]"
    echo "cold ="
    echo "warm = --fastforward $FF"
    echo
} >"$TMP/unseen.spec"
status=0 n_ok=0 n_bad=0
set -f      # the cases' words are never file patterns (a grep regex has *)
while IFS='|' read -r name prog args stdin; do
    name=$(echo $name)
    case $name in ''|'#'*) continue ;; esac
    prog=$(echo $prog) args=$(words "$args") stdin=$(echo $stdin)
    if [ "$stdin" = - ]; then sin=/dev/null; iopt=; else sin=$in/$stdin; iopt="--stdin $sin"; fi
    # shellcheck disable=SC2086
    (cd "$in" && env -i qemu-aarch64 "$progs/$prog" $args <"$sin") >"$TMP/q.out" 2>"$TMP/q.err"
    q_rc=$?
    # shellcheck disable=SC2086
    (cd "$in" && "$IVX" run --functional --quiet --stats $iopt --dir "$in" "$progs/$prog" -- $args) \
        >"$TMP/f.out" 2>"$TMP/f.err"
    f_rc=$?
    n=$(sed -n 's/^ivx: \([0-9]*\) instructions in .*/\1/p' "$TMP/f.err" | tail -1)
    why=
    if [ "$q_rc" != 0 ]; then
        why="qemu-aarch64 itself exits with status $q_rc: $(head -c 200 "$TMP/q.err")"
    elif [ "$q_rc" != "$f_rc" ] || ! cmp -s "$TMP/q.out" "$TMP/f.out"; then
        e=$(grep '^ivx: ' "$TMP/f.err" | grep -v ' instructions in ' | head -1)
        why="differs from qemu-aarch64 (status $q_rc, ivx $f_rc)${e:+: $e}"
    elif [ -z "$n" ] || [ "$n" -lt "$need" ]; then
        why="too short: ${n:-?} instructions, the warm window needs $need"
    fi
    if [ -n "$why" ]; then
        echo "FAIL      $name: $why"
        status=1 n_bad=$((n_bad + 1))
        continue
    fi
    echo "match     $name ($n instructions)"
    case_stanza "$name" "$progs" "$prog" "$args" "$stdin" "$in" >>"$TMP/unseen.spec"
    n_ok=$((n_ok + 1))
done <"$CASES"
set +f
if [ "$n_ok" = 0 ]; then
    echo "acct-validate-unseen: FAIL: no case to measure"
    exit 1
fi

# ---- 3. the sweep --------------------------------------------------------------
n=$("$IVX" sweep --list "$TMP/unseen.spec" | tail -n +2 | wc -l) || exit 1
echo "acct-validate-unseen: $n jobs, $JOBS at a time" >&2
"$IVX" sweep -j "$JOBS" --results "$TMP/unseen.jsonl" "$TMP/unseen.spec" || status=1
elapsed=$(( $(date +%s) - start ))

# ---- 4. the tables ---------------------------------------------------------------
{
    echo "Generated by \`make validate\` (tests/acct-validate-unseen.sh) with \`ivx sweep\`,"
    echo "$(date -u '+%Y-%m-%d %H:%M UTC'), in ${elapsed} s with $JOBS jobs at a time on $(nproc)"
    echo "cores: \`ivx cpistack --max-insns $INSNS\` on the $n_ok runs of $CASES"
    echo "(each first checked byte for byte against qemu-aarch64$([ "$n_bad" != 0 ] && echo "; $n_bad failed that check and are left out")),"
    echo "cold and warmed (\`--fastforward $FF\`), with the paper's reference and with"
    echo "ivx's extended one (\`--ref-fu\`), default machine. Columns as in the tables above."
    for ref in paper fu; do
        for st in warm cold; do
            echo
            echo "### $(echo "$SET" | sed 's/^./\U&/') real-program runs, $st, reference: $ref"
            echo
            "$IVX" sweep --merge --md --select ref=$ref --select start=$st "$TMP/unseen.jsonl" || status=1
        done
    done
} >"$TMP/table"

cat "$TMP/table"
if [ -f "$DOC" ] && grep -q "<!-- BEGIN $SET-set table" "$DOC"; then
    awk -v t="$TMP/table" -v set="$SET" '
    $0 ~ "<!-- BEGIN " set "-set table" { print; while ((getline l < t) > 0) print l; skip = 1; next }
    $0 ~ "<!-- END " set "-set table" { skip = 0 }
    !skip' "$DOC" >"$TMP/doc" && cp "$TMP/doc" "$DOC"
else
    { echo; echo "## The $SET set"; echo
      echo "<!-- BEGIN $SET-set table (tests/acct-validate-unseen.sh) -->"
      cat "$TMP/table"; echo "<!-- END $SET-set table -->"; } >>"$DOC"
fi
echo "acct-validate-unseen: tables written to $DOC ($elapsed s)"
[ "$status" = 0 ] || echo "acct-validate-unseen: FAIL: a case differs from qemu, is too short, or a job failed (above)" >&2
exit "$status"
