#!/bin/sh
# ui-reverse.sh — reverse execution reaches exactly the state first seen.
#
#   tests/ui-reverse.sh IVX
#
# In batch mode, prints the whole explorer screen (every pane) at a cycle,
# moves away (forward, then back with reverse-step / reverse-continue /
# goto), prints it again and requires the two to be identical; with a
# snapshot memory budget small enough to force thinning, and with the
# snapshot interval at its default. Also checks that the budget holds.
set -u
IVX=$1
cd "$(dirname "$0")/.." || exit 2
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
export HOME="$TMP" LC_ALL=C
fail=0

# screens SCRIPT PROG...: run, split the output at lines "=== NAME".
screens() {
	script=$1
	shift
	"$IVX" -x "$script" "$@" > "$TMP/out" 2>&1 || { echo "FAIL: ivx exited with $?"; cat "$TMP/out"; exit 1; }
	# each marker is followed by one 60-row `show screen`; its console pane
	# (the bottom one, full width) holds what the commands printed (markers
	# too), which differs by route: the rows from its title down are read
	# but not kept
	awk -v dir="$TMP" '/^=== / && (n == 0 || keep) {f = dir "/" $2; n = 60; keep = 1; next}
	     n > 0 {if (/^- Console -/) keep = 0; if (keep) print > f; n--}' "$TMP/out"
}

same() {
	if cmp -s "$TMP/$1" "$TMP/$2"; then
		echo "  ok   $3"
	else
		echo "  FAIL $3"
		diff "$TMP/$1" "$TMP/$2" | head -n 20
		fail=1
	fi
}

cat > "$TMP/a.ivx" <<'END'
set width 140
set snapshot-interval 700
step 3000
echo === s3000
show screen 140 60
step 2500
reverse-step 2500
echo === s3000b
show screen 140 60
stepi 200
echo === i200
show screen 140 60
step 4000
goto 3000
echo === s3000c
show screen 140 60
catch l2d if sym == "loop"
continue
echo === hit1
show screen 140 60
continue
continue
reverse-continue
reverse-continue
echo === hit1b
show screen 140 60
END
echo "ui-reverse: k4 kernel, dense snapshots"
screens "$TMP/a.ivx" data/bin/kernels/k4_overlapping_dmiss -- miss 3
same s3000 s3000b "reverse-step returns to the same screen"
same s3000 s3000c "goto returns to the same screen"
same hit1 hit1b "reverse-continue twice returns to the first hit"

cat > "$TMP/b.ivx" <<'END'
set width 140
set snapshot-interval 1000
set snapshot-memory 3500k
step 12000
echo === s12000
show screen 140 60
step 30000
info snapshots
echo === end
reverse-step 30000
echo === s12000b
show screen 140 60
END
echo "ui-reverse: the built-in program, snapshot memory bounded to 3.5 MB (one snapshot thinned)"
screens "$TMP/b.ivx"
same s12000 s12000b "reverse-step 30000 with thinned snapshots"
mb=$(sed -n 's/^[0-9]* snapshots, \([0-9.]*\) MiB of \([0-9.]*\) MiB.*/\1 \2/p' "$TMP/out" | head -n 1)
if [ -n "$mb" ] && echo "$mb" | awk '{exit !($1 <= $2 && $1 > 0)}'; then
	echo "  ok   snapshot memory within the budget ($mb MiB)"
else
	echo "  FAIL snapshot memory: '$mb'"
	fail=1
fi
# A cycle breakpoint inside a long miss, where the core hands the
# observers runs of idle cycles in one call: the run must stop exactly
# where `step` gets, and reverse-continue must come back to it.
cat > "$TMP/c.ivx" <<'END'
set width 140
break cycle 400
continue
echo === bc400
show screen 140 60
step 300
reverse-continue
echo === bc400b
show screen 140 60
END
printf 'set width 140\nstep 400\necho === s400\nshow screen 140 60\n' > "$TMP/d.ivx"
echo "ui-reverse: k4 kernel, a cycle breakpoint during a long miss"
screens "$TMP/d.ivx" data/bin/kernels/k4_overlapping_dmiss -- miss 3
screens "$TMP/c.ivx" data/bin/kernels/k4_overlapping_dmiss -- miss 3
same s400 bc400 "break cycle 400 stops where step 400 does"
same bc400 bc400b "reverse-continue returns to the cycle breakpoint"

# `time` around reverse motion reports how far back, not a rate.
printf 'step 500\ntime reverse-step 120\n' > "$TMP/t.ivx"
if "$IVX" -x "$TMP/t.ivx" > "$TMP/t.out" 2>&1 && grep -q '; 120 cycles back$' "$TMP/t.out"; then
	echo "  ok   time reverse-step says how far back"
else
	echo "  FAIL time reverse-step:"
	cat "$TMP/t.out"
	fail=1
fi
# goto forward on the run already simulated restores the latest snapshot
# before the target instead of simulating the whole way from where it is
# (`info snapshots` says how far the last move simulated), and reaches the
# state first seen there.
cat > "$TMP/f.ivx" <<'END'
set width 140
set snapshot-interval 700
step 99000
echo === s99000
show screen 140 60
step 1000
goto 100
goto 99000
echo === s99000b
show screen 140 60
info snapshots
END
echo "ui-reverse: crc, goto forward from cycle 100 to 99000"
screens "$TMP/f.ivx" data/bin/workloads/crc -- 200
same s99000 s99000b "goto forward returns to the same screen"
sim=$(sed -n 's/^last move: from cycle \([0-9]*\), \([0-9]*\) cycles simulated again$/\1 \2/p' "$TMP/out" | tail -n 1)
if [ -n "$sim" ] && echo "$sim" | awk '{exit !($1 > 100 && $2 < 98900 && $1 + $2 == 99000)}'; then
	echo "  ok   goto forward started from a snapshot (from cycle, cycles simulated: $sim)"
else
	echo "  FAIL goto forward simulated from where it was: '$sim'"
	fail=1
fi
[ $fail = 0 ] && echo "ui-reverse: all checks passed"
exit $fail
