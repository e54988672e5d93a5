#!/bin/sh
# annotate-cli.sh [IVX] — the explorer's `annotate` against `ivx dcpicalc`:
# the same run (in-order ptrchase, the dcpicalc lab's options) profiled by
# `ivx profile` into a database and sampled live in the explorer must give
# every instruction of main the same samples, frequency estimate and CPI
# estimate. `annotate` reads the sampler's table and buffers without
# flushing them, so this checks that nothing is lost or counted twice, and
# that it runs the same analysis on the same machine; the same with ivx's
# estimator (--estimator ivx, set dcpicalc-estimator ivx), and the errors
# for a bad estimator. Then the pane's
# "<- the true culprit of PC" mark on a stop whose answer is known by
# construction (a register dependency).
IVX=${1:-${IVX:-build/ivx}}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
opts="--config data/configs/inorder.ini --period 512 --fastforward 3000000"
prog=data/bin/workloads/ptrchase

# shellcheck disable=SC2086
if "$IVX" profile --quiet $opts --max-cycles 2000000 --db "$tmp/db" $prog >/dev/null 2>"$tmp/prof.err" &&
   "$IVX" dcpicalc --db "$tmp/db" main >"$tmp/calc.out" 2>&1; then ok; else bad "profile + dcpicalc"; fi
printf 'break cycle 2000000\ncontinue\nannotate main\n' >"$tmp/s.ivx"
# shellcheck disable=SC2086
if "$IVX" -x "$tmp/s.ivx" $opts $prog >"$tmp/ann.out" 2>&1; then ok; else bad "explorer annotate"; cat "$tmp/ann.out" >&2; fi

# dcpicalc: "ADDR  INSN...  SAMPLES M FREQ CPI" in fixed columns
awk 'length($0) > 50 && $1 ~ /^4[0-9a-f]+$/ {
	s = substr($0, 41, 8) + 0; if (!s) next
	rest = substr($0, 49); split(rest, f, " ")
	cpi = f[3]; sub(/cy$/, "", cpi)
	printf "%s %d %s %s\n", $1, s, f[2], cpi }' "$tmp/calc.out" | sort >"$tmp/calc.rows"
# annotate: "PERCENT SAMPLES FREQ [TRUE CPI TRUECPI] STALL... ADDR: INSN"
awk '$1 ~ /^[0-9.]+$/ && $2 ~ /^[0-9]+$/ && $4 == "[" || $1 ~ /^[0-9.]+$/ && $4 ~ /^\[/ {
	line = substr($0, index($0, "[") + 1); split(line, t, " ")
	addr = ""; for (i = 1; i <= NF; i++) if ($i ~ /^>?[0-9a-f]+:$/) { addr = $i; break }
	sub(/^>/, "", addr); sub(/:$/, "", addr)
	printf "%s %d %s %s\n", addr, $2, $3, t[2] }' "$tmp/ann.out" | sort >"$tmp/ann.rows"
n=$(wc -l <"$tmp/calc.rows")
if [ "$n" -ge 8 ]; then ok; else bad "dcpicalc printed $n sampled instructions of main (expected >= 8)"; fi
if cmp -s "$tmp/calc.rows" "$tmp/ann.rows"; then ok; else
	bad "annotate and dcpicalc differ (addr samples freq cpi):"; diff "$tmp/calc.rows" "$tmp/ann.rows" >&2; fi
# the same with ivx's estimator (its flow reconciliation, and the calls
# step over every procedure with samples): `annotate --estimator ivx`
# against `dcpicalc --estimator ivx`, and the setting that the pane follows
printf 'break cycle 2000000\ncontinue\nannotate --estimator ivx main\nset dcpicalc-estimator ivx\nshow dcpicalc-estimator\nannotate main\n' >"$tmp/si.ivx"
# shellcheck disable=SC2086
if "$IVX" dcpicalc --db "$tmp/db" --estimator ivx main >"$tmp/calci.out" 2>&1 &&
   "$IVX" -x "$tmp/si.ivx" $opts $prog >"$tmp/anni.out" 2>&1; then ok; else bad "dcpicalc and annotate --estimator ivx"; cat "$tmp/anni.out" >&2; fi
awk 'length($0) > 50 && $1 ~ /^4[0-9a-f]+$/ {
	s = substr($0, 41, 8) + 0; if (!s) next
	rest = substr($0, 49); split(rest, f, " ")
	cpi = f[3]; sub(/cy$/, "", cpi)
	printf "%s %d %s %s\n", $1, s, f[2], cpi }' "$tmp/calci.out" | sort >"$tmp/calci.rows"
for k in 1 2; do
	awk -v want=$k '/^annotate main/ { n++; est = /ivx.s estimator$/ } n == want && est && ($1 ~ /^[0-9.]+$/ && $4 ~ /^\[/) {
		line = substr($0, index($0, "[") + 1); split(line, t, " ")
		addr = ""; for (i = 1; i <= NF; i++) if ($i ~ /^>?[0-9a-f]+:$/) { addr = $i; break }
		sub(/^>/, "", addr); sub(/:$/, "", addr)
		printf "%s %d %s %s\n", addr, $2, $3, t[2] }' "$tmp/anni.out" | sort >"$tmp/anni$k.rows"
	if [ -s "$tmp/calci.rows" ] && cmp -s "$tmp/calci.rows" "$tmp/anni$k.rows"; then ok; else
		bad "annotate (listing $k, ivx's estimator) and dcpicalc --estimator ivx differ:"; diff "$tmp/calci.rows" "$tmp/anni$k.rows" >&2; fi
done
if grep -qx 'dcpicalc-estimator is ivx' "$tmp/anni.out"; then ok; else bad "show dcpicalc-estimator"; fi
# bad values: one-line errors naming the choices
for cmd in 'set dcpicalc-estimator best' 'annotate --estimator best main' 'annotate --estimator'; do
	printf 'break cycle 100000\ncontinue\n%s\n' "$cmd" >"$tmp/e.ivx"
	# shellcheck disable=SC2086
	"$IVX" -x "$tmp/e.ivx" $opts $prog >"$tmp/e.out" 2>&1
	st=$?
	if [ "$st" = 1 ] && [ "$(grep -c 'paper or ivx' "$tmp/e.out")" = 1 ] && ! grep -q '^annotate main' "$tmp/e.out"; then ok; else
		bad "'$cmd': exit $st, expected 1 and one error naming paper or ivx"; cat "$tmp/e.out" >&2; fi
done

# the store that waits for the missing load: its culprit arrow names the load
if grep -q '4001a4:.*-> 4001a0' "$tmp/ann.out"; then ok; else bad "no arrow from the store 4001a4 to the load 4001a0"; fi

# the wait truth beside the estimate: the store's true reasons are memory
# (d) and the D-TLB (D), as cycles per execution, and dcpicalc --truth
# names the same reasons for it
if grep -qE 'dDw \+[0-9.]+cy +d[0-9.]+ D[0-9.]+ +4001a4:' "$tmp/ann.out"; then ok; else bad "no true reasons d, D beside the store"; fi
"$IVX" dcpicalc --db "$tmp/db" --truth main >"$tmp/calct.out" 2>&1
if grep -qE '^4001a4 .*dep-l2d [0-9]+% ->4001a0, dep-dtlb [0-9]+% ->4001a0' "$tmp/calct.out"; then ok; else
	bad "dcpicalc --truth: the store's reasons and true culprit"; fi

# --total: Percent of all CYCLES samples. Early in the run (no
# fast-forward) main does not have them all, so the two columns differ;
# each is samples over its total.
printf 'break cycle 200000\ncontinue\nannotate main\nannotate --total main\n' >"$tmp/t.ivx"
if "$IVX" -x "$tmp/t.ivx" --config data/configs/inorder.ini --period 500 $prog >"$tmp/tot.out" 2>&1; then ok; else
	bad "annotate --total"; cat "$tmp/tot.out" >&2; fi
if awk '
	/^annotate main/ { n++; split($0, h, " of the "); proc = h[1]; sub(/.*: /, "", proc); all = h[2] + 0; next }
	/^Percent of all samples/ { total[n] = 1 }
	$1 ~ /^[0-9.]+$/ && $2 ~ /^[0-9]+$/ && $4 ~ /^\[/ {
		want = 100 * $2 / (total[n] ? all : proc)
		if ($1 - want > 0.006 || want - $1 > 0.006) { print "bad percent: " $0 " want " want; bad = 1 }
		for (i = 5; i <= NF; i++) if ($i ~ /^>?[0-9a-f]+:$/) { addr = $i; break }
		if (n == 1) p1[addr] = $1; else if ($1 != p1[addr]) differ = 1
		rows[n]++
	}
	END { exit !(n == 2 && total[2] && !total[1] && rows[1] > 0 && rows[1] == rows[2] && differ && !bad) }' "$tmp/tot.out"
then ok; else bad "annotate --total: Percent of all samples (header says so, values samples/all, differ from the procedure's)"; fi

# the true-culprit mark: stopped when 0x4001b8 (eor x0, ...) of muldiv's
# main commits for the first time, the next instruction 0x4001bc (eor x4,
# x0, ...) waits at the head for x0, so the simulator blames 4001b8; it
# has no samples yet, so dcpicalc names no culprit and the mark must be
# "<- the true culprit of 4001bc" on 4001b8's line, and on no other line
printf 'set width 160\nbreak cycle 100000\ncontinue\ndelete\nset break-stage commit\nbreak *0x4001b8\ncontinue\nshow annotate 30\n' >"$tmp/m.ivx"
if "$IVX" -x "$tmp/m.ivx" --config data/configs/inorder.ini --period 512 data/bin/workloads/muldiv >"$tmp/m.out" 2>&1; then ok; else
	bad "explorer annotate on muldiv"; cat "$tmp/m.out" >&2; fi
if grep -q '>4001bc:  eor x4, x0, x0' "$tmp/m.out" &&
   [ "$(grep -c 'culprit of 4001bc' "$tmp/m.out")" = 1 ] &&
   grep -qE ' 4001b8:  eor x0, x0, x0, lsr #27  <- the true culprit of 4001bc$' "$tmp/m.out"; then ok; else
	bad "the true-culprit mark: on 4001b8's line (the producer of x0), on no other, at the cursor 4001bc"; fi

echo "annotate-cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
