#!/bin/sh
# data-qemu.sh [--qemu-only] [IVX] — run every program in data/bin/MANIFEST
# with its test arguments under qemu-aarch64 and under
# `IVX run --functional PROG -- ARGS`, and compare.
#
# A program passes when qemu exits with the status the MANIFEST expects and
# prints something, and ivx exits with the same status and prints the same
# bytes on stdout. IVX is the first argument, else $IVX, else build/ivx.
# --qemu-only checks the programs under qemu alone (for when ivx is not
# built). One line per run, then "N passed, M failed"; exit 1 on failures.
cd "$(dirname "$0")/.." || exit 1
qemu_only=0
if [ "${1:-}" = --qemu-only ]; then
    qemu_only=1
    shift
fi
ivx=${1:-${IVX:-build/ivx}}
manifest=data/bin/MANIFEST
limit=${DATA_QEMU_TIMEOUT:-60}

if ! command -v qemu-aarch64 > /dev/null 2>&1; then
    echo "data-qemu: qemu-aarch64 not found (apt-get install qemu-user)"
    exit 1
fi
if [ "$qemu_only" = 0 ] && [ ! -x "$ivx" ]; then
    echo "data-qemu: $ivx not found or not executable (build it, or use --qemu-only)"
    exit 1
fi
[ -r "$manifest" ] || { echo "data-qemu: $manifest missing (make data)"; exit 1; }

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

pass=0 fail=0
trim() { echo "$1" | sed 's/^[[:space:]]*//; s/[[:space:]]*$//'; }

while IFS='|' read -r path dflt targs want; do
    case $path in ''|'#'*) continue ;; esac
    path=$(trim "$path")
    targs=$(trim "$targs")
    want=$(trim "$want")
    prog=data/bin/$path
    why=""

    # $targs is unquoted on purpose: it is a list of words.
    timeout "$limit" qemu-aarch64 "$prog" $targs < /dev/null > "$tmp/q.out" 2> "$tmp/q.err"
    qrc=$?
    if [ "$qrc" != "$want" ]; then
        why="qemu exit $qrc, expected $want: $(head -c 200 "$tmp/q.err")"
    elif [ ! -s "$tmp/q.out" ]; then
        why="qemu: no output"
    elif [ "$qemu_only" = 0 ]; then
        timeout "$limit" "$ivx" run --functional "$prog" -- $targs < /dev/null > "$tmp/i.out" 2> "$tmp/i.err"
        irc=$?
        if [ "$irc" != "$qrc" ]; then
            why="ivx exit $irc, qemu $qrc: $(head -c 200 "$tmp/i.err")"
        elif ! cmp -s "$tmp/q.out" "$tmp/i.out"; then
            why="stdout differs from qemu's: $(cmp "$tmp/q.out" "$tmp/i.out" 2>&1 |
                sed 's/.* differ: /at /; s/^cmp: //' | head -n 1)"
        fi
    fi
    if [ -z "$why" ]; then
        pass=$((pass + 1))
        printf 'ok   %s%s\n' "$path" "${targs:+ $targs}"
    else
        fail=$((fail + 1))
        printf 'FAIL %s%s: %s\n' "$path" "${targs:+ $targs}" "$why" | tr -d '\r' | head -n 3
    fi
done < "$manifest"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ] && [ "$pass" -gt 0 ]
