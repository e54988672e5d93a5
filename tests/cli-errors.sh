#!/bin/sh
# cli-errors.sh [IVX] — bad input gets one line on stderr and exit status 2,
# never a crash or a hang: missing, non-ELF, truncated, foreign-machine and
# malformed programs, bad options, runaway guests, endless or unreadable
# input files, FIFOs given as inputs, a full stdout, closed standard fds.
IVX=${1:-${IVX:-build/ivx}}
LC_ALL=C; export LC_ALL   # the patterns quote strerror in English
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0

# expect STATUS PATTERN -- ARGS...: run ivx, check status, one stderr line matching PATTERN
expect() {
    expect_to "$tmp/out" "$@"
}

# expect_to OUT STATUS PATTERN -- ARGS...: the same with stdout going to OUT
expect_to() {
    to=$1 want=$2 pattern=$3
    shift 4
    timeout "${limit:-20}" "$IVX" "$@" >"$to" 2>"$tmp/err"
    got=$?
    lines=$(wc -l <"$tmp/err")
    if [ "$got" = "$want" ] && [ "$lines" = 1 ] && grep -q -- "$pattern" "$tmp/err"; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL: ivx $* -> status $got (want $want), stderr ($lines lines):" >&2
        sed 's/^/    /' "$tmp/err" >&2
    fi
}

good=data/bin/workloads/crc
head -c 50 "$good" >"$tmp/trunc50"
head -c 300 "$good" >"$tmp/trunc300"
echo "hello" >"$tmp/text"
: >"$tmp/empty"

expect 2 "cannot open"            -- run --functional "$tmp/nonexistent"
# the explorer without a terminal (stdout to a file here): what to use instead
expect 2 "the explorer needs a terminal; use \`ivx -x SCRIPT\`" -- "$good"
# ... and on a terminal ncurses cannot draw on (under script(1), for a tty):
# no terminfo entry, or no cursor addressing (dumb). It used to be ncurses'
# "Error opening terminal: foo." and status 1, or the screen on one row.
# expect_tty STATUS PATTERN TERM: run the explorer on a tty with TERM
expect_tty() {
    want=$1 pattern=$2
    IVX_T=$3 IVX_BIN=$IVX IVX_PROG=$good timeout "${limit:-20}" \
        script -qec 'TERM=$IVX_T "$IVX_BIN" "$IVX_PROG"' /dev/null </dev/null >"$tmp/tty" 2>&1
    got=$?
    tr -d '\r' <"$tmp/tty" >"$tmp/err"
    lines=$(wc -l <"$tmp/err")
    if [ "$got" = "$want" ] && [ "$lines" = 1 ] && grep -q -- "$pattern" "$tmp/err"; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL: TERM=$3 ivx $good on a tty -> status $got (want $want), output ($lines lines):" >&2
        head -c 400 "$tmp/err" | cat -v | sed 's/^/    /' >&2; echo >&2
    fi
}
if command -v script >/dev/null; then
    expect_tty 2 "^ivx: terminal 'dumb' cannot move the cursor.*; use \`ivx -x SCRIPT\`" dumb
    expect_tty 2 "^ivx: cannot use terminal 'nonexistent' (no terminfo entry); use \`ivx -x SCRIPT\`" nonexistent
    expect_tty 2 "^ivx: TERM is not set" ""
fi
expect 2 "not an ELF"             -- run --functional "$tmp/text"
expect 2 "not an ELF"             -- run --functional "$tmp/empty"
expect 2 "trunc50"                -- run --functional "$tmp/trunc50"
expect 2 "outside the file"       -- run --functional "$tmp/trunc300"
expect 2 "wrong machine"          -- run --functional /bin/true
expect 2 "not a regular file"     -- run --functional /tmp
expect 0 "stopped after 1000 instructions (--max-insns limit reached)" -- run --functional --max-insns 1000 "$good"
expect 2 "unknown option"         -- run --functional --frobnicate "$good"
expect 2 "needs a value"          -- run --functional --max-insns
expect 2 "not a number"           -- run --functional --max-insns lots "$good"
# Arguments quoted in messages: control characters escaped, one line, no ESC
expect 2 "'1.x0a2' is not a number" -- run --max-insns "$(printf '1\n2')" "$good"
expect 2 "unknown option '--x.x1b.31m'" -- run "$(printf -- '--x\033[31m')" "$good"
if grep -q "$(printf '\033')" "$tmp/err"; then
    fail=$((fail + 1)); echo "FAIL: an ESC reached stderr" >&2
else
    pass=$((pass + 1))
fi
expect 2 "no such file or command: frobnicate" -- frobnicate
expect 2 "no symbol"              -- disasm "$good" no_such_symbol
expect 2 "guest arguments go after --" -- run --functional "$good" extra

# Malformed programs the fuzzer found (a copy of a kernel, patched).
# patch FILE OFFSET BYTES: write printf's BYTES over FILE at OFFSET
patch() {
    printf "$3" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}
kernel=data/bin/kernels/k2_branch_miss    # text at 0x400000 (0x623 bytes), bss at 0x410628
cp "$kernel" "$tmp/bss_offset"            # the bss's file offset (ignored: no file bytes) absurd
patch "$tmp/bss_offset" 128 '\000\000\000\000\000\000\000\200'
expect 0 "stopped after 1000 instructions" -- run --functional --max-insns 1000 "$tmp/bss_offset"
cp "$kernel" "$tmp/huge_text"             # text 1 GiB in memory (zero-filled), bss moved past it
patch "$tmp/huge_text" 104 '\000\000\000\100'
patch "$tmp/huge_text" 136 '\050\006\100\100'
expect 2 "write to read-only address 0x410628" -- run --functional "$tmp/huge_text"
cp "$kernel" "$tmp/entry_partial"         # entry on the text's last, partial word
patch "$tmp/entry_partial" 24 '\040\006\100'
expect 2 "entry point 0x400620"   -- run --functional "$tmp/entry_partial"
expect 2 "not in .* code"         -- disasm "$kernel" k_mode_str
expect 2 "needs the timing model" -- run --functional --json "$tmp/j.json" "$good"
expect 2 "--fastforward needs the timing model" -- run --functional --fastforward 10 "$good"
# a functional run reads no machine, but a mistyped key is still an error
expect 2 "unknown key 'core.bogus'" -- run --functional -o core.bogus=2 "$good"
expect 2 "a NUL byte"             -- run --config /dev/zero "$good"
# a check of the whole machine says where its key was set: the file's line, or the -o
printf '[l1d]\nassoc = 4\n\nsize = 3\n' >"$tmp/machine.ini"
expect 2 "^ivx: $tmp/machine.ini:4: l1d.size=3 is not a multiple of the line (64)\$" -- run --config "$tmp/machine.ini" "$good"
expect 2 "^ivx: -o l1d.size=3: l1d.size=3 is not a multiple" -- cpistack -o l1d.line=64 -o l1d.size=3 "$good"
expect 2 "^ivx: $tmp/machine.ini:2: l1d.assoc=4 exceeds its 2 lines" -- run --config "$tmp/machine.ini" -o l1d.size=128 "$good"
expect 2 "^ivx: -o l1d.size=128: l1d.assoc=4 exceeds its 2 lines" -- run -o l1d.size=128 "$good"
expect 2 "larger than 256 MB"     -- run --stdin /dev/zero "$good"
expect 2 "no command 'nosuch'"    -- help nosuch

# Guest faults in refstack's worker threads (each opened a disassembler)
cp "$good" "$tmp/fault"                   # _start's first word: ldr x1, [x0] with x0 = 0
patch "$tmp/fault" 888 '\001\000\100\371'
expect 2 "guest fault"            -- refstack --jobs 2 "$tmp/fault" -- 1
expect 2 "guest fault"            -- cpistack "$tmp/fault" -- 1
# A program that fails (here: a usage message) gives no stacks
expect 2 "exited with status 2"   -- cpistack --no-ref "$good" -- abc
expect 2 "exited with status 2"   -- refstack --jobs 2 "$good" -- abc
# ... in every command that runs one program: status 2, said last (after
# the program's own output where the command shows it), no JSON written
for cmd in "cpistack --no-ref" "refstack --jobs 2" "cost --event l1d" "coproc --program data/coproc/value.s" \
           "attrib" "strat --spec R10" "profile --quiet --db $tmp/failed.db" "compare"; do
    rest="$good -- abc"
    case $cmd in compare*) rest="$good -- 1 / abc" ;; esac
    # shellcheck disable=SC2086 # (word splitting wanted)
    timeout 60 "$IVX" $cmd --json "$tmp/failed.json" $rest >"$tmp/out" 2>"$tmp/err"
    got=$?
    if [ "$got" = 2 ] && tail -n 1 "$tmp/err" | grep -q "the program exited with status 2" &&
        [ ! -e "$tmp/failed.json" ] && [ ! -e "$tmp/failed.db" ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL: ivx $cmd on a failing program -> status $got (want 2), no JSON, no database:" >&2
        sed 's/^/    /' "$tmp/err" >&2
    fi
done

# --stdin files: said once, with the reason
expect 2 "cannot open"            -- -x "$tmp/empty" --stdin "$tmp/nonexistent" "$good"
# an empty --window (0 stands for "open" only when left out: 0:0 traced the whole run)
expect 2 "--window: '0:0' is not A:B with A < B" -- run --kanata "$tmp/k.log" --window 0:0 "$good"
# INI lines a plain reader misreads: said as what they are, at their line
printf '[core]\nrob_size = 64\n\n[bogus]\nx = 1\n' >"$tmp/sec.ini"
expect 2 "^ivx: $tmp/sec.ini:4: unknown section \\[bogus\\] (sections: core, " -- run --config "$tmp/sec.ini" "$good"
printf '[core]\n= 64\n' >"$tmp/nokey.ini"
expect 2 "^ivx: $tmp/nokey.ini:2: a line with no key before its '='" -- run --config "$tmp/nokey.ini" "$good"
printf '[core]\nrob_size = 64\n  lsq_size = 32\n' >"$tmp/indent.ini"
expect 2 "^ivx: $tmp/indent.ini:3: an indented line continues the value of 'core.rob_size' (line 2)" \
    -- run --config "$tmp/indent.ini" "$good"
printf '[ core ]\nrob_size: 4097\n' >"$tmp/blanks.ini"   # (read as core.rob_size: the range says so)
expect 2 "^ivx: $tmp/blanks.ini:2: value 4097 for core.rob_size out of range" -- run --config "$tmp/blanks.ini" "$good"
# a second --config would replace the first unread
expect 2 "--config given twice"   -- run --config data/configs/inorder.ini --config data/configs/default.ini "$good"
# a script that is not there: the reason, and the bad-input status (it was 1)
expect 2 "nonexistent.ivx: cannot open: No such file or directory" -- -x "$tmp/nonexistent.ivx" "$good"
expect 2 "^ivx: /tmp: cannot open: Is a directory" -- -x /tmp "$good"
expect 2 "^ivx: /tmp: cannot open: Is a directory" -- run --config /tmp "$good"
expect 2 "^ivx: --stdin /tmp: cannot open: Is a directory" -- run --functional --stdin /tmp "$good"
expect 2 "^ivx: --stdin /tmp: cannot open: Is a directory" -- -x "$tmp/empty" --stdin /tmp "$good"

# A FIFO given as an input is refused at once: its open() would wait for a
# writer that never comes (status 124 from timeout is a hang)
mkfifo "$tmp/fifo"
ln -s fifo "$tmp/fifo.s"
echo "source $tmp/fifo" >"$tmp/source-fifo.ivx"
fifo="a FIFO, not a regular file"
limit=10
expect 2 "$fifo"                  -- run --functional "$tmp/fifo"
expect 2 "$fifo"                  -- run --functional --stdin "$tmp/fifo" "$good"
expect 2 "$fifo"                  -- run --config "$tmp/fifo" "$good"
expect 2 "$fifo"                  -- cpistack --config "$tmp/fifo" "$good"
expect 2 "$fifo"                  -- coproc-asm "$tmp/fifo.s"
expect 2 "$fifo"                  -- coproc --program "$tmp/fifo.s" "$good"
expect 2 "$fifo"                  -- -x "$tmp/fifo" "$good"
expect 1 "$fifo"                  -- -x "$tmp/source-fifo.ivx" "$good"
expect 2 "$fifo"                  -- sweep --list "$tmp/fifo"
expect 2 "$fifo"                  -- sweep --merge "$tmp/fifo"
expect 2 "$fifo"                  -- dcpicalc --db "$tmp/fifo" main
limit=

# A full stdout fails the run, whoever wrote to it: the guest, a command, the explorer
echo help >"$tmp/help.ivx"
full="error writing standard output: No space left on device"
expect_to /dev/full 2 "$full"     -- run --functional "$good" -- 1
expect_to /dev/full 2 "$full"     -- cpistack --no-ref "$good" -- 1
expect_to /dev/full 2 "$full"     -- disasm "$good"
expect_to /dev/full 2 "$full"     -- -x "$tmp/help.ivx" "$good"
expect_to /dev/full 2 "$full"     -- --help

# Started with stderr closed, ivx's messages do not land in the file it opens next
# (the run stops at the limit: status 0)
timeout 20 "$IVX" run --max-insns 1000 --kanata "$tmp/k.kanata" "$good" -- 1 2>&-
got=$?
if [ "$got" = 0 ] && ! grep -q "ivx:" "$tmp/k.kanata"; then
    pass=$((pass + 1))
else
    fail=$((fail + 1))
    echo "FAIL: ivx run --kanata with stderr closed -> status $got (want 0), $(grep -c "ivx:" "$tmp/k.kanata") messages in the trace" >&2
fi

# Started with stdout closed, the output that went nowhere is an error (as
# `cat file >&-`), and the guest's output does not land in the --json file
timeout 20 "$IVX" run --json "$tmp/c.json" "$good" -- 1 >&- 2>"$tmp/err"
got=$?
if [ "$got" = 2 ] && grep -q "error writing standard output: Bad file descriptor" "$tmp/err" &&
   python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$tmp/c.json"; then
    pass=$((pass + 1))
else
    fail=$((fail + 1))
    echo "FAIL: ivx run with stdout closed -> status $got (want 2): $(cat "$tmp/err")" >&2
fi

# -q and --quiet are options of every command that runs a program (a
# script or a sweep may give them to any): never "unknown option", never a
# change to stdout, and in each --help
printf 'continue\n' >"$tmp/q.ivx"
for cmd in run cpistack refstack "profile --db $tmp/q.db" attrib "coproc --program value" "strat --spec R256" \
           "cost --event mispredict --sample 2" "compare -o core.rob_size=32 /" "explore -x $tmp/q.ivx"; do
    # shellcheck disable=SC2086  # cmd holds the command and its own options
    timeout 60 "$IVX" $cmd --max-insns 2k "$good" -- 1 >"$tmp/q0" 2>/dev/null
    st0=$?
    for q in -q --quiet; do
        rm -rf "$tmp/q.db"
        # shellcheck disable=SC2086
        timeout 60 "$IVX" $cmd $q --max-insns 2k "$good" -- 1 >"$tmp/q1" 2>"$tmp/err"
        st=$?
        if [ "$st" = 0 ] && [ "$st0" = 0 ] && cmp -s "$tmp/q0" "$tmp/q1" && ! grep -q "unknown option" "$tmp/err"; then
            pass=$((pass + 1))
        else
            fail=$((fail + 1))
            echo "FAIL: ivx $cmd $q -> status $st (without: $st0), stdout differs or: $(cat "$tmp/err")" >&2
        fi
    done
    rm -rf "$tmp/q.db"
    name=${cmd%% *}
    if "$IVX" "$name" --help 2>&1 | grep -q -- '-q, --quiet\|--quiet, -q'; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL: ivx $name --help does not list -q" >&2
    fi
done

echo "cli errors: $pass passed, $fail failed"
[ "$fail" = 0 ]
