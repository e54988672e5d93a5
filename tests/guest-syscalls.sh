#!/bin/sh
# guest-syscalls.sh IVX SYS_CHECK SYS_STOP SYS_COPY SYS_MKDIR SYS_APPEND — system calls and the file sandbox, end
# to end (see tests/guests/sys_check.c for the checks made inside the guest).
#
# Here: the guest passes every check in functional and timing mode, with
# openat2 and with the component walk (IVX_SANDBOX_WALK=1); its output is
# the same in every run with the same seed and its random bytes change with
# the seed; /proc/self/exe and the working directory are what the guest
# should see; the file it wrote under the rw grant is on the host, and
# nothing appeared under the read-only one; bad --dir values are one-line
# errors with status 2; the calls that end a run (tests/guests/sys_stop.c)
# do so with one line and status 2; reverse stepping in the explorer over
# reads and writes (tests/guests/sys_copy.c) leaves the copies exact;
# `info cost` never makes or replays a change to the host's directories
# (tests/guests/sys_mkdir.c); a file's size is the guest's state, so going
# back and forth over appends and truncations, and ivx cost's runs, see
# and leave what the straight run did (tests/guests/sys_append.c). One
# line per check, exit 1 on any failure.
ivx=$1
prog=$2
stop_prog=$3
copy_prog=$4
mkdir_prog=$5
append_prog=$6
many_prog=$7
fails=0
pass() { echo "ok   $1"; }
fail() { echo "FAIL $1"; fails=$((fails + 1)); }

T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/data/sub" "$T/out"
printf 'hello world\n' > "$T/data/hello.txt"
printf 'secret\n' > "$T/secret.txt"
printf 'input\n' > "$T/stdin.txt"
ln -s hello.txt "$T/data/link_in"
ln -s ../secret.txt "$T/data/link_out"
ln -s /etc/passwd "$T/data/link_abs"
ln -s loop_b "$T/data/loop_a"
ln -s loop_a "$T/data/loop_b"
abs_ivx=$(cd "$(dirname "$ivx")" && pwd)/$(basename "$ivx")
abs_prog=$(cd "$(dirname "$prog")" && pwd)/$(basename "$prog")

# run NAME MODE-ARGS... : the guest in $T/data, output in $T/NAME.out
run() {
    name=$1
    shift
    rm -f "$T/out/made.txt"
    (cd "$T/data" && "$abs_ivx" run "$@" --stdin "$T/stdin.txt" --dir "$T/data:/data" \
        --dir "$T/out:/out:rw" "$abs_prog" -- "$mode") > "$T/$name.out" 2> "$T/$name.err"
    echo $? > "$T/$name.rc"
}

for mode in openat2 walk; do
    for how in functional timing; do
        name=$mode-$how
        flag=
        [ "$how" = functional ] && flag=--functional
        if [ "$mode" = walk ]; then
            IVX_SANDBOX_WALK=1 run "$name" $flag
        else
            run "$name" $flag
        fi
        rc=$(cat "$T/$name.rc")
        guest_out=$(grep -c '^ok ' "$T/$name.out")
        if [ "$rc" = 0 ] && ! grep -q '^FAIL' "$T/$name.out" && [ "$guest_out" -ge 100 ]; then
            pass "$name: $guest_out checks in the guest pass"
        else
            fail "$name: exit $rc; $(grep '^FAIL' "$T/$name.out" | head -3 | tr '\n' ';') $(head -c 300 "$T/$name.err")"
        fi
        if [ "$(cat "$T/out/made.txt" 2>/dev/null)" = "abcdef
tail" ]; then
            pass "$name: the file written under the rw grant is on the host"
        else
            fail "$name: $T/out/made.txt missing or wrong"
        fi
    done
done
# (timing mode's clock differs from functional's, but nothing printed depends on it)
for name in openat2-timing walk-functional walk-timing; do
    if cmp -s "$T/openat2-functional.out" "$T/$name.out"; then
        pass "$name prints the same as openat2-functional"
    else
        fail "$name differs from openat2-functional: $(diff "$T/openat2-functional.out" "$T/$name.out" | head -5 | tr '\n' ' ')"
    fi
done
# --stdin -: ivx's own standard input, read whole before the run, is fd 0
# as the file was (the guest checks its size, 6, and its bytes)
(cd "$T/data" && printf 'input\n' | "$abs_ivx" run --functional --stdin - --dir "$T/data:/data" \
    --dir "$T/out:/out:rw" "$abs_prog" -- openat2) > "$T/pipe.out" 2> "$T/pipe.err"
if cmp -s "$T/openat2-functional.out" "$T/pipe.out"; then
    pass "--stdin - gives the guest ivx's standard input"
else
    fail "--stdin -: $(diff "$T/openat2-functional.out" "$T/pipe.out" | head -3 | tr '\n' ' ') $(head -1 "$T/pipe.err")"
fi
# the explorer: with the commands in a file, standard input is the
# program's, read once and the same bytes at every restart; with the
# commands on standard input (-x -, or the terminal) it is refused
printf 'continue\nrestart\ncontinue\n' > "$T/cont.ivx"
(cd "$T/data" && printf 'input\n' | "$abs_ivx" -x "$T/cont.ivx" --stdin - --dir "$T/data:/data" \
    --dir "$T/out:/out:rw" "$abs_prog" -- openat2) > "$T/xs.out" 2> "$T/xs.err"
rc=$?
[ $rc = 0 ] && [ "$(grep -c '^ok stdin bytes$' "$T/xs.out")" = 2 ] && ! grep -q '^FAIL' "$T/xs.out" &&
    pass "the explorer's -x FILE --stdin -: the program reads ivx's standard input, again after a restart" ||
    fail "explorer -x FILE --stdin -: status $rc, $(grep -m2 'FAIL\|stdin' "$T/xs.out" | tr '\n' ' ') $(head -2 "$T/xs.err")"
printf 'continue\n' | "$ivx" -x - --stdin - "$prog" > "$T/xs.out" 2> "$T/xs.err"
rc=$?
[ $rc = 2 ] && grep -q -- "--stdin -: the explorer reads its commands from standard input" "$T/xs.err" &&
    pass "the explorer refuses --stdin - with -x -: $(head -1 "$T/xs.err")" || fail "explorer -x - --stdin -: status $rc, $(head -2 "$T/xs.err")"
# one variable at a time: the same seed twice, then another seed
mode=openat2
run again --functional
if cmp -s "$T/openat2-functional.out" "$T/again.out"; then pass "a second run prints the same"; else fail "two runs differ"; fi
run seed2 --functional --seed 2
r1=$(grep '^info getrandom' "$T/openat2-functional.out")
r2=$(grep '^info getrandom' "$T/seed2.out")
if [ -n "$r1" ] && [ "$r1" != "$r2" ]; then pass "getrandom follows --seed"; else fail "getrandom: '$r1' vs '$r2'"; fi
exe=$(grep '^info exe: ' "$T/openat2-functional.out" | cut -d' ' -f3-)
[ "$exe" = "$abs_prog" ] && pass "/proc/self/exe is the program's host path (no grant covers it)" \
    || fail "/proc/self/exe: '$exe', want '$abs_prog'"
cwd=$(grep '^info cwd: ' "$T/openat2-functional.out" | cut -d' ' -f3-)
[ "$cwd" = /data ] && pass "the working directory is the grant's guest path" || fail "cwd '$cwd', want /data"
if [ -z "$(ls "$T/data" | grep -v -e hello.txt -e sub -e link_ -e loop_)" ]; then
    pass "nothing was created under the read-only grant"
else
    fail "the read-only grant changed: $(ls "$T/data")"
fi

# the program inside a grant: /proc/self/exe in guest terms
mkdir "$T/bin" && cp "$prog" "$T/bin/sys_check"
(cd "$T/data" && "$abs_ivx" run --functional --stdin "$T/stdin.txt" --dir "$T/data:/data" \
    --dir "$T/out:/out:rw" --dir "$T/bin:/bin" "$T/bin/sys_check" -- openat2) > "$T/inbin.out" 2>&1
exe=$(grep '^info exe: ' "$T/inbin.out" | cut -d' ' -f3-)
[ "$exe" = /bin/sys_check ] && pass "/proc/self/exe is the guest path when a grant covers it" \
    || fail "/proc/self/exe: '$exe', want /bin/sys_check"

# bad --dir values: one line, status 2
check_err() {
    want=$1
    shift
    "$ivx" run --functional "$prog" "$@" > "$T/e.out" 2> "$T/e.err"
    rc=$?
    if [ "$rc" = 2 ] && [ "$(wc -l < "$T/e.err")" = 1 ] && grep -q -- "$want" "$T/e.err"; then
        pass "$*: $(cat "$T/e.err")"
    else
        fail "$*: status $rc, '$(cat "$T/e.err")' (want '$want')"
    fi
}
check_err "No such file" --dir "$T/nonexistent"
check_err "not a directory" --dir "$T/secret.txt"
check_err "neither an absolute guest path nor ro/rw" --dir "$T/data:rel"
check_err "neither an absolute guest path nor ro/rw" --dir "$T/data:/x:wr"
check_err "expected HOST" --dir ":/x"
check_err "needs a value" --dir

# calls that end the run
stop_case() {
    what=$1
    want=$2
    "$ivx" run --functional "$stop_prog" -- "$what" > "$T/s.out" 2> "$T/s.err"
    rc=$?
    if [ "$rc" = 2 ] && [ "$(wc -l < "$T/s.err")" = 1 ] && grep -q -- "$want" "$T/s.err" && [ ! -s "$T/s.out" ]; then
        pass "$what: $(cat "$T/s.err")"
    else
        fail "$what: status $rc, '$(cat "$T/s.err")' (want '$want'), stdout '$(cat "$T/s.out")'"
    fi
}
stop_case abort "guest killed by signal 6 (SIGABRT) it sent itself at pc"
stop_case handler "signal 10 (SIGUSR1), which has a handler: signal delivery is not supported"
stop_case futex "would block forever"
stop_case pipe "a read of an empty pipe would block forever (one process) at pc"
stop_case fullpipe "a write to a full pipe would block forever (one process) at pc"
stop_case poll "a ppoll with nothing ready and no timeout would block forever (one process) at pc"
stop_case clone "unsupported system call 220 (clone) at pc"
stop_case mprotect "guest fault: write to read-only address 0x7f0000001000"
# a guest's output ivx cannot write: status 2, or the guest's own non-zero one
if [ -w /dev/full ]; then
    "$ivx" run --functional "$stop_prog" -- pid > /dev/full 2> "$T/s.err"
    rc=$?
    [ $rc = 2 ] && grep -q "error writing standard output: No space left on device" "$T/s.err" &&
        pass "stdout to a full disk: status 2, $(cat "$T/s.err")" || fail "stdout to /dev/full: status $rc, $(cat "$T/s.err")"
    "$ivx" run --functional "$stop_prog" -- none > /dev/full 2> "$T/s.err"
    rc=$?
    [ $rc = 1 ] && grep -q "error writing standard output" "$T/s.err" &&
        pass "stdout to a full disk after the guest failed: its status 1 stays" || fail "guest status 1 to /dev/full: status $rc, $(cat "$T/s.err")"
fi
"$ivx" run --functional "$stop_prog" -- ignored > "$T/s.out" 2> "$T/s.err"
rc=$?
[ "$rc" = 0 ] && [ "$(cat "$T/s.out")" = "tgkill: 0" ] && pass "an ignored signal sent to itself does nothing" \
    || fail "ignored signal: status $rc, '$(cat "$T/s.out" "$T/s.err")'"

# file state across reverse stepping: the explorer goes back and forth over
# the copy loop; every replayed read must see the offset it first saw
awk 'BEGIN { for (i = 0; i < 300; i++) printf "line %d of the source, %d\n", i, i * 7919 % 1000 }' > "$T/data/src.txt"
awk 'BEGIN { for (i = 0; i < 200; i++) printf "stdin %d\n", i }' > "$T/in2.txt"
total=$("$ivx" run --stdin "$T/in2.txt" --dir "$T/data:/data" --dir "$T/out:/out:rw" "$copy_prog" -- \
    /data/src.txt /out/dst.txt 2>&1 >/dev/null | sed -n 's/^ivx: \([0-9]*\) cycles.*/\1/p')
[ "${total:-0}" -gt 20000 ] && pass "the copy takes $total cycles" || fail "the copy's cycle count: '$total'"
# (every step below lands inside the copy loop, which starts after ~15% of the run)
a=$((total / 2)) b=$((total / 4)) c=$((total / 3)) d=$((total * 9 / 10)) e=$((total * 6 / 10))
for script in "continue" "set snapshot-interval 1000
step $a
reverse-step $b
step $b
goto $c
step $d
reverse-step $e
continue"; do
    printf '%s\n' "$script" > "$T/copy.ivx"
    rm -f "$T/out/dst.txt" "$T/out/dst.txt.stdin"
    "$ivx" -x "$T/copy.ivx" --stdin "$T/in2.txt" --dir "$T/data:/data" --dir "$T/out:/out:rw" \
        "$copy_prog" -- /data/src.txt /out/dst.txt > "$T/copy.out" 2>&1
    what="explorer: $(echo "$script" | tr '\n' ';' | cut -c1-60)"
    if cmp -s "$T/data/src.txt" "$T/out/dst.txt" && cmp -s "$T/in2.txt" "$T/out/dst.txt.stdin" &&
       [ "$(grep -c '^copied$' "$T/copy.out")" = 1 ]; then
        pass "$what: both copies exact, output shown once"
    else
        fail "$what: copies differ or output repeated ($(grep -c '^copied$' "$T/copy.out") 'copied'): $(tail -2 "$T/copy.out" | tr '\n' ' ')"
    fi
done

# `info cost` runs the program twice from before the event: those runs must
# not make a mkdir the real run has not made yet (it would then fail), and
# one the real run has made cannot be replayed
mkdir -p "$T/mk"
mkdir_case() {   # mkdir_case WHAT CATCH-SCRIPT EXPECTED-MESSAGE DIRS-AFTER
    rm -rf "$T/mk/a" "$T/mk/b"
    printf "$2" >"$T/mk.ivx"
    "$ivx" -x "$T/mk.ivx" --dir "$T/mk:/out:rw" "$mkdir_prog" -- /out >"$T/mk.out" 2>&1
    if grep -qF "$3" "$T/mk.out" && [ "$(ls "$T/mk" | tr '\n' ' ')" = "$4" ]; then
        pass "$1"
    else
        fail "$1: $(tail -1 "$T/mk.out"); made: $(ls "$T/mk" | tr '\n' ' ')"
    fi
}
mkdir_case "info cost whose runs would reach a mkdir is refused, the mkdir not made" \
    'catch l2d end if insns > 5500\ncontinue\ninfo cost\n' \
    "cannot measure it: the program calls mkdirat at pc" ""
mkdir_case "info cost of a miss before a mkdir already made is refused" \
    'catch l2d end if insns > 5700\ncontinue\ndelete\nbreak mkdir_\ncontinue\ninfo cost\n' \
    "the program changed the host's directories (mkdirat) before cycle" "a "
mkdir_case "without info cost the run makes both" 'continue\n' "made (0)" "a b "
# ivx cost's second pass starts the program again: it stops at the mkdir
# the first pass made, instead of measuring a run that went another way
rm -rf "$T/mk/a" "$T/mk/b"
"$ivx" cost --event mispredict --dir "$T/mk:/out:rw" "$mkdir_prog" -- /out >/dev/null 2>"$T/mk.err"
rc=$?
[ "$rc" = 2 ] && [ "$(wc -l <"$T/mk.err")" = 1 ] && grep -q "calls mkdirat at .*(ivx cost runs the program again" "$T/mk.err" &&
    pass "ivx cost past a mkdir of the first run: one line, status 2" ||
    fail "ivx cost past a mkdir: status $rc, $(cat "$T/mk.err")"

# file sizes across reverse stepping: appends replayed at the size the
# file had then, reads, stats and seeks that see it, truncations that cut
# no byte an earlier point still reads (tests/guests/sys_append.c)
mkdir -p "$T/ap"
append_run() {   # append_run NAME IVX-ARGS...: the program's lines in $T/NAME.prog, the file in $T/NAME.txt
    name=$1
    shift
    rm -f "$T/ap/log"
    "$ivx" "$@" --dir "$T/ap:/w:rw" "$append_prog" -- /w/log > "$T/$name.out" 2>&1
    grep -E '^(round|done)' "$T/$name.out" > "$T/$name.prog"
    cp "$T/ap/log" "$T/$name.txt" 2>/dev/null
}
append_run straight run -q
total=$(sed -n 's/^ivx: \([0-9]*\) cycles.*/\1/p' "$T/straight.out")
[ "$(grep -c '^round' "$T/straight.prog")" = 48 ] && [ "${total:-0}" -gt 500000 ] &&
    pass "the appends run straight ($total cycles)" || fail "the appends straight: $(tail -1 "$T/straight.out")"
a=$((total / 2)) b=$((total / 4)) c=$((total / 3)) d=$((total * 9 / 10)) e=$((total * 6 / 10))
printf 'set snapshot-interval 20000\nstep %s\ninfo program\nreverse-step %s\nstep %s\ninfo program\ngoto %s\nstep %s\nreverse-step %s\ncontinue\n' \
    $a $b $b $c $d $e > "$T/ap.ivx"
append_run explorer -x "$T/ap.ivx"
if cmp -s "$T/straight.prog" "$T/explorer.prog" && cmp -s "$T/straight.txt" "$T/explorer.txt" &&
   [ "$(grep '^Stopped' "$T/explorer.out" | uniq | wc -l)" = 1 ] &&
   [ "$(grep 'program exited' "$T/explorer.out" | sort -u | wc -l)" = 2 ]; then
    pass "explorer over appends and truncations: the same output, states and file as straight"
else
    fail "explorer over appends and truncations: $(grep -E '^Stopped|exited' "$T/explorer.out" | tr '\n' ' ')" \
        "$(cmp "$T/straight.txt" "$T/explorer.txt" 2>&1)"
fi
append_run cost cost -q --event mispredict --sample 20
cmp -s "$T/straight.txt" "$T/cost.txt" && pass "ivx cost leaves the appended file as the straight run does" ||
    fail "ivx cost's appended file: $(cmp "$T/straight.txt" "$T/cost.txt" 2>&1)"

# A guest that uses up the descriptors: with a limit of 256, it gets
# EMFILE (24) with 64 of them left to ivx, which writes the --json (with
# 1024 and 1017 files taken, it failed with "Too many open files" after
# the run).
mkdir -p "$T/many"
(ulimit -n 256 && "$ivx" run -q --json "$T/many.json" --dir "$T/many:/m:rw" "$many_prog" -- /m 1000) \
    > "$T/many.out" 2> "$T/many.err"
rc=$?
opened=$(sed -n 's/^opened \([0-9]*\), then errno 24$/\1/p' "$T/many.out")
if [ $rc = 0 ] && [ -n "$opened" ] && [ "$opened" -gt 100 ] && [ "$opened" -le 192 ] && grep -q '"end":"exit"' "$T/many.json"; then
    pass "a guest using up the descriptors gets EMFILE after $opened files; ivx still writes its --json"
else
    fail "descriptors used up: status $rc, $(cat "$T/many.out") $(grep -v '^ivx: [a-z_ ]* *[0-9]' "$T/many.err" | head -2)"
fi

echo "guest-syscalls: $fails failed"
[ "$fails" = 0 ]
