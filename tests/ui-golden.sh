#!/bin/sh
# ui-golden.sh — golden-output tests of the explorer's batch mode.
#
#   tests/ui-golden.sh IVX [--update] [NAME...]
#
# Each tests/golden/NAME.ivx is an explorer script. Its header comments say
# what to run it on and how it must end:
#   # prog: PATH [-- ARGS...]     the program (default: the built-in one)
#   # status: N                   expected exit status (default 0)
# The script runs as `IVX -x NAME.ivx PROG -- ARGS` with LC_ALL=C (ASCII
# drawing), HOME in a temporary directory, from the top of the tree; its
# stdout and stderr together must equal tests/golden/NAME.out byte for
# byte. --update rewrites the .out files instead (then review the diff).
set -u
IVX=$1
shift
UPDATE=0
if [ "${1:-}" = "--update" ]; then
	UPDATE=1
	shift
fi
cd "$(dirname "$0")/.." || exit 2
case $IVX in /*) ;; *) IVX=$(pwd)/$IVX ;; esac
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

if [ $# -gt 0 ]; then
	NAMES="$*"
else
	NAMES=$(ls tests/golden/*.ivx | sed 's#.*/##; s#\.ivx$##')
fi

fail=0
n=0
for name in $NAMES; do
	script=tests/golden/$name.ivx
	want=tests/golden/$name.out
	prog=$(sed -n 's/^# prog: *//p' "$script" | head -n 1)
	status=$(sed -n 's/^# status: *//p' "$script" | head -n 1)
	[ -n "$status" ] || status=0
	n=$((n + 1))
	# shellcheck disable=SC2086  # prog holds the program and its arguments
	env LC_ALL=C HOME="$TMP" "$IVX" -x "$script" $prog > "$TMP/out" 2>&1
	got=$?
	if [ $UPDATE = 1 ]; then
		cp "$TMP/out" "$want"
		echo "updated $want (status $got)"
		continue
	fi
	if [ "$got" != "$status" ]; then
		echo "FAIL $name: exit status $got, expected $status"
		fail=$((fail + 1))
	elif ! cmp -s "$TMP/out" "$want"; then
		echo "FAIL $name: output differs from $want:"
		diff -u "$want" "$TMP/out" | head -n 40
		fail=$((fail + 1))
	fi
done
if [ $fail -gt 0 ]; then
	echo "ui-golden: $fail of $n failed"
	exit 1
fi
echo "ui-golden: $n scripts match their golden output"
