#!/bin/sh
# core-run.sh IVX — end-to-end checks of `ivx run` on the timing model:
#   - every program of data/bin/MANIFEST (test arguments) prints exactly what
#     the functional emulator prints and exits with the expected status, on
#     the default machine and on data/configs/inorder.ini
#   - the same with wrong-path memory accesses off and with every component
#     perfect
#   - --json has the documented keys and agrees with the summary; two runs
#     give the same numbers (determinism)
#   - --kanata writes a well-formed Kanata 0004 trace
#   - --max-cycles, --fastforward and a refused configuration behave
#   - the smallest sim.deadlock_cycles accepted stops no healthy run
#   - the progress line on a terminal (script(1)), none without one:
#     run, refstack, profile, coproc and strat, their results unchanged
set -u
IVX=${1:-build/ivx}
BIN=data/bin
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail=0 n=0

bad() { echo "FAIL: $*" >&2; fail=$((fail + 1)); }
# without the programs nothing is tested: that is a failure, not a pass
[ -r "$BIN/MANIFEST" ] || { echo "core-run: $BIN/MANIFEST missing (make data): 0 passed, 1 failed"; exit 1; }

# run_cmp LABEL PROG EXPECTED_EXIT OPTIONS... -- ARGS...
compare() {
    label=$1 prog=$2 want=$3; shift 3
    opts=""
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do opts="$opts $1"; shift; done
    [ $# -gt 0 ] && shift
    n=$((n + 1))
    "$IVX" run --functional "$BIN/$prog" -- "$@" >"$TMP/f.out" 2>/dev/null
    frc=$?
    # shellcheck disable=SC2086
    "$IVX" run $opts "$BIN/$prog" -- "$@" >"$TMP/t.out" 2>"$TMP/t.err"
    trc=$?
    if [ "$trc" != "$want" ] || [ "$frc" != "$want" ]; then
        bad "$label $prog $*: exit $trc (functional $frc), expected $want"; sed 's/^/    /' "$TMP/t.err" >&2
    elif ! cmp -s "$TMP/f.out" "$TMP/t.out"; then
        bad "$label $prog $*: output differs from functional mode"
    elif ! grep -q "cycles, .* instructions, IPC" "$TMP/t.err"; then
        bad "$label $prog $*: no summary on stderr"
    fi
}

# The smallest sim.deadlock_cycles a machine accepts is above the longest
# gap between commits a healthy run can have: every program runs with it.
# gap [OPTIONS]: the bound config_validate states when refusing 1
gap() {
    "$IVX" run "$@" -o sim.deadlock_cycles=1 "$BIN/kernels/k2_branch_miss" 2>&1 |
        sed -n 's/.*without committing (\([0-9]*\) cycles.*/\1/p'
}
gap_default=$(gap)
gap_inorder=$(gap --config data/configs/inorder.ini)
n=$((n + 1))
[ -n "$gap_default" ] && [ -n "$gap_inorder" ] || bad "sim.deadlock_cycles=1 was not refused with the bound"
"$IVX" run -o sim.deadlock_cycles=343 "$BIN/kernels/k3_long_dmiss" -- miss 2 >/dev/null 2>"$TMP/d.err"
[ $? = 2 ] && [ "$(wc -l <"$TMP/d.err")" = 1 ] && grep -q "sim.deadlock_cycles=343 is not above" "$TMP/d.err" ||
    bad "sim.deadlock_cycles=343 was accepted (a healthy k3_long_dmiss needs more)"

while IFS='|' read -r prog _ targs want; do
    case "$prog" in \#*|"") continue ;; esac
    prog=$(echo $prog); want=$(echo $want)
    # shellcheck disable=SC2086
    compare default "$prog" "$want" -o sim.deadlock_cycles=$((gap_default + 1)) -- $targs
    # shellcheck disable=SC2086
    compare inorder "$prog" "$want" --config data/configs/inorder.ini \
        -o sim.deadlock_cycles=$((gap_inorder + 1)) -- $targs
done <"$BIN/MANIFEST"

for p in workloads/branchy workloads/qsort workloads/interp; do
    compare no-wrong-path-memory $p 0 -o wrongpath.memory=0 -- 1
    compare all-perfect $p 0 -o perfect.bpred=1 -o perfect.l1i=1 -o perfect.l2i=1 -o perfect.itlb=1 \
        -o perfect.l1d=1 -o perfect.l2d=1 -o perfect.dtlb=1 -- 1
done

# --json: keys, agreement with the summary, determinism
n=$((n + 1))
"$IVX" run --json "$TMP/a.json" "$BIN/workloads/branchy" -- 1 >/dev/null 2>"$TMP/a.err"
"$IVX" run --json "$TMP/b.json" "$BIN/workloads/branchy" -- 1 >/dev/null 2>/dev/null
for k in cycles instructions ipc events l1i l2i itlb l1d l2d dtlb mispredict fu_stall rob_full rob_empty; do
    grep -q "\"$k\":" "$TMP/a.json" || bad "json: no key $k"
done
cycles=$(sed 's/.*"cycles":\([0-9]*\).*/\1/' "$TMP/a.json")
grep -q "ivx: $cycles cycles" "$TMP/a.err" || bad "json cycles $cycles disagree with the summary"
mis=$(sed 's/.*"mispredict":{"correct":\([0-9]*\).*/\1/' "$TMP/a.json")
[ "${mis:-0}" -gt 0 ] 2>/dev/null || bad "json: branchy has no mispredictions ($mis)"
cmp -s "$TMP/a.json" "$TMP/b.json" || bad "two runs of branchy differ"
grep -q "^{\"program\":\"$BIN/workloads/branchy\"," "$TMP/a.json" || bad "json: program is not the guest's path"

# --kanata: header, every instruction introduced once and retired or flushed once
n=$((n + 1))
"$IVX" run --kanata "$TMP/k.log" --window 1000:3000 "$BIN/workloads/branchy" -- 1 >/dev/null 2>&1 ||
    bad "kanata run failed"
head -1 "$TMP/k.log" | grep -q "^Kanata	0004$" || bad "kanata: bad header"
c0=$(sed -n 's/^C=	//p' "$TMP/k.log")
[ "${c0:-0}" -ge 1000 ] && [ "$c0" -lt 3000 ] || bad "kanata: starts at cycle $c0, not in the window"
awk -F'\t' '
    $1 == "I" { if ($2 in seen) { print "duplicate I " $2; bad = 1 } seen[$2] = 1; ni++ }
    $1 == "R" { if (!($2 in seen) || ($2 in done)) { print "bad R " $2; bad = 1 } done[$2] = 1; nr++
                if ($4 == 1) flushed++ }
    $1 == "W" { if (!($2 in seen) || !($3 in seen)) { print "W of unknown id"; bad = 1 } nw++ }
    $1 == "S" || $1 == "E" || $1 == "L" { if (!($2 in seen)) { print "command for unknown id " $2; bad = 1 } }
    END { if (ni == 0 || ni != nr || flushed == 0 || nw == 0) { print "I " ni " R " nr " flushed " flushed " W " nw; bad = 1 }
          exit bad }' "$TMP/k.log" >"$TMP/k.chk" || { bad "kanata trace malformed"; sed 's/^/    /' "$TMP/k.chk" >&2; }

# limits, fast-forward, refused configuration
n=$((n + 1))
"$IVX" run --max-cycles 5000 "$BIN/workloads/qsort" -- 1 >/dev/null 2>"$TMP/m.err"
[ $? = 0 ] && grep -q "(--max-cycles limit reached)" "$TMP/m.err" && grep -q "ivx: 5000 cycles" "$TMP/m.err" ||
    bad "--max-cycles 5000 did not stop at 5000 cycles"
# every subcommand that runs a program ends normally (status 0) at a limit
# the user set, and says so
for sub in "cpistack --no-ref" "profile --db $TMP/limit.db" "coproc --program value" \
           "strat --profile value --spec R256" "attrib"; do
    n=$((n + 1))
    "$IVX" $sub --max-cycles 5000 "$BIN/workloads/qsort" -- 1 >/dev/null 2>"$TMP/l.err"
    rc=$?
    [ $rc = 0 ] || bad "ivx $sub --max-cycles 5000: status $rc, not 0 ($(tail -1 "$TMP/l.err"))"
done
"$IVX" run "$BIN/workloads/qsort" -- 1 >"$TMP/q1.out" 2>"$TMP/q1.err"
"$IVX" run --fastforward 200000 "$BIN/workloads/qsort" -- 1 >"$TMP/q2.out" 2>"$TMP/q2.err" ||
    bad "--fastforward run failed"
cmp -s "$TMP/q1.out" "$TMP/q2.out" || bad "--fastforward changed the output"
i1=$(sed -n 's/ivx: [0-9]* cycles, \([0-9]*\) instructions.*/\1/p' "$TMP/q1.err")
i2=$(sed -n 's/ivx: [0-9]* cycles, \([0-9]*\) instructions.*/\1/p' "$TMP/q2.err")
[ "$((i1 - i2))" = 200000 ] || bad "--fastforward 200000: timed $i2 of $i1 instructions"
"$IVX" run -o core.rob_size=2 "$BIN/workloads/qsort" -- 1 >/dev/null 2>"$TMP/c.err"
[ $? = 2 ] && grep -q "rob_size" "$TMP/c.err" || bad "an impossible configuration was not refused"

# The progress line: on a terminal's stderr only (script(1) gives the run a
# pseudo-terminal), rewritten in place, gone with --quiet or without a
# terminal; the results are the same either way.
if command -v script >/dev/null; then
    n=$((n + 1))
    # (long enough that a fast idle machine still redraws, 0.5 s in)
    long="--max-insns 40M $BIN/workloads/crc -- 480"
    script -qec "$IVX run --json $TMP/tty.json $long >/dev/null" "$TMP/tty.log" >/dev/null
    "$IVX" run --json "$TMP/plain.json" $long >/dev/null 2>"$TMP/plain.err"
    cr=$(printf '\r')
    esc=$(printf '\033')
    grep -q "${cr}ivx: [0-9.]* [kM]* *instructions, [0-9.]* [kM]* *cycles/s, ETA [0-9]*:[0-9][0-9]${esc}\[K" "$TMP/tty.log" ||
        bad "no progress line on a terminal: $(head -c 300 "$TMP/tty.log")"
    grep -q "${cr}${esc}\[Kivx: [0-9]* cycles, " "$TMP/tty.log" || bad "the progress line was not erased before the summary"
    grep -q "$cr\|$esc" "$TMP/plain.err" && bad "progress written to a stderr that is no terminal"
    cmp -s "$TMP/tty.json" "$TMP/plain.json" || bad "a run with the progress line has other results"
    script -qec "$IVX run --quiet $long >/dev/null" "$TMP/quiet.log" >/dev/null
    grep -q "instructions, .*cycles/s" "$TMP/quiet.log" && bad "--quiet still showed progress"
    # (long enough for the first redraw, 0.5 s in, on a fast idle machine:
    # a run that ends before it shows no line at all; the run above checks
    # the ETA and the rewriting)
    script -qec "$IVX refstack --max-insns 8M $BIN/workloads/crc -- 480 >/dev/null" "$TMP/ref.log" >/dev/null
    grep -q "ivx: [0-9]*/[0-9]* simulations, .* instructions, .* cycles/s" "$TMP/ref.log" ||
        bad "no progress line for refstack: $(head -c 300 "$TMP/ref.log")"
    # profile, coproc and strat too (they had none), with the same stdout
    # and files as without a terminal, and none with -q
    # a command's arguments, its output file named NAME (built, not
    # substituted: a sed over the arguments would also rewrite $TMP, whose
    # random name may hold the placeholder)
    args_of() {
        case $1 in
        profile) echo "profile --db $TMP/$2" ;;
        coproc) echo "coproc --program value" ;;
        strat) echo "strat --spec H[P256]2048 --svg $TMP/$2.svg" ;;
        esac
    }
    for cmd in profile coproc strat; do
        n=$((n + 1))
        long="--max-insns 8M $BIN/workloads/crc -- 480"
        tty_args=$(args_of "$cmd" "$cmd-tty")
        plain_args=$(args_of "$cmd" "$cmd-plain")
        script -qec "$IVX $tty_args $long >$TMP/$cmd-tty.out" "$TMP/$cmd-tty.log" >/dev/null
        "$IVX" $plain_args $long >"$TMP/$cmd-plain.out" 2>"$TMP/$cmd-plain.err"
        grep -q "${cr}ivx: [0-9.]* [kM]* *instructions, [0-9.]* [kM]* *cycles/s, ETA [0-9]*:[0-9][0-9]${esc}\[K" \
            "$TMP/$cmd-tty.log" || bad "no progress line for $cmd: $(head -c 300 "$TMP/$cmd-tty.log")"
        grep -q "$cr\|$esc" "$TMP/$cmd-plain.err" && bad "$cmd: progress written to a stderr that is no terminal"
        cmp -s "$TMP/$cmd-tty.out" "$TMP/$cmd-plain.out" || bad "$cmd: a run with the progress line printed other results"
        case $cmd in
        profile)
            "$IVX" dcpiprof --db "$TMP/profile-tty" >"$TMP/p1" 2>&1
            "$IVX" dcpiprof --db "$TMP/profile-plain" >"$TMP/p2" 2>&1
            cmp -s "$TMP/p1" "$TMP/p2" || bad "profile: a run with the progress line stored another profile" ;;
        strat)
            cmp -s "$TMP/strat-tty.svg" "$TMP/strat-plain.svg" || bad "strat: a run with the progress line drew another plot" ;;
        esac
        quiet_args=$(args_of "$cmd" "$cmd-quiet")
        script -qec "$IVX $quiet_args -q $long >/dev/null" "$TMP/$cmd-quiet.log" >/dev/null
        grep -q "instructions, .*cycles/s" "$TMP/$cmd-quiet.log" && bad "$cmd -q still showed progress"
    done
else
    bad "script(1) is needed for the progress-line checks (bsdutils)"
fi

echo "core-run: $n checks, $fail failed"
[ "$fail" = 0 ]
