#!/bin/sh
# ui-end-parity.sh IVX — at the end of a run the explorer's instruments
# show what the headless commands print for the same program, options and
# seed (docs/explorer.md, "The end of the run").
#
# Each case names a golden script (tests/golden/NAME.ivx, run as
# tests/ui-golden.sh runs it, with its `# prog:` line) and the headless
# command with the same settings. The numbers of the last `info strat`,
# `info samples` or `info coproc` of the script, which is at the end of
# the run, are put in one canonical line and so are the headless
# command's; the two lines must be equal.
set -u
IVX=$1
cd "$(dirname "$0")/.." || exit 2
case $IVX in /*) ;; *) IVX=$(pwd)/$IVX ;; esac
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
export LC_ALL=C HOME="$TMP"

# The explorer's numbers: the last line matching each sed expression.
last() { sed -n "$1" "$TMP/x.out" | tail -n 1; }

# strat: samples, messages, interrupts, overhead cycles and %, error
strat_explorer() {
	echo "samples $(last 's/^samples  *\([0-9]*\) first-stage.*/\1/p')" \
		"messages $(last 's/^messages  *\([0-9]*\) to software.*/\1/p')" \
		"$(last 's/^interrupts  *\([0-9]*\), \([0-9]*\) cycles.*: \([0-9.]*%\) of.*/interrupts \1 overhead \2 \3/p')" \
		"error $(last 's/^error  *\([0-9.]*%\) over.*/\1/p')"
}
strat_headless() {
	sed -n 's/^H\[P16\]64+A4  *\([0-9]*\)  *\([0-9]*\)  *\([0-9]*\)  *\([0-9]*\)  *\([0-9.]*%\)  *\([0-9.]*%\).*/samples \1 messages \2 interrupts \3 overhead \4 \5 error \6/p' "$TMP/h.out"
}

# DCPI: samples by event, evictions, drains, lost, overhead, handler and daemon cycles
dcpi_explorer() {
	last 's/^samples \([0-9]*\): cycles \([0-9]*\) imiss \([0-9]*\)$/samples \1 cycles \2 imiss \3/p' | tr '\n' ' '
	last 's/^driver: hit rate \([0-9.]*%\), \([0-9]*\) evictions, buffers [0-9+]*, \([0-9]*\) drains, \([0-9]*\) lost; overhead \([0-9.]*%\) (handler \([0-9]*\), daemon \([0-9]*\) cycles)$/hit \1 evictions \2 drains \3 lost \4 overhead \5 handler \6 daemon \7/p'
}
dcpi_headless() {
	sed -n 's/^ivx: dcpi: \([0-9]*\) samples (cycles \([0-9]*\), imiss \([0-9]*\)).*/samples \1 cycles \2 imiss \3/p' "$TMP/h.out" | tr '\n' ' '
	a=$(sed -n 's/^ivx: dcpi: hash table hit rate \([0-9.]*%\), \([0-9]*\) evictions, \([0-9]*\) buffer drains, \([0-9]*\) lost$/hit \1 evictions \2 drains \3 lost \4/p' "$TMP/h.out")
	b=$(sed -n 's/^ivx: dcpi: overhead \([0-9.]*%\) (handler \([0-9]*\), daemon \([0-9]*\) cycles.*/overhead \1 handler \2 daemon \3/p' "$TMP/h.out")
	echo "$a $b"
}

# the co-processor: overhead with the final harvest, records, drops
coproc_explorer() {
	last 's/^profiler \([0-9]*\) cycles = \([0-9.]*%\) of \([0-9]*\) (handlers \([0-9]*\), buffer stalls \([0-9]*\), final harvest \([0-9]*\))$/cycles \3 profiler \1 \2 handlers \4 stalls \5 final \6/p' | tr '\n' ' '
	last 's/^buffer [0-9]*\/[0-9]*, \([0-9]*\) records, \([0-9]*\) dropped.*/records \1 dropped \2/p'
}
coproc_headless() {
	sed -n 's/^cycles \([0-9]*\), instructions [0-9]*; profiler \([0-9]*\) cycles = \([0-9.]*%\) (handlers \([0-9]*\), buffer stalls \([0-9]*\), final harvest \([0-9]*\))$/cycles \1 profiler \2 \3 handlers \4 stalls \5 final \6/p' "$TMP/h.out" | tr '\n' ' '
	sed -n 's/^buffer: \([0-9]*\) records, \([0-9]*\) dropped.*/records \1 dropped \2/p' "$TMP/h.out"
}

fail=0
n=0
# check NAME KIND HEADLESS-COMMAND-WORDS: the golden script NAME against
# `ivx HEADLESS-COMMAND-WORDS PROG-LINE` (the prog line's options and
# program go after the command's own options)
check() {
	name=$1 kind=$2
	shift 2
	prog=$(sed -n 's/^# prog: *//p' "tests/golden/$name.ivx" | head -n 1)
	n=$((n + 1))
	# shellcheck disable=SC2086  # prog holds options, the program and its arguments
	"$IVX" -x "tests/golden/$name.ivx" $prog > "$TMP/x.out" 2>&1
	# shellcheck disable=SC2086
	"$IVX" "$@" $prog > "$TMP/h.out" 2>&1
	x=$("${kind}_explorer")
	h=$("${kind}_headless")
	if [ -z "$h" ] || [ "$x" != "$h" ]; then
		echo "FAIL $name: the explorer at the end and ivx $1 differ"
		echo "  explorer: $x"
		echo "  ivx $1:  $h"
		fail=$((fail + 1))
	fi
}

check strat-end strat strat --spec 'H[P16]64+A4'
check strat-end-limit strat strat --spec 'H[P16]64+A4'
check dcpi-end dcpi profile --db "$TMP/db" --new-epoch --period 2000 --table-buckets 1 --buffer-entries 8
check dcpi-end-limit dcpi profile --db "$TMP/db" --new-epoch --period 2000 --table-buckets 1 --buffer-entries 8
check coproc-end coproc coproc --program value
check coproc-end-limit coproc coproc --program value
check coproc-end-seed coproc coproc --program value
check dcpi-end-seed dcpi profile --db "$TMP/db" --new-epoch --period 2048
if [ $fail -gt 0 ]; then
	echo "ui-end-parity: $fail of $n failed"
	exit 1
fi
echo "ui-end-parity: $n runs: the explorer's instruments at the end print the headless commands' numbers"
