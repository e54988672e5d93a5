#!/bin/sh
# strat-cli.sh [IVX] — `ivx strat` end to end: a program run with several
# compressors (text, JSON with the required keys, CSV, SVG), edge and call
# profiles together, --charge giving the handler cycles to the core,
# determinism, the Monte Carlo experiment, and one-line errors (exit 2)
# for bad specs and options.
IVX=${1:-${IVX:-build/ivx}}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }

w=data/bin/workloads/interp
[ -x "$w" ] || { echo "strat-cli: $w not built (make data)"; exit 1; }

# value profile, three compressors, every output
if "$IVX" strat --spec R256 --spec 'H[P256]2048' --spec 'H[P256]2048+A16' --json "$tmp/v.json" \
      --csv "$tmp/v.csv" --svg "$tmp/v.svg" "$w" -- 4 >"$tmp/out" 2>"$tmp/err"; then ok
else bad "strat exit status: $(cat "$tmp/err")"; fi
for word in "profile value" "R256" "H[P256]2048+A16" "interrupts" "overhead" "under-from" "invariance"; do
    if grep -qF -- "$word" "$tmp/out"; then ok; else bad "strat output lacks '$word'"; fi
done
if command -v python3 >/dev/null 2>&1; then
    if python3 - "$tmp/v.json" "$tmp/v.csv" "$tmp/v.svg" <<'PYEOF'
import json, sys, csv, xml.dom.minidom
d = json.load(open(sys.argv[1]))
for k in ("events", "messages", "overhead_fraction", "error", "curve"):
    assert k in d, k
assert d["seed"] == 1 and d["program"] == "data/bin/workloads/interp", (d.get("seed"), d["program"])
runs = d["runs"]
assert [r["spec"] for r in runs] == ["R256", "H[P256]2048", "H[P256]2048+A16"]
assert d["events"] > 10000 and all(r["events"] == d["events"] for r in runs)
for r in runs:
    # messages cost 214 an interrupt + 30 a message
    assert r["overhead_cycles"] == 214 * r["interrupts"] + 30 * r["messages"], r
    assert r["interrupts"] == (r["messages"] + 99) // 100, r
    assert len(r["curve"]) > 5 and r["curve"][-1][0] == d["events"]
    assert all(0 <= e <= 1 for _, e in r["curve"])
# R256 samples about 1 in 256
assert abs(runs[0]["samples"] - d["events"] / 256) < 6 * (d["events"] / 256) ** 0.5
# A16 is lossless: the same error, fewer messages
assert runs[1]["error"] == runs[2]["error"] and runs[1]["samples"] == runs[2]["samples"]
assert runs[2]["messages"] < runs[1]["messages"]
rows = list(csv.DictReader(open(sys.argv[2])))
assert {r["series"] for r in rows} == {"R256", "H[P256]2048", "H[P256]2048+A16"}
doc = xml.dom.minidom.parse(sys.argv[3])
assert len(doc.getElementsByTagName("polyline")) == 3
PYEOF
    then ok; else bad "JSON/CSV/SVG content (see above)"; fi
fi

# deterministic: the same run twice gives the same report
"$IVX" strat --spec R256 --spec 'T2[256]2048/2' "$w" -- 2 >"$tmp/a" 2>&1
"$IVX" strat --spec R256 --spec 'T2[256]2048/2' "$w" -- 2 >"$tmp/b" 2>&1
if cmp -s "$tmp/a" "$tmp/b"; then ok; else bad "two identical runs differ"; fi
# ... and another seed changes the random sampler
"$IVX" strat --seed 7 --spec R256 --spec 'T2[256]2048/2' "$w" -- 2 >"$tmp/c" 2>&1
if ! cmp -s "$tmp/a" "$tmp/c"; then ok; else bad "--seed does not change R256"; fi

# edge and call profiles at once, every component kind
if "$IVX" strat --profile edge,call --spec 'H[P256]2048' --spec 'D256+A16' --spec 'H[CR64]512' \
      --spec CM128x4 --spec SS85 --spec A16 --json "$tmp/e.json" "$w" -- 2 >"$tmp/out" 2>"$tmp/err"; then ok
else bad "edge,call exit status: $(cat "$tmp/err")"; fi
if grep -q 'edge ([1-9][0-9]* events) call ([1-9][0-9]* events)' "$tmp/out"; then ok; else bad "edge,call counts: $(head -2 "$tmp/out")"; fi
if grep -q '^call ' "$tmp/out" || grep -q '^edge ' "$tmp/out"; then ok; else bad "no edge/call tuples listed"; fi

# --charge: the handler's cycles go to the core
"$IVX" strat --spec P64 --json "$tmp/n.json" "$w" -- 2 >/dev/null 2>&1
"$IVX" strat --charge --spec P64 --json "$tmp/c.json" "$w" -- 2 >/dev/null 2>&1
if command -v python3 >/dev/null 2>&1; then
    if python3 - "$tmp/n.json" "$tmp/c.json" <<'PYEOF'
import json, sys
n, c = (json.load(open(f)) for f in sys.argv[1:3])
assert n["handler_cycles"] == 0
r = c["runs"][0]
# every interrupt but the last, taken after the program ended
last = 214 + 30 * (r["messages"] - 100 * (r["interrupts"] - 1))
assert c["handler_cycles"] == r["overhead_cycles"] - last > 0, (c["handler_cycles"], r)
assert c["cycles"] == n["cycles"] or abs(c["cycles"] - n["cycles"]) < n["cycles"] * 0.01
assert c["instructions"] == n["instructions"]
PYEOF
    then ok; else bad "--charge (see above)"; fi
fi

# --no-exact: the compressor alone, the same messages, no error
"$IVX" strat --no-exact --spec P64 --json "$tmp/x.json" "$w" -- 2 >/dev/null 2>&1
if command -v python3 >/dev/null 2>&1; then
    if python3 - "$tmp/n.json" "$tmp/x.json" <<'PYEOF'
import json, sys
n, x = (json.load(open(f)) for f in sys.argv[1:3])
assert x["error"] is None and x["curve"] == [], x
assert x["messages"] == n["messages"] and x["events"] == n["events"]
PYEOF
    then ok; else bad "--no-exact (see above)"; fi
fi

# Monte Carlo: the classes in order at one length, and deterministic
if "$IVX" strat --montecarlo --trials 150 --nmin 8000 --nmax 8000 --json "$tmp/m.json" >"$tmp/m1" 2>"$tmp/err"; then ok
else bad "montecarlo: $(cat "$tmp/err")"; fi
"$IVX" strat --montecarlo --trials 150 --nmin 8000 --nmax 8000 >"$tmp/m2" 2>&1
if cmp -s "$tmp/m1" "$tmp/m2"; then ok; else bad "montecarlo not deterministic"; fi
# --seed seeds the streams (it was ignored: always 1), 1 by default; the JSON says which
"$IVX" strat --montecarlo --trials 150 --nmin 8000 --nmax 8000 --seed 1 --json "$tmp/m1.json" >"$tmp/s1" 2>&1
"$IVX" strat --montecarlo --trials 150 --nmin 8000 --nmax 8000 --seed 2 --json "$tmp/m2.json" >"$tmp/s2" 2>&1
if cmp -s "$tmp/m1" "$tmp/s1" && ! cmp -s "$tmp/s1" "$tmp/s2" && grep -q '"seed":1}' "$tmp/m.json" &&
   grep -q '"seed":2}' "$tmp/m2.json"; then ok
else bad "montecarlo --seed: $(head -c 120 "$tmp/m2.json")"; fi
if command -v python3 >/dev/null 2>&1; then
    if python3 - "$tmp/m.json" <<'PYEOF'
import json, sys
d = {s["spec"]: s["curve"][0][1] for s in json.load(open(sys.argv[1]))["specs"]}
assert d["R10"] == d["H[R10]4"], d
assert d["R10"] > max(d["P10"], d["CR10"]) and min(d["P10"], d["CR10"]) > max(d["H[P10]4"], d["H[CR10]4"]), d
PYEOF
    then ok; else bad "montecarlo classes (see above)"; fi
fi
if "$IVX" strat --montecarlo --rate 4 --spec P10 --trials 10 --nmin 100 --nmax 100 | grep -q ' P4$'; then ok
else bad "--rate does not set the rate"; fi

# an error that never stays under the threshold: null, not -1
if "$IVX" strat --montecarlo --trials 10 --nmin 100 --nmax 200 --nstep 100 --json "$tmp/mn.json" >/dev/null &&
    grep -q '"under_threshold_from":null' "$tmp/mn.json" && ! grep -q '"under_threshold_from":-1' "$tmp/mn.json"
then ok; else bad "under_threshold_from is null when never under"; fi

# bad input: one line, exit 2
while IFS='|' read -r args want; do
    # shellcheck disable=SC2086
    eval "set -- $args"
    "$IVX" strat "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ "$rc" = 2 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && grep -qF -- "$want" "$tmp/err"; then ok
    else bad "strat $args: status $rc, stderr '$(cat "$tmp/err")', want '$want'"; fi
done <<'CASES'
--spec 'H[P256]2000' data/bin/workloads/interp|must be a power of two
--spec 'P256+P4' data/bin/workloads/interp|only an associative table may follow
--spec 'Q4'|at column 1 expected a stage
--spec ''|at column 1 expected a stage
--profile loads --spec P4|'loads' is not value, edge, call
--profile value, --spec P4|is not value, edge, call
--batch 99 --spec P4|not a number from 100
--spec P4 --spec R4 --charge data/bin/workloads/interp|it takes one --spec
--montecarlo data/bin/workloads/interp|takes no program
--montecarlo --nmin 5 --nmax 4|is above --nmax
--estimator mean --montecarlo|not sum or ratio
--montecarlo --charge|--charge applies to a program run only
--montecarlo --batch 200|--batch applies to a program run only
--montecarlo --max-insns 5|--max-insns applies to a program run only
--montecarlo --top 3|--top applies to a program run only
--spec R16 --rate 5 data/bin/workloads/interp|--rate applies to --montecarlo only
--spec R16 --trials 5 data/bin/workloads/interp|--trials applies to --montecarlo only
--spec R16 --estimator sum data/bin/workloads/interp|--estimator applies to --montecarlo only
--spec 'R256 ' data/bin/workloads/interp|a space after the spec
data/bin/workloads/interp|give a compressor with --spec
--spec P4 --json|needs a value
--spec P4 /nonexistent/prog|/nonexistent/prog
CASES

echo "strat-cli: $pass passed, $fail failed"
[ "$fail" = 0 ]
