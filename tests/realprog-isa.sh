#!/bin/sh
# realprog-isa.sh IVX CC WORK — a program built with the standard cross
# compiler and glibc (tests/guests/isa_real.c, -O2 -static and -O3 -static)
# runs under ivx in functional and in timing mode and prints byte for byte
# what it prints under qemu-aarch64; an instruction ivx does not implement
# stops the run with status 2 and one line naming the pc, the function,
# the word and its disassembly. One line per check, exit 1 on any failure.
ivx=$1
cc=$2
work=$3
fails=0
pass() { echo "ok   $1"; }
fail() { echo "FAIL $1"; fails=$((fails + 1)); }

if ! command -v "$cc" >/dev/null 2>&1; then
    echo "FAIL $cc not found (make deps-test installs gcc-aarch64-linux-gnu and libc6-dev-arm64-cross)"
    exit 1
fi
mkdir -p "$work" || exit 1

# (-O2pac: pointer authentication, which ivx runs with its keys disabled)
for opt in O2 O3 O2pac; do
    prog=$work/isa_real_$opt
    flags=-$opt
    [ $opt = O2pac ] && flags="-O2 -march=armv8.3-a -mbranch-protection=standard"
    if ! "$cc" $flags -static -o "$prog" tests/guests/isa_real.c -lm 2> "$work/cc_$opt.err"; then
        fail "$cc -$opt -static isa_real.c: $(head -1 "$work/cc_$opt.err")"
        continue
    fi
    qemu-aarch64 "$prog" > "$work/qemu_$opt.out" 2> "$work/qemu_$opt.err"
    qrc=$?
    if [ $qrc -ne 0 ] || [ ! -s "$work/qemu_$opt.out" ]; then
        fail "-$opt: qemu-aarch64 exit $qrc"
        continue
    fi
    for mode in functional timing; do
        if [ $mode = functional ]; then set -- --functional; else set --; fi
        "$ivx" run "$@" "$prog" > "$work/ivx_${opt}_$mode.out" 2> "$work/ivx_${opt}_$mode.err"
        rc=$?
        if [ $rc -ne 0 ]; then
            fail "-$opt $mode: ivx exit $rc: $(grep -v '^ivx: [0-9]* cycles' "$work/ivx_${opt}_$mode.err" | head -1)"
        elif cmp -s "$work/qemu_$opt.out" "$work/ivx_${opt}_$mode.out"; then
            pass "-$opt $mode: stdout matches qemu-aarch64 ($(wc -l < "$work/qemu_$opt.out") lines)"
        else
            fail "-$opt $mode: stdout differs from qemu-aarch64 (diff $work/qemu_$opt.out $work/ivx_${opt}_$mode.out)"
        fi
    done
done

# Intrinsics for the forms gcc does not emit by itself (saturating
# doubling multiplies, estimates and steps, AES, SHA-256, SHA-512, SHA-3,
# dot product, PMULL, FRINT32Z), in both modes.
prog=$work/isa_neon_ext
if "$cc" -O2 -static -march=armv8.5-a+crypto+sha3+dotprod+rdma -o "$prog" tests/guests/isa_neon_ext.c \
        2> "$work/cc_neon.err"; then
    qemu-aarch64 "$prog" > "$work/qemu_neon.out" 2> /dev/null
    for mode in functional timing; do
        if [ $mode = functional ]; then set -- --functional; else set --; fi
        "$ivx" run "$@" "$prog" > "$work/ivx_neon_$mode.out" 2> "$work/ivx_neon_$mode.err"
        rc=$?
        if [ $rc -eq 0 ] && [ -s "$work/qemu_neon.out" ] && cmp -s "$work/qemu_neon.out" "$work/ivx_neon_$mode.out"; then
            pass "neon-ext $mode: stdout matches qemu-aarch64 ($(wc -l < "$work/qemu_neon.out") lines)"
        else
            fail "neon-ext $mode: exit $rc, differs from qemu (diff $work/qemu_neon.out $work/ivx_neon_$mode.out)"
        fi
    done
else
    fail "$cc isa_neon_ext.c: $(head -1 "$work/cc_neon.err")"
fi

# The auxiliary vector: the HWCAP values docs/guest-abi.md lists, and one
# instruction of every advertised feature runs in both modes with qemu's
# result (qemu advertises more, so its lines are a superset of ivx's).
hwcaps="AT_HWCAP=0x32b1fb AT_HWCAP2=0x100"
prog=$work/hwcap
if "$cc" -O2 -static -march=armv8.5-a+crypto+sha3+dotprod+rdma -o "$prog" tests/guests/hwcap.c \
        2> "$work/cc_hwcap.err"; then
    qemu-aarch64 "$prog" > "$work/qemu_hwcap.out" 2> /dev/null
    for mode in functional timing; do
        if [ $mode = functional ]; then set -- --functional; else set --; fi
        "$ivx" run "$@" "$prog" > "$work/ivx_hwcap_$mode.out" 2> "$work/ivx_hwcap_$mode.err"
        rc=$?
        missing=$(tail -n +2 "$work/ivx_hwcap_$mode.out" | grep -vxFf "$work/qemu_hwcap.out")
        if [ $rc -eq 0 ] && [ "$(head -1 "$work/ivx_hwcap_$mode.out")" = "$hwcaps" ] &&
           [ "$(wc -l < "$work/ivx_hwcap_$mode.out")" -eq 16 ] && [ -z "$missing" ]; then
            pass "hwcap $mode: $hwcaps, 15 advertised features run as under qemu"
        else
            fail "hwcap $mode: exit $rc, '$(head -1 "$work/ivx_hwcap_$mode.out")', differing: $missing $(head -1 "$work/ivx_hwcap_$mode.err")"
        fi
    done
else
    fail "$cc hwcap.c: $(head -1 "$work/cc_hwcap.err")"
fi

# An unimplemented instruction (FADD of half precision: no FP16 arithmetic)
# in a glibc program; capstone 4 does not know it, so the text is ".inst".
cat > "$work/unsup.c" <<'EOC'
#include <stdio.h>
__attribute__((noinline)) void uses_fp16(void) { __asm__ volatile(".inst 0x1ee22820"); }
int main(void) { printf("before\n"); fflush(stdout); uses_fp16(); printf("after\n"); return 0; }
EOC
if "$cc" -O2 -static -o "$work/unsup" "$work/unsup.c" 2> "$work/unsup_cc.err"; then
    for mode in functional timing; do
        if [ $mode = functional ]; then set -- --functional; else set --; fi
        "$ivx" run "$@" "$work/unsup" > "$work/unsup.out" 2> "$work/unsup.err"
        rc=$?
        msg=$(grep 'unsupported instruction' "$work/unsup.err")
        lines=$(printf '%s\n' "$msg" | grep -c .)
        if [ $rc -eq 2 ] && [ "$lines" -eq 1 ] && [ "$(cat "$work/unsup.out")" = before ] &&
           printf '%s' "$msg" | grep -Eq 'at pc 0x[0-9a-f]+ \(uses_fp16(\+0x[0-9a-f]+)?\): word 0x1ee22820 `\.inst 0x1ee22820`: half-precision floating point \(FEAT_FP16\) is not implemented$'; then
            pass "$mode: unsupported instruction: $msg"
        else
            fail "$mode: unsupported instruction: exit $rc, stdout '$(cat "$work/unsup.out")', stderr: $(head -2 "$work/unsup.err")"
        fi
    done
else
    fail "$cc unsup.c: $(head -1 "$work/unsup_cc.err")"
fi

# Guest ABI corners (tests/guests/abi_real.c): cases that must print what
# they print under qemu-aarch64, and cases ivx stops on purpose with one
# line and status 2 (SIGSEGV and SIGILL under qemu, or stale code).
abi=$work/abi_real
if "$cc" -O1 -static -march=armv8.3-a -mbranch-protection=standard -o "$abi" tests/guests/abi_real.c \
        2> "$work/cc_abi.err"; then
    for what in futex cache tpidrro reexec excl pac; do
        env -i qemu-aarch64 "$abi" "$what" > "$work/qemu_abi_$what.out" 2>&1
        qrc=$?
        for mode in functional timing; do
            if [ $mode = functional ]; then set -- --functional; else set --; fi
            "$ivx" run "$@" "$abi" -- "$what" > "$work/ivx_abi_$what.out" 2> "$work/ivx_abi_$what.err"
            rc=$?
            if [ $rc -eq $qrc ] && [ -s "$work/qemu_abi_$what.out" ] &&
               cmp -s "$work/qemu_abi_$what.out" "$work/ivx_abi_$what.out"; then
                pass "abi $what $mode: as qemu-aarch64: $(head -1 "$work/ivx_abi_$what.out")"
            else
                fail "abi $what $mode: exit $rc (qemu $qrc), $(head -1 "$work/ivx_abi_$what.out") vs qemu $(head -1 "$work/qemu_abi_$what.out") $(grep -v 'cycles' "$work/ivx_abi_$what.err" | head -1)"
            fi
        done
    done
    # CTR_EL0 describes the machine's caches, in both modes; the default
    # machine's value is the one the difftests against qemu have always seen
    ctr_check() {
        want=$1
        shift
        for mode in functional timing; do
            if [ $mode = functional ]; then m=--functional; else m=; fi
            got=$("$ivx" run $m "$@" "$abi" -- ctr 2> "$work/ivx_abi_ctr.err")
            [ "$got" = "$want" ] && pass "abi ctr $mode $*: $got" ||
                fail "abi ctr $mode $*: '$got' (want '$want') $(tail -n 1 "$work/ivx_abi_ctr.err")"
        done
    }
    ctr_check "ctr_el0 0x8444c004: IminLine 64 DminLine 64 ERG 64 CWG 64 bytes; sysconf L1 D line 64"
    ctr_check "ctr_el0 0x8545c003: IminLine 32 DminLine 128 ERG 64 CWG 128 bytes; sysconf L1 D line 128" \
        -o l1i.line=32 -o l1d.line=128 -o l2.line=128
    # (the unified L2's smaller line is the smallest data line; the largest line is CWG)
    printf '[l1d]\nline = 128\n[l2]\nline = 32\n' > "$work/ctr.ini"
    ctr_check "ctr_el0 0x8543c003: IminLine 32 DminLine 32 ERG 64 CWG 128 bytes; sysconf L1 D line 32" \
        --config "$work/ctr.ini"
    # read into a buffer whose tail is read-only: Linux's answer (the bytes
    # before the fault, the offset moved by as much), not qemu's EFAULT
    printf 'hello world, and more\n' > "$work/abi_in.txt"
    want='read 6 [hello ] offset 6
pread 3 [hel] offset 6
readv 3 [wor] offset 9
read into the read-only page -1 errno 14 offset 9'
    for mode in functional timing; do
        if [ $mode = functional ]; then set -- --functional; else set --; fi
        got=$("$ivx" run "$@" --stdin "$work/abi_in.txt" "$abi" -- readpart 2> "$work/ivx_abi_readpart.err")
        [ "$got" = "$want" ] && pass "abi readpart $mode: partial reads return what they copied" ||
            fail "abi readpart $mode: '$got' $(tail -n 1 "$work/ivx_abi_readpart.err")"
    done
    abi_stop() {
        what=$1 want=$2 out=$3
        for mode in functional timing; do
            if [ $mode = functional ]; then set -- --functional; else set --; fi
            "$ivx" run "$@" "$abi" -- "$what" > "$work/ivx_abi_$what.out" 2> "$work/ivx_abi_$what.err"
            rc=$?
            # (timing mode prints its counters first: the message is the last line)
            msg=$(tail -n 1 "$work/ivx_abi_$what.err")
            if [ $rc -eq 2 ] && [ "$(grep -c 'not supported\|guest fault\|unsupported' "$work/ivx_abi_$what.err")" -eq 1 ] &&
               printf '%s' "$msg" | grep -Eq -- "$want" && [ "$(cat "$work/ivx_abi_$what.out")" = "$out" ]; then
                pass "abi $what $mode: $msg"
            else
                fail "abi $what $mode: exit $rc, stdout '$(cat "$work/ivx_abi_$what.out")', stderr '$msg' (want '$want')"
            fi
        done
    }
    abi_stop smc "^ivx: self-modifying code is not supported: mprotect would make the program's code at 0x[0-9a-f]+ \\(rx\\) writable .* at pc 0x[0-9a-f]+ \\(mprotect\\+0x[0-9a-f]+\\)" ""
    abi_stop noexec "^ivx: guest fault: instruction fetch from non-executable address 0x[0-9a-f]+ \\(alone\\), reached by the branch at pc 0x[0-9a-f]+ \\(main\\+0x[0-9a-f]+\\): word 0x[0-9a-f]+ .blr x[0-9]+.$" "mprotect 0"
    abi_stop jit "^ivx: generated code is not supported: mprotect\\(PROT_EXEC\\) of 0x7f[0-9a-f]+ \\(mmap\\), outside the program's code" ""
    abi_stop cntvctss "^ivx: unsupported instruction at pc 0x[0-9a-f]+ \\(main\\+0x[0-9a-f]+\\): word 0xd53be0c[0-9a-f] .mrs x[0-9]+, (cntvctss_el0|s3_3_c14_c0_6)." ""
else
    fail "$cc abi_real.c: $(head -1 "$work/cc_abi.err")"
fi

# like_qemu NAME STDIN ARG IVX_OPTION...: build tests/guests/NAME.c with
# glibc, run it under qemu-aarch64 and under `ivx run IVX_OPTION...` in
# functional and timing mode, both with argument ARG (may be empty) and
# with the file STDIN on fd 0 (may be empty: none), and require the same
# output and status 0. $left_dir, when set, must be empty after each run.
like_qemu() {
    name=$1 stdin=$2 arg=$3
    shift 3
    prog=$work/$name
    if ! "$cc" -O2 -static -o "$prog" "tests/guests/$name.c" 2> "$work/cc_$name.err"; then
        fail "$cc $name.c: $(head -1 "$work/cc_$name.err")"
        return 1
    fi
    env -i qemu-aarch64 "$prog" ${arg:+"$arg"} < "${stdin:-/dev/null}" > "$work/qemu_$name.out" 2>&1
    qrc=$?
    for mode in functional timing; do
        flag=
        [ $mode = functional ] && flag=--functional
        "$ivx" run $flag ${stdin:+--stdin "$stdin"} "$@" "$prog" ${arg:+-- "$arg"} \
            > "$work/ivx_${name}_$mode.out" 2> "$work/ivx_${name}_$mode.err"
        rc=$?
        left=$([ -n "${left_dir:-}" ] && ls -A "$left_dir")
        if [ $rc -eq 0 ] && [ $qrc -eq 0 ] && [ -z "$left" ] && cmp -s "$work/qemu_$name.out" "$work/ivx_${name}_$mode.out"; then
            pass "$name $mode: as qemu-aarch64 ($(wc -l < "$work/qemu_$name.out") lines)"
        else
            fail "$name $mode: exit $rc (qemu $qrc)${left:+, left '$left'}, $(diff "$work/qemu_$name.out" "$work/ivx_${name}_$mode.out" | head -3 | tr '\n' ' ') $(grep -v cycles "$work/ivx_${name}_$mode.err" | tail -n 1)"
        fi
    done
}

# System calls glibc functions make whose answers ivx gives itself
# (tests/guests/libc_sys.c): clock ids, getrusage of the children, getcpu,
# waits with no child, mmap of the --stdin file; as qemu-aarch64 answers
# them with the same file on its standard input.
printf 'stdin bytes\n' > "$work/libc_sys.in"
like_qemu libc_sys "$work/libc_sys.in" ""
# An empty --stdin file is a regular file of size 0, as `< EMPTY` is (it
# was a FIFO, as fd 0 is without --stdin).
: > "$work/libc_sys_empty.in"
like_qemu libc_sys "$work/libc_sys_empty.in" empty
# fd 0's modification time is the --stdin file's (it was 0)
touch -d '2024-06-15 12:34:56' "$work/libc_sys.in"
like_qemu libc_sys "$work/libc_sys.in" "mtime=$(stat -c %Y "$work/libc_sys.in")"

# File calls through glibc (tests/guests/libc_files.c) on a directory:
# qemu-aarch64 on the host's, ivx with it granted rw at the same path;
# the program leaves it empty.
rm -rf "$work/files_dir" && mkdir "$work/files_dir" || exit 1
dir=$(cd "$work/files_dir" && pwd)
left_dir=$dir
like_qemu libc_files "" "$dir" --dir "$dir:rw"
left_dir=

# The virtual devices through glibc (tests/guests/libc_dev.c): ivx with
# no grant at all, qemu-aarch64 on the host's /dev. Then the /dev/urandom
# bytes (ivx only): the same on two runs with one --seed, others with
# another seed, and the same in timing mode.
if like_qemu libc_dev "" ""; then
    devp=$work/libc_dev
    s7a=$("$ivx" run --functional --seed 7 "$devp" -- seed 2>&1)
    s7b=$("$ivx" run --functional --seed 7 "$devp" -- seed 2>&1)
    s7t=$("$ivx" run -q --seed 7 "$devp" -- seed 2>/dev/null)
    s8=$("$ivx" run --functional --seed 8 "$devp" -- seed 2>&1)
    if printf '%s' "$s7a" | grep -Eqx '[0-9a-f]{32}' && [ "$s7a" = "$s7b" ] && [ "$s7a" = "$s7t" ] && [ "$s7a" != "$s8" ]; then
        pass "libc_dev: /dev/urandom follows --seed ($s7a with 7 twice and in timing mode, $s8 with 8)"
    else
        fail "libc_dev: /dev/urandom with --seed 7: '$s7a', again '$s7b', timing '$s7t'; with 8: '$s8'"
    fi
fi

[ $fails -eq 0 ] || exit 1
