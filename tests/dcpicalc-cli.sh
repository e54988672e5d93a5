#!/bin/sh
# dcpicalc-cli.sh [IVX] — `ivx dcpicalc` on programs whose answer is known
# by construction, profiled on the in-order machine:
#
#   dmiss    ptrchase's shuffle loop: one load per iteration misses to
#            memory and the store after it waits for it (d, the load named)
#   mul      muldiv: chains through the 8-cycle multiplier and the 40-cycle
#            divider (static operand stalls, M = the latency)
#   icache   k1_icache_miss: two one-line functions that evict each other
#            from the L1 I-cache (i at their first instruction)
#   branch   branchy: data-dependent branches (p after them)
#
# Each output is compared with its golden file (tests/golden/dcpicalc/;
# DCPICALC_GOLDEN_UPDATE=1 rewrites them), and the JSON is checked for what
# the construction says: the instruction that truly waits longest for that
# reason has it among its culprits, and so on. Then bad input: exit 2 and
# one line.
IVX=${1:-${IVX:-build/ivx}}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
check() { if eval "$2"; then ok; else bad "$1"; fi; }
gold=tests/golden/dcpicalc
cfg="--config data/configs/inorder.ini"
# (a run cut by --max-cycles ends normally after writing its profile)
prof() { db=$1; shift; "$IVX" profile --quiet $cfg --db "$tmp/$db" "$@" >/dev/null 2>"$tmp/$db.err"; [ -f "$tmp/$db/epoch-0001/machine.ini" ]; }

check "profile dmiss" "prof dmiss --period 512 --fastforward 3000000 --max-cycles 2000000 data/bin/workloads/ptrchase"
check "profile mul" "prof mul --period 512 --max-cycles 2000000 data/bin/workloads/muldiv"
check "profile icache" "prof icache --period 200:100 data/bin/kernels/k1_icache_miss -- miss 400"
check "profile branch" "prof branch --period 512 --max-cycles 2000000 data/bin/workloads/branchy"

calc() { # NAME PROC
	"$IVX" dcpicalc --db "$tmp/$1" --truth --json "$tmp/$1.json" "$2" >"$tmp/$1.raw" 2>"$tmp/$1.calcerr" &&
		sed "s|$(pwd)/||g" "$tmp/$1.raw" >"$tmp/$1.out"
}
for t in "dmiss main" "mul main" "icache k1_conflict_e" "branch main"; do
	set -- $t
	check "dcpicalc $1" "calc $1 $2"
	if [ -n "$DCPICALC_GOLDEN_UPDATE" ]; then
		cp "$tmp/$1.out" "$gold/$1.out"
	fi
	check "$1 matches $gold/$1.out" "cmp -s $tmp/$1.out $gold/$1.out || { diff $gold/$1.out $tmp/$1.out | head -20 >&2; false; }"
done
check "same input, same output" "'$IVX' dcpicalc --db $tmp/mul --truth main | sed 's|$(pwd)/||g' | cmp -s - $tmp/mul.out"
check "Figure 2 and 4 layout" "grep -q '^\*\*\* Best-case ' $tmp/mul.out && grep -q '^\*\*\* Unexplained stall' $tmp/mul.out && grep -q '^\*\*\* Total tallied' $tmp/mul.out"

# What the construction says, read from the JSON.
json() { # NAME REASON LETTER: the instruction with the most true REASON cycles
	python3 - "$tmp/$1.json" "$2" "$3" "$4" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
reason, letter, extra = sys.argv[2], sys.argv[3], sys.argv[4]
ins = d['instructions']
top = max(ins, key=lambda i: i.get('true_reasons', {}).get(reason, 0))
assert top['true_reasons'].get(reason, 0) > 0, 'no %s cycles' % reason
assert letter in top['culprits'] + top['static'], (hex(top['pc']), top['culprits'], top['static'])
if extra == 'culprit-before':
    assert any(p < top['pc'] for p in top['culprit_pcs']), top['culprit_pcs']
if extra == 'freq5':
    assert abs(top['freq_est'] - top['freq_true']) <= 0.05 * top['freq_true'], (top['freq_est'], top['freq_true'])
if extra == 'm8':
    assert top['m'] >= 8 and abs(top['cpi_est'] - top['cpi_true']) <= 0.1 * top['cpi_true'], top
assert d['unexplained_fraction'] <= 0.05, d['unexplained_fraction']
for i in ins:
    for k in ('pc', 'samples', 'freq_est', 'freq_true', 'cpi_est', 'cpi_true', 'culprits', 'true_reasons'):
        assert k in i, k
PY
}
if command -v python3 >/dev/null 2>&1; then
	check "dmiss: the store waiting on memory blames the load before it" "json dmiss dep-l2d d culprit-before"
	check "dmiss: its frequency within 5%" "json dmiss dep-l2d d freq5"
	check "mul: the divide/multiply chain is a static operand stall of the latency" "json mul dep-long a m8"
	check "icache: the conflicting line's first instruction blames the I-cache" "json icache l1i i -"
	check "branch: the refill after a misprediction blames a branch" "json branch mispredict p -"
	# the true culprit pc (database version 2): the store that waits for
	# memory is blamed on the load right before it, which dcpicalc lists
	check "dmiss: the true culprit of the memory wait is the load before it, and listed" "python3 - '$tmp/dmiss.json' <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
top = max(d['instructions'], key=lambda i: i['true_reasons'].get('dep-l2d', 0))
cul = top['true_culprit_pcs']['dep-l2d']
assert cul == top['pc'] - 4, (hex(top['pc']), hex(cul))
assert cul in top['culprit_pcs'], top['culprit_pcs']
a = d['accuracy']
assert a['culprit_pc_true_cycles'] > 0 and 0.9 <= a['culprit_pc_coverage'] <= 1, a
PY"
	# an I-side suspect names the instruction's own fetch: the fetch the
	# core blamed starts in its line
	check "icache: the true culprit (the missing fetch) is named" "python3 - '$tmp/icache.json' <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))['accuracy']
assert a['culprit_pc_true_cycles'] > 0 and a['culprit_pc_coverage'] >= 0.9, a
PY"
	check "--truth prints the true culprit beside the reason" "grep -q '^4001a4 .*dep-l2d [0-9]*% ->4001a0' $tmp/dmiss.out"
	check "--truth sums up the culprit-pc accuracy" "grep -q 'true culprit is named (an address listed; for an I-side miss, the instruction.s own fetch) for [0-9.]*% of the [0-9]* that blame' $tmp/dmiss.out"
	# a database written before version 2: no culprit files, version 1
	# headers. It is still read, and says it has no culprit truth.
	cp -r "$tmp/dmiss" "$tmp/old"
	rm -f "$tmp"/old/epoch-0001/*.culprit-*.truth
	python3 - "$tmp"/old/epoch-0001/*.samples "$tmp"/old/epoch-0001/*.truth <<'PY'
import struct, sys, zlib
for f in sys.argv[1:]:
    b = bytearray(open(f, 'rb').read())
    b[8:12] = struct.pack('<I', 1)
    b[-4:] = struct.pack('<I', zlib.crc32(bytes(b[:-4])) & 0xffffffff)
    open(f, 'wb').write(bytes(b))
PY
	check "an old (version 1) database: analysed, with a note instead of culprit pcs" \
		"'$IVX' dcpicalc --db $tmp/old --truth --json $tmp/old.json main >$tmp/old.out 2>&1 && grep -q 'no culprit truth in this profile (written before database version 2' $tmp/old.out && ! grep -q true_culprit_pcs $tmp/old.json"
	# a corrupt culprit file: named on one line, the rest analysed, exit 2
	f=$(ls "$tmp"/dmiss/epoch-0001/*.culprit-dep-l2d.truth)
	cp -r "$tmp/dmiss" "$tmp/bad"
	f=$tmp/bad/epoch-0001/$(basename "$f")
	printf 'X' | dd of="$f" bs=1 seek=100 conv=notrunc 2>/dev/null
	"$IVX" dcpicalc --db "$tmp/bad" --truth main >"$tmp/bad.out" 2>"$tmp/bad.err"; st=$?
	check "a corrupt culprit file: exit 2, one line naming it" "[ $st = 2 ] && [ \$(wc -l <$tmp/bad.err) = 1 ] && grep -q 'culprit-dep-l2d.truth: checksum mismatch' $tmp/bad.err && grep -q '^4001a4 ' $tmp/bad.out"
	# a version from the future
	cp -r "$tmp/dmiss" "$tmp/new"
	f=$(ls "$tmp"/new/epoch-0001/*.cycles.samples)
	printf '\011' | dd of="$f" bs=1 seek=8 conv=notrunc 2>/dev/null
	"$IVX" dcpicalc --db "$tmp/new" main >/dev/null 2>"$tmp/new.err"; st=$?
	check "a profile of a later version: exit 2, says which versions are read" "[ $st = 2 ] && grep -q 'profile version 9, this ivx reads versions 1 to 2' $tmp/new.err"
fi

# bad input: one line, exit 2
err() { # DESCRIPTION ARGS...: exit status 2, one line on stderr
	d=$1; shift
	"$IVX" dcpicalc "$@" >/dev/null 2>"$tmp/e"; st=$?
	if [ $st = 2 ] && [ "$(wc -l <"$tmp/e")" = 1 ]; then ok; else bad "$d (status $st: $(cat "$tmp/e"))"; fi
}
err "unknown procedure" --db "$tmp/mul" no_such_proc
err "address outside the code" --db "$tmp/mul" 0x10
err "missing database" --db "$tmp/none" main
err "procedure without samples" --db "$tmp/mul" abort
err "no PROC" --db "$tmp/mul"
err "unknown estimator" --db "$tmp/mul" --estimator best main
err "--min-samples without --all (it was ignored)" --db "$tmp/mul" --min-samples 1 main
# ivx's estimator: its frequencies keep the flow equations (a block runs
# as often as its incoming edges together, and as its outgoing ones) to
# 0.1% of the block, where the paper's estimates break them somewhere
flow_gap() {   # flow_gap JSON: the largest |block - sum of its in (out) edges| / block
	python3 - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
# relative to the block, or to 1% of the hottest block for the rarely run
# ones (the equations hold to a share of the procedure's frequencies)
top = max([b['freq_est'] or 0 for b in d['blocks']] + [0])
worst = 0.0
for b in d['blocks']:
    f = b['freq_est']
    if f is None or f < 0 or top <= 0:
        continue
    for side in ('to', 'from'):      # edges name blocks by their first pc
        es = [e['freq_est'] for e in d['edges'] if e[side] == b['start']]
        if not es or any(x is None or x < 0 for x in es):
            continue
        worst = max(worst, abs(f - sum(es)) / max(f, 0.01 * top))
print('%.6f' % worst)
PY
}
ivx_keeps_flow() {
	"$IVX" dcpicalc --db "$tmp/mul" --json "$tmp/mul-paper.json" main >/dev/null &&
	"$IVX" dcpicalc --db "$tmp/mul" --estimator ivx --json "$tmp/mul-ivx.json" main >/dev/null &&
	gp=$(flow_gap "$tmp/mul-paper.json") && gi=$(flow_gap "$tmp/mul-ivx.json") &&
	awk -v p="$gp" -v i="$gi" 'BEGIN { exit !(i <= 0.001 && p > 0.01) }'
}
check "--estimator ivx: the flow equations hold (the paper's estimates break them)" ivx_keeps_flow
check "each procedure's JSON names its estimator" \
	"grep -q '\"estimator\":\"paper\"' $tmp/mul-paper.json && grep -q '\"estimator\":\"ivx\"' $tmp/mul-ivx.json"
check "--estimator ivx --all names it in the JSON" \
	"'$IVX' dcpicalc --db $tmp/mul --estimator ivx --all --json $tmp/mul-all.json >/dev/null &&
	 grep -q '\"estimator\":\"ivx\"' $tmp/mul-all.json"
# --all on the out-of-order machine: no issue-stage wait reasons to score the
# culprits against, so those columns say "-" (not 100%) and a note says why
check "profile ooo" "'$IVX' profile --quiet --db $tmp/ooo --period 512 --max-cycles 300000 data/bin/workloads/muldiv >/dev/null 2>&1"
check "--all on an out-of-order profile" "'$IVX' dcpicalc --db $tmp/ooo --all >$tmp/ooo-all.out"
check "... its culprit columns are '-'" "grep -Eq '^TOTAL +[0-9]+ .* +- +- +[0-9.]+%$' $tmp/ooo-all.out"
check "... and a note says why" "grep -q 'a profile of the out-of-order machine' $tmp/ooo-all.out"
check "--all in order keeps its culprit shares" "'$IVX' dcpicalc --db $tmp/mul --all | grep -Eq '^TOTAL +[0-9]+ .*% +[0-9.]+% +[0-9.]+% +[0-9.]+%$'"
err "unknown option" --db "$tmp/mul" --bogus main
err "--db without a value" main --db
err "--min-samples negative (was taken as 2^64 - 1)" --db "$tmp/mul" --all --min-samples -1
err "--all with a procedure (it was ignored)" --db "$tmp/mul" --all main
err "-i naming no image of the epoch" --db "$tmp/mul" -i nosuch main
err "--epoch that is not a number" --db "$tmp/mul" --epoch x main

# --all with nothing over --min-samples: no TOTAL row of zeros and 100%
"$IVX" dcpicalc --db "$tmp/mul" --all --min-samples 99999999999 >"$tmp/none.out" 2>"$tmp/none.err"; st=$?
check "--all, no procedure over --min-samples: exit 2, no TOTAL row" "[ $st = 2 ] && ! grep -q TOTAL $tmp/none.out && grep -q 'no procedure with CYCLES samples' $tmp/none.err"
# no edge checked against the truth: edge10% is '-' (null), not 100%
check "profile without truth" "'$IVX' profile --quiet $cfg --no-truth --db $tmp/nt --period 512 --max-cycles 300000 data/bin/workloads/muldiv >/dev/null 2>&1"
check "--all without truth: edge10% is '-'" "'$IVX' dcpicalc --db $tmp/nt --all --json $tmp/nt.json | grep -Eq '^TOTAL +[0-9]+ .* +- +- +-$'"
check "... and null in the JSON" "grep -q '\"edges_within_5\":null,\"edges_within_10\":null' $tmp/nt.json"
# out of order: no culprit files, and the note says so (not "profile again")
check "--truth on an out-of-order profile: no culprit truth, said why" "'$IVX' dcpicalc --db $tmp/ooo --truth main >$tmp/ooo.out 2>&1 && grep -q 'no culprit truth in this profile (out-of-order runs record none)' $tmp/ooo.out && ! grep -q 'before database version 2' $tmp/ooo.out"

# Two programs in one epoch, each with its own period: each procedure's
# mean sampling period is its own program's (its period events over its
# own samples), its share of samples is of its own program's (the other
# program's samples say nothing about it), a name both programs have is
# ambiguous (-i chooses), and --all says which image each row is from.
check "profile muldiv at period 512" "prof two --period 512 --max-cycles 1000000 data/bin/workloads/muldiv"
check "dcpicalc on it alone" "'$IVX' dcpicalc --db $tmp/two --truth --json $tmp/two1.json main >$tmp/two1.out"
check "add branchy at period 2048" "'$IVX' profile --quiet $cfg --db $tmp/two --period 2048 --max-cycles 1000000 data/bin/workloads/branchy >/dev/null 2>&1"
err "main in both programs: ambiguous" --db "$tmp/two" main
check "... the line names both images and -i" "grep -q \"'main' has samples in 2 images of .*muldiv.*branchy\\|'main' has samples in 2 images of .*branchy.*muldiv\" $tmp/e && grep -q 'choose one with -i IMAGE' $tmp/e"
check "-i muldiv: the same period and estimates as alone" "'$IVX' dcpicalc --db $tmp/two -i muldiv --truth --json $tmp/two2.json main >$tmp/two2.out && cmp -s $tmp/two1.json $tmp/two2.json && grep 'one per' $tmp/two1.out >$tmp/p1 && grep 'one per' $tmp/two2.out | cmp -s - $tmp/p1"
summary_line() { grep '^\*\*\* (' "$1"; }
share_of_image() { # IMAGE: dcpicalc's share line of -i IMAGE's main is of IMAGE's samples, as dcpiprof -i counts them
	n=$("$IVX" dcpiprof --db "$tmp/two" -i "$1" | sed -n 's/^Total samples for event type cycles = \([0-9]*\),.*/\1/p')
	"$IVX" dcpicalc --db "$tmp/two" -i "$1" main >"$tmp/share-$1.out" &&
		summary_line "$tmp/share-$1.out" | grep -Eq "^\*\*\* \([0-9]+ samples, [0-9.]+% of the $n CYCLES samples of $1\)\$"
}
check "-i muldiv: the share is of muldiv's samples, the line as alone" "summary_line $tmp/two1.out >$tmp/s1 && summary_line $tmp/two2.out | cmp -s - $tmp/s1"
check "-i muldiv: ... of muldiv's samples" "share_of_image muldiv"
check "-i branchy: ... of branchy's samples" "share_of_image branchy"
check "-i branchy: one per ~2000 cycles" "'$IVX' dcpicalc --db $tmp/two -i branchy main | grep -Eq 'one per (19[0-9][0-9]|20[0-9][0-9])\.[0-9] cycles'"
check "--epoch 1 reads the same epoch" "'$IVX' dcpicalc --db $tmp/two --truth --epoch 1 -i $(pwd)/data/bin/workloads/muldiv main | cmp -s - $tmp/two2.out"
check "--all: an image column, one main per program" "'$IVX' dcpicalc --db $tmp/two --all --json $tmp/two-all.json >$tmp/two-all.out && grep -q ' edge10%  image$' $tmp/two-all.out && grep -q '^main .*/muldiv$' $tmp/two-all.out && grep -q '^main .*/branchy$' $tmp/two-all.out"
check "--all JSON names each procedure's image" "python3 -c \"import json; d=json.load(open('$tmp/two-all.json')); assert sorted(p['image'].split('/')[-1] for p in d['procedures'] if p['procedure']=='main')==['branchy','muldiv']\""
check "--all -i: one program, no image column" "'$IVX' dcpicalc --db $tmp/two --all -i branchy >$tmp/two-b.out && ! grep -q 'image' $tmp/two-b.out && ! grep -q __rt_start.*muldiv $tmp/two-b.out"

echo "dcpicalc-cli: $pass passed, $fail failed"
[ $fail = 0 ]
