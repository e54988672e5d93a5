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

# Malformed programs the fuzzer found (a copy of a kernel, patched):
# put LEN bytes of printf FORMAT at OFFSET of file
patch() {
    printf "$3" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}
kernel=data/bin/kernels/k2_branch_miss    # text at 0x400000 (0x623 bytes), bss at 0x410628
cp "$kernel" "$tmp/bss_offset"            # the bss's file offset (ignored: no file bytes) absurd
patch "$tmp/bss_offset" 128 '\000\000\000\000\000\000\000\200'
expect 2 "stopped after 1000 instructions" -- run --functional --max-insns 1000 "$tmp/bss_offset"
cp "$kernel" "$tmp/huge_text"             # text 1 GiB in memory (zero-filled), bss moved past it
patch "$tmp/huge_text" 104 '\000\000\000\100'
patch "$tmp/huge_text" 136 '\050\006\100\100'
expect 2 "write to protected address 0x410628" -- run --functional "$tmp/huge_text"
cp "$kernel" "$tmp/entry_partial"         # entry on the text's last, partial word
patch "$tmp/entry_partial" 24 '\040\006\100'
expect 2 "entry point 0x400620"   -- run --functional "$tmp/entry_partial"
expect 2 "not in .* code"         -- disasm "$kernel" k_mode_str
expect 2 "needs the timing model" -- run --functional --json "$tmp/j.json" "$good"
expect 2 "a NUL byte"             -- run --config /dev/zero "$good"
expect 2 "larger than 256 MB"     -- run --stdin /dev/zero "$good"
expect 2 "no command 'nosuch'"    -- help nosuch

echo "cli errors: $pass passed, $fail failed"
[ "$fail" = 0 ]
