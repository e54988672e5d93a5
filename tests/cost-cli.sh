#!/bin/sh
# cost-cli.sh [IVX] — `ivx cost`, the true cost of miss events measured by
# running each sampled event with and without it, on micro-kernels whose
# answer interval analysis gives:
#   - an isolated L1 I-cache miss costs the L2 latency (9 cycles);
#   - each of k3's deliberate long misses (the `ldr x2, [x1]` of its loop,
#     the only loads that go to memory once the kernel runs) costs about the
#     memory latency, 250 cycles, less what the ROB hides (200-260);
#   - a misprediction costs about its resolution time plus the frontend.
# Also: the same seed measures the same events; bad options are status 2
# with one line.
IVX=${1:-${IVX:-build/ivx}}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
for k in k1_icache_miss k2_branch_miss k3_long_dmiss; do
    [ -x data/bin/kernels/$k ] || { echo "cost-cli: data/bin/kernels/$k not built (make data)"; exit 1; }
done

if "$IVX" cost --event l1i --sample 30 --json "$tmp/l1i.json" data/bin/kernels/k1_icache_miss -- miss 20 >"$tmp/out" 2>"$tmp/err" &&
   grep -q "true cost of l1i events" "$tmp/out" && grep -q "FMT" "$tmp/out"; then ok
else bad "cost --event l1i: $(cat "$tmp/err")"; fi
python3 - "$tmp/l1i.json" <<'PY' && ok || bad "k1: every sampled L1 I-miss costs the L2 latency (9)"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["event"] == "l1i" and d["sampled"] == 30 and d["events"] >= 30, d
pen = [s["penalty"] for s in d["samples"]]
assert all(p == 9 for p in pen), pen
PY

ldr=$("$IVX" disasm data/bin/kernels/k3_long_dmiss |
      awk '/<loop>:/ { in_loop = 1 } in_loop && /ldr x2, \[x1\]/ { sub(":", "", $1); print $1; exit }')
if "$IVX" cost --event l2d --sample 60 --json "$tmp/l2d.json" data/bin/kernels/k3_long_dmiss -- miss 20 >/dev/null 2>"$tmp/err" &&
   [ -n "$ldr" ]; then ok; else bad "cost --event l2d on k3 (ldr at '$ldr'): $(cat "$tmp/err")"; fi
python3 - "$tmp/l2d.json" "$ldr" <<'PY' && ok || bad "k3: each deliberate long miss costs 200-260 cycles"
import json, sys
d = json.load(open(sys.argv[1]))
ldr = int(sys.argv[2], 16)
pen = [s["penalty"] for s in d["samples"] if s["pc"] == ldr and not s.get("program_ended")]
assert len(pen) >= 5, pen
assert all(200 <= p <= 260 for p in pen), pen
PY

if "$IVX" cost --event mispredict --sample 40 --seed 7 --json "$tmp/bp.json" data/bin/kernels/k2_branch_miss -- miss 20 >/dev/null 2>"$tmp/err"; then ok
else bad "cost --event mispredict: $(cat "$tmp/err")"; fi
python3 - "$tmp/bp.json" <<'PY' && ok || bad "k2: a misprediction costs about resolution + frontend (median 5-15 cycles)"
import json, sys
d = json.load(open(sys.argv[1]))
assert 5 <= d["true_penalty"]["median"] <= 15, d["true_penalty"]
PY

# deterministic: the same seed measures the same events, the same way
"$IVX" cost --event mispredict --sample 40 --seed 7 --json "$tmp/bp2.json" data/bin/kernels/k2_branch_miss -- miss 20 >/dev/null 2>&1
if cmp -s "$tmp/bp.json" "$tmp/bp2.json"; then ok; else bad "cost is not deterministic for one seed"; fi
"$IVX" cost --event mispredict --sample 40 --seed 8 --json "$tmp/bp3.json" data/bin/kernels/k2_branch_miss -- miss 20 >/dev/null 2>&1
if ! cmp -s "$tmp/bp.json" "$tmp/bp3.json"; then ok; else bad "another seed picks the same sample"; fi

# an event of the first cycle: k1's I-TLB misses (the first is at cycle 0;
# core_run's limit 0 is none, and this used to run the whole program and
# measure 0 for every event of the sample)
if "$IVX" cost --event itlb --sample 10 --json "$tmp/itlb.json" data/bin/kernels/k1_icache_miss -- miss 20 >/dev/null 2>"$tmp/err"; then ok
else bad "cost --event itlb: $(cat "$tmp/err")"; fi
python3 - "$tmp/itlb.json" <<'PY' && ok || bad "k1: I-TLB misses, the first at cycle 0, each cost something"
import json, sys
d = json.load(open(sys.argv[1]))
s = d["samples"]
assert s and s[0]["cycle"] == 0, s
assert all(x["penalty"] > 0 and not x.get("program_ended") for x in s), s
PY

# a program that fails (here: a usage error) is an error, as for cpistack,
# and the JSON file is left alone
echo keep >"$tmp/keep.json"
"$IVX" cost --event l2d --json "$tmp/keep.json" data/bin/kernels/k3_long_dmiss -- bogus >/dev/null 2>"$tmp/err"
st=$?
if [ "$st" = 2 ] && grep -q "exited with status" "$tmp/err" && [ "$(cat "$tmp/keep.json")" = keep ]; then ok
else bad "cost of a failing program: status $st, stderr: $(cat "$tmp/err")"; fi

for args in "data/bin/kernels/k1_icache_miss" "--event bogus data/bin/kernels/k1_icache_miss" \
            "--event rob_full data/bin/kernels/k1_icache_miss" "--event l1i --sample 0 data/bin/kernels/k1_icache_miss" \
            "--event l1i /nonexistent"; do
    # shellcheck disable=SC2086
    "$IVX" cost $args >/dev/null 2>"$tmp/err"
    st=$?
    if [ "$st" = 2 ] && [ "$(wc -l <"$tmp/err")" = 1 ]; then ok; else bad "cost $args: status $st, stderr: $(cat "$tmp/err")"; fi
done

# A limit chooses which events are sampled, not how far their runs go: the
# last long miss before --max-cycles costs what it costs without the limit
# (it was cut to 153 of its 254 cycles, and info cost said 254), and the
# limit is named on stderr
"$IVX" cost --event l2d --sample 1000 --json "$tmp/all.json" data/bin/kernels/k3_long_dmiss -- miss 2 >/dev/null 2>&1
if "$IVX" cost --event l2d --sample 1000 --max-cycles 15740 --json "$tmp/lim.json" data/bin/kernels/k3_long_dmiss -- miss 2 \
	>/dev/null 2>"$tmp/err" && grep -q "(--max-cycles limit reached): the events before it were sampled" "$tmp/err" &&
   python3 - "$tmp/all.json" "$tmp/lim.json" <<'PY'
import json, sys
full = {e["seq"]: e["penalty"] for e in json.load(open(sys.argv[1]))["samples"]}
cut = json.load(open(sys.argv[2]))["samples"]
sys.exit(0 if cut and 1884 in {e["seq"] for e in cut} and all(full[e["seq"]] == e["penalty"] for e in cut) else 1)
PY
then ok; else bad "cost under --max-cycles: penalties differ from the whole run's: $(cat "$tmp/err")"; fi

# The run's fields, as the other commands' JSON has them: seed, cycles,
# instructions and how it ended
python3 - "$tmp/all.json" "$tmp/lim.json" "$tmp/bp.json" <<'PY' && ok || bad "cost JSON: seed, cycles, instructions, end"
import json, sys
a, l, b = (json.load(open(f)) for f in sys.argv[1:4])
assert (a["end"], a["exit_code"], a["seed"]) == ("exit", 0, 1) and a["cycles"] > 15740 and a["instructions"] > 0, a
assert (l["end"], l["limit"], l["cycles"]) == ("limit", "max_cycles", 15740) and "exit_code" not in l, l
assert b["seed"] == 7, b["seed"]
PY

# No event of the kind: said in the text, and the statistics are null in
# the JSON (they were 0.000, a penalty and a charge of 0 cycles)
if "$IVX" cost --event l1i --max-insns 20k --json "$tmp/none.json" data/bin/workloads/crc -- 48 >"$tmp/out" 2>"$tmp/err" &&
   grep -q "no l1i event on the correct path: nothing to measure" "$tmp/out" &&
   python3 - "$tmp/none.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["events"] == 0 and d["sampled"] == 0 and d["samples"] == [], d
assert all(v is None for v in d["true_penalty"].values()), d["true_penalty"]
assert all(v is None for v in d["charged"].values()), d["charged"]
PY
then ok; else bad "cost with no event: $(cat "$tmp/out") $(cat "$tmp/none.json")"; fi

echo "cost-cli: $pass passed, $fail failed"
[ "$fail" = 0 ]
