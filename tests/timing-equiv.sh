#!/bin/sh
# timing-equiv.sh EVENT_HASH [--update] — the timing model computes what it
# computed when tests/golden/timing-equiv.txt was written (make test).
#
# tests/tools/event_hash.c runs each program below five times (no
# observers; a cycle observer taking runs of idle cycles; every event and
# every cycle record one by one; the CPI accounting units, on the correct
# path and on all paths) and prints the cycles, the commits and a hash of
# all it saw. The core skips cycles in which nothing can happen, and
# speed work trims its loops: none of that may change a cycle, a commit,
# an event or a stack, so every line must equal the committed one. The
# programs cover long data misses that fill the MSHRs (ptrchase, stream),
# I-side misses under a data miss (k6), dividers (muldiv), mispredictions
# (interp, branchy), a large code footprint (icache), in both core modes.
# --update rewrites the golden file (only for an intended change of the
# model: say why in the commit).
set -u
EH=${1:-build/tests/event_hash}
GOLD=tests/golden/timing-equiv.txt
CYCLES=${TIMING_EQUIV_CYCLES:-150000}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
while read -r prog args; do
	for mode in ooo inorder; do
		echo "== $prog $args [$mode]"
		# shellcheck disable=SC2086
		"$EH" -o core.mode=$mode "$CYCLES" "data/bin/$prog" $args 2>&1
	done
done >"$TMP/out" <<'LIST'
workloads/ptrchase 32
workloads/stream 32
workloads/muldiv 160
workloads/interp 180
workloads/branchy 128
workloads/icache 100
kernels/k3_long_dmiss miss 2
kernels/k6_imiss_under_dmiss miss 2
kernels/k5_dependent_dmiss miss 2
LIST
if [ "${2:-}" = --update ]; then
	cp "$TMP/out" "$GOLD"
	echo "timing-equiv: wrote $GOLD"
	exit 0
fi
# the five runs of one program must agree on cycles and commits
bad=$(awk '/^==/ { key = ""; next }
	   { k = $2 " " $3 " " $4 " " $5; if (key == "") key = k; else if (k != key) print }' "$TMP/out")
if [ -n "$bad" ]; then
	echo "timing-equiv: FAIL: the runs of one program disagree on cycles or commits:"
	echo "$bad"
	exit 1
fi
if ! diff -u "$GOLD" "$TMP/out" >"$TMP/diff"; then
	echo "timing-equiv: FAIL: the timing model computes something else than $GOLD:"
	head -n 40 "$TMP/diff"
	exit 1
fi
n=$(grep -c '^==' "$TMP/out")
echo "timing-equiv: $n program runs x 5 observer sets: cycles, commits, events and stacks as in $GOLD"
