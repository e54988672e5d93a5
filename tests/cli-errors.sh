#!/bin/sh
# cli-errors.sh [IVX] — bad input gets one line on stderr and exit status 2,
# never a crash or a hang: missing, non-ELF, truncated, foreign-machine and
# malformed programs, bad options, runaway guests.
IVX=${1:-${IVX:-build/ivx}}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0

# expect STATUS PATTERN -- ARGS...: run ivx, check status, one stderr line matching PATTERN
expect() {
    want=$1 pattern=$2
    shift 3
    timeout 20 "$IVX" "$@" >"$tmp/out" 2>"$tmp/err"
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
expect 2 "not an ELF"             -- run --functional "$tmp/text"
expect 2 "not an ELF"             -- run --functional "$tmp/empty"
expect 2 "trunc50"                -- run --functional "$tmp/trunc50"
expect 2 "outside the file"       -- run --functional "$tmp/trunc300"
expect 2 "wrong machine"          -- run --functional /bin/true
expect 2 "not a regular file"     -- run --functional /tmp
expect 2 "stopped after 1000 instructions" -- run --functional --max-insns 1000 "$good"
expect 2 "unknown option"         -- run --functional --frobnicate "$good"
expect 2 "needs a value"          -- run --functional --max-insns
expect 2 "not a number"           -- run --functional --max-insns lots "$good"
expect 2 "unknown command"        -- frobnicate
expect 2 "no symbol"              -- disasm "$good" no_such_symbol
expect 2 "guest arguments go after --" -- run --functional "$good" extra

echo "cli errors: $pass passed, $fail failed"
[ "$fail" = 0 ]
