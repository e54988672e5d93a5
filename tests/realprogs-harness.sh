#!/bin/sh
# realprogs-harness.sh IVX SYS_STOP — tests/realprogs.sh itself, on programs
# that need no network: a runtime workload that runs (must be "match"), a
# glibc program that ivx cannot run yet ("not yet", with ivx's line: it
# executes a half-precision FADD, which ivx does not implement),
# and a program whose output differs from qemu's (SYS_STOP pid: "FAIL").
# Checks the exit status and the verdicts with and without each case in
# the expect list.
ivx=$1
stop_prog=$2
fails=0
pass() { echo "ok   $1"; }
fail() { echo "FAIL $1"; fails=$((fails + 1)); }
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT
mkdir "$T/bin"
cp data/bin/workloads/crc "$T/bin/crc"
cp "$stop_prog" "$T/bin/sys_stop"
printf '#include <stdio.h>\nint main(void) { __asm__ volatile("fadd h0, h1, h2" ::: "v0"); puts("hello"); return 0; }\n' > "$T/hello.c"
aarch64-linux-gnu-gcc -O2 -static -march=armv8.2-a+fp16 -o "$T/bin/hello" "$T/hello.c" || { echo "FAIL cannot build hello"; exit 1; }
printf 'runtime-crc | crc | 1 | -\nglibc-hello | hello | | -\n' > "$T/cases"
printf 'runtime-crc | crc | 1 | -\nglibc-hello | hello | | -\ndiffers | sys_stop | pid | -\n' > "$T/cases3"

# run NAME CASES EXPECT-LINES
run() {
    printf '%s\n' "$3" > "$T/expect"
    REALPROGS_OUT=$T/out REALPROGS_BIN=$T/bin REALPROGS_CASES=$2 REALPROGS_EXPECT=$T/expect \
        tests/realprogs.sh "$ivx" small > "$T/$1.out" 2>&1
    echo $? > "$T/$1.rc"
}
has() { grep -q -- "$2" "$T/$1.out"; }

run none "$T/cases3" ""
[ "$(cat "$T/none.rc")" = 1 ] && pass "a program that differs from qemu fails the run" || fail "status $(cat "$T/none.rc") with a differing program"
has none '^match     runtime-crc: functional and timing = qemu' && pass "a runtime workload matches" || fail "no match line for runtime-crc"
has none '^not yet   glibc-hello: ivx: unsupported instruction at pc' && pass "glibc hello: not yet, with ivx's line" \
    || fail "no 'not yet' line with the reason for glibc-hello"
has none '^FAIL      differs: functional mode differs from qemu' && pass "the differing program is named" || fail "no FAIL line for 'differs'"
has none 'add to .*: runtime-crc' && pass "a newly matching case is pointed out" || fail "no 'add to' hint"

run listed "$T/cases" "glibc-hello"
[ "$(cat "$T/listed.rc")" = 1 ] && has listed '^FAIL      glibc-hello: listed in' \
    && pass "an expected case that stops fails the run" || fail "expected-but-stops: status $(cat "$T/listed.rc")"

run green "$T/cases" "runtime-crc"
[ "$(cat "$T/green.rc")" = 0 ] && has green '1 match qemu, 1 do not run yet, 0 failed' && ! has green 'add to' \
    && pass "not-yet cases alone keep it green, and are counted" || fail "green run: status $(cat "$T/green.rc"): $(tail -1 "$T/green.out")"

[ "$fails" = 0 ] || { echo "--- last output:"; cat "$T/none.out"; }
echo "realprogs-harness: $fails failed"
[ "$fails" = 0 ]
