#!/bin/sh
# dcpicalc-merge.sh [IVX] — dcpicalc on a database that merges several
# runs, DCPI's own practice (`ivx profile` adds each run to the current
# epoch; `--seed` moves where the randomized sampling periods fall), and
# what tests/dcpicalc-validate.sh relies on with DCPICALC_VALIDATE_RUNS.
#
# muldiv is profiled for the same 2 M cycles with seed 1 alone, seed 2
# alone, and seeds 1 and 2 into one database. The run is deterministic, so
# in the merged database every instruction's true executions must be twice
# one run's, its CYCLES samples the two runs' sum, the mean sampling period
# one run's, and dcpicalc's accuracy must be measured against that merged
# truth: recomputed here from the instructions' samples, estimates and
# truth, and the estimates of the hot instructions within 5% of it (not of
# one run's, which would be 50% off).
IVX=${1:-${IVX:-build/ivx}}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
check() { if eval "$2"; then ok; else bad "$1"; fi; }
command -v python3 >/dev/null 2>&1 || { echo "dcpicalc-merge: needs python3"; exit 1; }
prof() { # DB SEED
	"$IVX" profile --quiet --config data/configs/inorder.ini --period 512 --max-cycles 2000000 --seed "$2" \
		--db "$tmp/$1" data/bin/workloads/muldiv >/dev/null 2>>"$tmp/err"
}
check "profile seed 1" "prof s1 1"
check "profile seed 2" "prof s2 2"
check "profile seeds 1 and 2 into one database" "prof m 1 && prof m 2"
check "one epoch in the merged database" "[ \$(ls -d $tmp/m/epoch-* | wc -l) -eq 1 ]"
for d in s1 s2 m; do
	check "dcpicalc $d" "'$IVX' dcpicalc --db $tmp/$d --truth --json $tmp/$d.json main >$tmp/$d.out 2>>$tmp/err"
done
check "the seeds sample differently" "! cmp -s $tmp/s1/epoch-0001/*.cycles.samples $tmp/s2/epoch-0001/*.cycles.samples"

check "merged truth and samples add up, estimates against the merged truth" "python3 - $tmp/s1.json $tmp/s2.json $tmp/m.json <<'PY'
import json, sys
a, b, m = (json.load(open(f)) for f in sys.argv[1:4])
ia, ib = ({i['pc']: i for i in x['instructions']} for x in (a, b))
assert m['samples'] == a['samples'] + b['samples'], (m['samples'], a['samples'], b['samples'])
assert abs(m['period'] - (a['period'] + b['period']) / 2) < 0.01 * a['period'], (m['period'], a['period'], b['period'])
total = within = 0
for i in m['instructions']:
    x, y = ia[i['pc']], ib[i['pc']]
    assert i['samples'] == x['samples'] + y['samples'], hex(i['pc'])
    assert x['freq_true'] == y['freq_true'], hex(i['pc'])
    assert i['freq_true'] == 2 * x['freq_true'], (hex(i['pc']), i['freq_true'], x['freq_true'])
    total += i['samples']
    e, t = i['freq_est'], i['freq_true']
    if e is not None and t and abs(e - t) <= 0.05 * t:
        within += i['samples']
    # the hot instructions: estimated on the merged scale, near the merged truth
    if i['samples'] >= 0.05 * m['samples'] and t:
        assert abs(e - t) <= 0.05 * t, (hex(i['pc']), e, t)
assert sum(i['freq_true'] for i in m['instructions']) == 2 * sum(i['freq_true'] for i in a['instructions'])
assert abs(m['accuracy']['freq_within_5'] - within / total) < 1e-5, (m['accuracy']['freq_within_5'], within / total)
assert m['accuracy']['dynamic_true_cycles'] == a['accuracy']['dynamic_true_cycles'] + b['accuracy']['dynamic_true_cycles']
PY"

# the validation script's number of runs is checked before anything runs
check "DCPICALC_VALIDATE_RUNS=0 is refused" "DCPICALC_VALIDATE_RUNS=0 tests/dcpicalc-validate.sh '$IVX' 4096 >$tmp/v.out 2>&1; [ \$? -eq 2 ] && grep -q 'not a positive number' $tmp/v.out"

[ "$fail" -eq 0 ] || cat "$tmp/err" >&2
echo "dcpicalc-merge: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
