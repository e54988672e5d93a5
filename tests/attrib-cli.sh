#!/bin/sh
# attrib-cli.sh [IVX] — `ivx attrib` end to end on kernels whose answer is
# known by construction:
#   k3_long_dmiss  one load misses to memory every iteration: under the
#                  oracle and TIP it owns the miss cycles (its causes are
#                  l2d), the last-committed policy puts them elsewhere;
#   k2_branch_miss isolated mispredictions: the oracle charges the flush
#                  (cause bpred) to branches and nothing else;
# and the command's contract: the oracle accounts for every cycle, TIP with
# a sample every cycle is exact, the same seed gives the same output and
# another seed other samples (and the same oracle), the JSON's raw units
# add up, JSON is well-formed, bad options exit 2.
IVX=${1:-${IVX:-build/ivx}}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
check() { if eval "$2"; then ok; else bad "$1"; fi; }

k3=data/bin/kernels/k3_long_dmiss
k2=data/bin/kernels/k2_branch_miss
[ -x "$k3" ] || { echo "attrib-cli: $k3 not built (make data)"; exit 1; }

check "attrib runs k3" "'$IVX' attrib --period 64 --json $tmp/k3.json $k3 -- miss 100 >$tmp/k3.txt 2>$tmp/err"
check "five policies listed" "grep -c '^\(head\|nci\|dispatch\|lci\|tip\) ' $tmp/k3.txt | grep -qx 5"
check "the missing load is the top instruction, all l2d" "sed -n '/^top /{n;n;p}' $tmp/k3.txt | grep -q 'ldr x2, \[x1\] .* l2d 100%'"
check "same seed, same output" "'$IVX' attrib --period 64 $k3 -- miss 100 | cmp -s - $tmp/k3.txt"
check "other seed, other samples" "! '$IVX' attrib --period 64 --seed 2 $k3 -- miss 100 | cmp -s - $tmp/k3.txt"
check "attrib runs k2" "'$IVX' attrib --period 64 --json $tmp/k2.json $k2 -- miss 100 >$tmp/k2.txt 2>$tmp/err"
if command -v python3 >/dev/null 2>&1; then
    check "k3 JSON: oracle accounts for every cycle; the load owns the misses" "python3 - $tmp/k3.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d['end'] == 'exit' and d['exit_code'] == 0 and d['complete'], (d['end'], d['complete'])
ins = d['instructions']
tot = sum(i['true_cycles'] for i in ins) + d['oracle']['unattributed_cycles']
assert abs(tot - d['cycles']) < 1e-3 * len(ins), (tot, d['cycles'])
assert abs(sum(d['oracle']['causes'].values()) - sum(i['true_cycles'] for i in ins)) < 1e-3 * len(ins)
top = ins[0]
l2d = top['causes'].get('l2d', 0)
assert l2d > 0.95 * top['true_cycles'], top
assert l2d > 0.85 * d['oracle']['causes']['l2d'], (l2d, d['oracle']['causes'])
# TIP: exact with a sample every cycle, close with samples
assert d['policies']['tip']['every_cycle']['error'] < 1e-4, d['policies']['tip']
assert abs(top['sampled_share']['tip'] - top['true_share']) < 0.05, top
# the last-committed policy charges the miss to an older instruction
assert top['every_cycle_share']['lci'] < 0.1 * top['true_share'], top
for p in ('head', 'nci', 'dispatch', 'lci'):
    assert d['policies'][p]['every_cycle']['error'] > d['policies']['tip']['every_cycle']['error']
PY"
    check "k3 JSON, seed 2: raw units add up, same oracle as seed 1, other samples" "'$IVX' attrib --period 64 --seed 2 --json $tmp/k3s2.json $k3 -- miss 100 >/dev/null 2>$tmp/err && python3 - $tmp/k3.json $tmp/k3s2.json <<'PY'
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
for d in (a, b):
    U = d['unit']
    assert sum(i['true_units'] for i in d['instructions']) + d['oracle']['unattributed_units'] == d['cycles'] * U
    for p, modes in d['policies'].items():
        for m, v in modes.items():
            assert sum(i[m + '_units'][p] for i in d['instructions']) == v['attributed_units'], (p, m)
    assert d['policies']['tip']['every_cycle']['attributed_units'] == d['cycles'] * U - d['oracle']['unattributed_units']
truth = lambda d: {i['pc']: i['true_units'] for i in d['instructions']}
assert truth(a) == truth(b) and a['cycles'] == b['cycles'] and a['seed'] == 1 and b['seed'] == 2
tip = lambda d: {i['pc']: i['sampled_units']['tip'] for i in d['instructions']}
assert tip(a) != tip(b)
PY"
    check "k2 JSON: flush cycles go to branches only" "python3 - $tmp/k2.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
bp = [i for i in d['instructions'] if i['causes'].get('bpred', 0) > 0]
assert bp and d['oracle']['causes']['bpred'] > 0, d['oracle']
for i in bp:
    assert i['instruction'].startswith(('b', 'cb', 'tb', 'ret')), i
assert d['policies']['tip']['every_cycle']['error'] < 1e-4
PY"
fi
check "a limit before the first commit: a note, no table, status 0, JSON errors null" "'$IVX' attrib --max-cycles 5 --json $tmp/none.json $k3 -- miss 2 >$tmp/o 2>$tmp/e &&
    [ ! -s $tmp/o ] && grep -qx 'ivx: no instruction committed before the --max-cycles limit (5 cycles): nothing to attribute' $tmp/e &&
    [ \$(wc -l <$tmp/e) -eq 1 ] && python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d[\"commits\"] == 0 and d[\"policies\"][\"tip\"][\"sampled\"][\"error\"] is None' $tmp/none.json"
check "--top limits the list" "'$IVX' attrib --top 2 --period 64 $k3 -- miss 2 | sed -n '/^top /,\$p' | wc -l | grep -qx 4"
check "bad period exits 2" "'$IVX' attrib --period 0 $k3 >/dev/null 2>$tmp/e; [ \$? -eq 2 ] && [ \$(wc -l <$tmp/e) -eq 1 ]"
check "spread >= period exits 2" "'$IVX' attrib --period 8:8 $k3 >/dev/null 2>$tmp/e; [ \$? -eq 2 ] && grep -q 'spread' $tmp/e"
check "bad capacity exits 2" "'$IVX' attrib --capacity 1000 $k3 >/dev/null 2>$tmp/e; [ \$? -eq 2 ] && grep -q 'power of two' $tmp/e"
check "missing program exits 2" "'$IVX' attrib $tmp/nope >/dev/null 2>$tmp/e; [ \$? -eq 2 ]"
check "--json refuses to overwrite the program" "cp $k3 $tmp/prog && '$IVX' attrib --json $tmp/prog $tmp/prog >/dev/null 2>&1; [ \$? -eq 2 ] && cmp -s $k3 $tmp/prog"
check "help" "'$IVX' attrib --help | grep -q 'usage: ivx attrib'"
echo "attrib-cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
