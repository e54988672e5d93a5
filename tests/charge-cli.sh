#!/bin/sh
# charge-cli.sh [IVX] — the explorer's per-event charges and `info cost`:
# the errors it gives for what it cannot measure (one line each), and its
# true cost agreeing with `ivx cost` on the same event.
IVX=${1:-${IVX:-build/ivx}}
cd "$(dirname "$0")/.." || exit 2
case $IVX in /*) ;; *) IVX=$(pwd)/$IVX ;; esac
export LC_ALL=C
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME="$tmp"
pass=0 fail=0

# script PROG STATUS TEXT LINES...: the lines as a batch script on PROG
# (with its arguments); status and a line of stdout+stderr
script() {
    prog=$1 want=$2 text=$3
    shift 3
    printf '%s\n' "$@" > "$tmp/s.ivx"
    # shellcheck disable=SC2086  # prog holds the program and its arguments
    timeout 60 "$IVX" -x "$tmp/s.ivx" $prog > "$tmp/out" 2>&1
    got=$?
    if [ "$got" = "$want" ] && grep -qF -- "$text" "$tmp/out"; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL: [$*] on $prog -> status $got (want $want), want \"$text\"" >&2
        head -n 8 "$tmp/out" | sed 's/^/    out: /' >&2
    fi
}

K3="data/bin/kernels/k3_long_dmiss -- miss 2"
K2="data/bin/kernels/k2_branch_miss -- miss 3"
script "$K3" 1 "which event? \`info cost N\`" "info cost"
script "$K3" 1 "no row 999: the events pane has 3 rows" "step 30" "info cost 999"
script "$K3" 1 "info cost ROW: expected a row number, got \"x\"" "step 30" "info cost x"
script "$K3" 1 "usage: info cost [ROW]" "info cost 1 2"
script "$K3" 1 "still in progress" "catch l2d if sym == \"loop\"" "continue" "info cost"
script "$K3" 1 "that row is a rob-empty: only l1i, l2i, itlb, l1d, l2d, dtlb and mispredict" "step 30" "info cost 1"
script "$K2" 1 "a wrong-path event delays nothing that commits" \
    "catch mispredict end if pc == inner+0x6c" "continue" "info cost 4"
script "$K3" 1 "expected" "info events 0"
# the last stop's event by default; an interval stands for the miss that ended it
script "$K3" 0 "true cost: 254 cycles" "catch l2d if sym == \"loop\"" "continue" "tcatch interval" "continue" \
    "info cost"
# an event a few instructions before the program's end: the end is what
# both runs reach, and the message says so (no instruction that never commits)
script "$K3" 0 "true cost: 12 cycles (from the state at cycle 17784, the program ends at cycle 18056 with the event" \
    "continue" "info cost 6"
# the last catch's event after stepping past its end (it was in progress
# at the stop)
script "$K3" 0 "last catch: l2d at cycle" "catch l2d if sym == \"loop\"" "continue" "delete" "step 400" "info cost"
# ... but one caught as it began and gone from the pane before its end was
# seen there cannot be measured: said so, not "still in progress"
K4="data/bin/kernels/k4_overlapping_dmiss -- miss 100"
script "$K4" 1 "that l2d has left the events pane (it keeps the newest 1024) before its end was seen" \
    "catch l2d if pc == k_mode_index+0x14" "continue" "delete" "step 52000" "info cost"
# ... or one a reverse command went back before
script "$K3" 1 "that l2d begins at cycle 15477, after this one: a reverse command went back before it" \
    "catch l2d if sym == \"loop\"" "continue" "reverse-step 100" "info cost"
# an overlap or an interval is a moment: begin or end after it is refused
script "$K3" 1 "catch overlap: an overlap happens at one moment; leave out \`end\`" "catch overlap end"
script "$K3" 1 "catch interval: an interval happens at one moment; leave out \`begin\`" "catch interval begin"
script "$K3" 1 "catch sample: a sample happens at one moment; leave out \`begin\`" "catch sample begin"
# a condition on latency or end at an event's begin could never hold
script "$K4" 1 "catch l2d begin: latency and end are known only when the event ends" "catch l2d begin if latency > 100"
# an event of the first cycle: measured from cycle 0, not after the end
script "$K3" 0 "true cost: 289 cycles (from the state at cycle 0," "step 300" "info cost 8"
# the run is where it was after measuring
script "$K3" 0 "cycle 15740, 1488 committed" "catch l2d if sym == \"loop\"" "continue" "tcatch interval" \
    "continue" "info cost" "info program"

# the explorer's true cost of each l2d event is ivx cost's for the same event
"$IVX" cost --event l2d --json "$tmp/c.json" data/bin/kernels/k3_long_dmiss -- miss 2 > /dev/null 2>&1
for c in 15476 15903; do
    want=$(python3 -c "import json,sys; d=json.load(open('$tmp/c.json'));
print([s['penalty'] for s in d['samples'] if s['cycle'] == $c][0])")
    script "$K3" 0 "true cost: $want cycles (from the state at cycle $c," \
        "break cycle $((c + 300))" "continue" "info events 12" "info cost $(
        printf '%s\n' "break cycle $((c + 300))" continue "info events 12" > "$tmp/p.ivx"
        "$IVX" -x "$tmp/p.ivx" data/bin/kernels/k3_long_dmiss -- miss 2 2>/dev/null |
            awk -v c=$((c + 1)) '$2 == c && $3 == "l2d" { print $1; exit }')"
done

echo "charge-cli: $pass passed, $fail failed"
[ "$fail" = 0 ]
