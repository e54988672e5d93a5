#!/bin/sh
# teach.sh [IVX] — what issue 26 (a teacher preparing a course) found, each
# checked: the explorer's messages for commands students mistype or bring
# from gdb, catchpoints that can never hit, and the command line's own
# messages. Each check runs ivx and looks for one line of text.
IVX=${1:-${IVX:-build/ivx}}
cd "$(dirname "$0")/.." || exit 2
case $IVX in /*) ;; *) IVX=$(pwd)/$IVX ;; esac
export LC_ALL=C
K3="data/bin/kernels/k3_long_dmiss -- miss 2"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME="$tmp"
pass=0 fail=0

bad() {
    fail=$((fail + 1))
    echo "FAIL: $*" >&2
    head -n 8 "$tmp/out" | sed 's/^/    out: /' >&2
}

# script STATUS TEXT LINES...: run the lines as a batch script on k3; the
# exit status must be STATUS and stdout+stderr must hold TEXT.
script() {
    want=$1 text=$2
    shift 2
    printf '%s\n' "$@" > "$tmp/s.ivx"
    # shellcheck disable=SC2086  # K3 holds the program and its arguments
    timeout 60 "$IVX" -x "$tmp/s.ivx" $K3 > "$tmp/out" 2>&1
    got=$?
    if [ "$got" = "$want" ] && grep -qF -- "$text" "$tmp/out"; then
        pass=$((pass + 1))
    else
        bad "script [$*] -> status $got (want $want), want \"$text\""
    fi
}

# cli STATUS TEXT ARGS...: ivx ARGS; status and a line of stdout+stderr
cli() {
    want=$1 text=$2
    shift 2
    timeout 60 "$IVX" "$@" > "$tmp/out" 2>&1
    got=$?
    if [ "$got" = "$want" ] && grep -qF -- "$text" "$tmp/out"; then
        pass=$((pass + 1))
    else
        bad "ivx $* -> status $got (want $want), want \"$text\""
    fi
}

# -- catchpoints and breakpoints say what they do, and refuse what cannot be
script 0 "Temporary Catchpoint 1: interval ends" "tcatch interval"
script 0 "Catchpoint 1: overlap" "catch overlap"
script 1 "expected a condition after if" "catch l2d if"
script 1 "expected a condition after if" "break loop if   "
script 1 "0xdeadbeef is outside the program's code (0x400000-0x" "break *0xdeadbeef"
script 1 "is not an instruction address (not 4-byte aligned)" "break *loop+2"
script 0 "Breakpoint 1: 0x4003c0" "break *loop"
script 1 "timeline-scale: expected 1, 2, 4 or 8" "set timeline-scale 3"
script 0 "8" "set timeline-scale 8" "show timeline-scale"

# -- a catchpoint whose condition cannot hold says so, when set and at the end
script 0 "in this configuration an l2d miss lasts 261 cycles: L1D 2 + L2 9 + memory 250; 291 after a D-TLB miss" \
    "catch l2d if latency > 300"
script 0 "warning: no l2d miss lasts more than 291 cycles unless it waits for a free MSHR" \
    "catch l2d if latency > 300"
script 0 "Catchpoint 1 (l2d ends if latency > 300) held for none of the 72 l2d events tested in this run; the longest lasted 291 cycles" \
    "catch l2d if latency > 300" "continue"
script 0 "Catchpoint 1 (l2d ended after 291 cycles)" "catch l2d if latency > 261" "continue"
# ... but one whose ignore count skipped the hits held: it must not say "none"
script 0 "catchpoint already hit 72 times" "catch l2d if latency > 200" "ignore 1 100" "continue" "info breakpoints"
if grep -qF "held for none" "$tmp/out"; then
    bad "an ignored catchpoint that held said it held for none"
else
    pass=$((pass + 1))
fi

# -- a cold bl: the misprediction and the I-cache miss at its target, apart
script 0 "of the 258 cycles, the redirected fetch waited 250 on an l2i miss (cycles 301-550); the misprediction itself: 8" \
    "catch mispredict end if latency > 50" "continue"
script 0 "a direct bl mispredicts only when it misses the BTB" "catch mispredict end if latency > 50" "continue"

# -- gdb habits: a mistyped command, and gdb commands ivx leaves out
script 1 "unknown command: contineu (did you mean 'continue'?" "contineu"
script 1 "next: not in ivx: there are no source lines" "next"
script 1 "finish: not in ivx:" "finish"
script 1 "bt: not in ivx: no call stack" "bt"
script 1 "watch: not in ivx: no watchpoints" "watch x0"
script 1 "set args: not in ivx" "set args 1 2"

# -- the command line
cli 2 "no such file or command: k3_long_dmiss (did you mean data/bin/kernels/k3_long_dmiss?)" k3_long_dmiss
cli 2 "no such file or command: rnu (did you mean 'ivx run'?)" rnu

cli 2 "disasm: missing PROG" disasm
cli 0 "400100:	f94003f6	ldr x22, [sp]" disasm data/bin/kernels/k3_long_dmiss
if "$IVX" disasm data/bin/kernels/k3_long_dmiss | grep -q '400000:\|464c457f\|401020:'; then
    bad "disasm decodes the ELF header or .rodata (0x400000, 0x401020) as instructions"
else
    pass=$((pass + 1))
fi
cli 2 "run: --window limits the --kanata trace; give --kanata FILE too" run --window 0:100 data/bin/kernels/k3_long_dmiss
"$IVX" cpistack --svg "$tmp/k3.svg" data/bin/kernels/k3_long_dmiss -- miss 2 > /dev/null 2>&1
if grep -q 'Normalized CPI stacks: data/bin/kernels/k3_long_dmiss miss 2 (CPI' "$tmp/k3.svg"; then
    pass=$((pass + 1))
else
    bad "the SVG's title names the guest's arguments: $(grep -o 'Normalized CPI stacks: [^<]*' "$tmp/k3.svg")"
fi

# -- count from where it matters: --start-at (every command with --fastforward)
cli 0 "3227 instructions, 18056 cycles" cpistack data/bin/kernels/k3_long_dmiss -- miss 2
cli 0 "2015 instructions, 2653 cycles, CPI 1.3166" cpistack --start-at loop:2 data/bin/kernels/k3_long_dmiss -- miss 2
cli 0 "2800 instructions" cpistack --start-at loop data/bin/kernels/k3_long_dmiss -- miss 2
cli 0 "2800 instructions" cpistack --start-at 0x4003c0 data/bin/kernels/k3_long_dmiss -- miss 2
cli 2 "--start-at: no symbol 'nosuch'" run --start-at nosuch data/bin/kernels/k3_long_dmiss -- miss 2
cli 2 "--start-at loop:9: the program exited before reaching 0x4003c0 that many times" \
    run --start-at loop:9 data/bin/kernels/k3_long_dmiss -- miss 2
cli 2 "--start-at 0x10: 0x10 is not an instruction" run --start-at 0x10 data/bin/kernels/k3_long_dmiss
cli 2 "after ':' a count from 1" run --start-at loop:0 data/bin/kernels/k3_long_dmiss
printf 'step\n' > "$tmp/step.ivx"
cli 0 "cycle 1, 0 committed, ROB 0/128, next 0x4003e0 loop+0x20" -x "$tmp/step.ivx" --start-at loop:2 \
    data/bin/kernels/k3_long_dmiss -- miss 2
cli 2 "--start-at: no symbol 'nosuch'" cost --event l2d --start-at nosuch data/bin/kernels/k3_long_dmiss -- miss 2
cli 0 "CPI stacks of data/bin/kernels/k3_long_dmiss: 2015 instructions" refstack --start-at loop:2 \
    data/bin/kernels/k3_long_dmiss -- miss 2

echo "teach: $pass passed, $fail failed"
[ "$fail" = 0 ]
