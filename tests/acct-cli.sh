#!/bin/sh
# acct-cli.sh [IVX] — `ivx cpistack` and `ivx refstack` from the command line:
# exit status, the text report, the JSON (every method, every component, and
# the components add up to the CPI) and the SVG; bad options.
IVX=${1:-${IVX:-build/ivx}}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }

k=data/bin/kernels/k4_overlapping_dmiss
[ -x "$k" ] || { echo "acct-cli: $k not built (make data)"; exit 1; }

# cpistack with every output
if "$IVX" cpistack --json "$tmp/s.json" --svg "$tmp/s.svg" "$k" -- miss 20 >"$tmp/out" 2>"$tmp/err"; then ok
else bad "cpistack exit status $?: $(cat "$tmp/err")"; fi
for word in ref ref-inv naive naive-ns POWER5 FMT sFMT ivx "max component error" "Table 1" \
            "average penalty per correct-path event" "interval-analysis checks"; do
    if grep -q -- "$word" "$tmp/out"; then ok; else bad "cpistack output lacks '$word'"; fi
done

# JSON: every method with cpi and every component
for key in '"cpi":' '"methods":' '"naive":' '"naive_nonspec":' '"power5":' '"fmt":' '"sfmt":' '"ivx":' \
           '"ref":' '"ref_inverse":' '"components":' '"base":' '"l1i":' '"l2i":' '"itlb":' \
           '"l1d":' '"l2d":' '"dtlb":' '"bpred":' '"fu":' '"overlap":' '"penalties":'; do
    if grep -q -- "$key" "$tmp/s.json"; then ok; else bad "JSON lacks $key"; fi
done
if command -v python3 >/dev/null 2>&1; then
    # well-formed, and each method's components add up to its CPI, the same for all
    if python3 - "$tmp/s.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
ms = d["methods"]
assert set(ms) == {"naive", "naive_nonspec", "power5", "fmt", "sfmt", "ivx", "ref", "ref_inverse"}, ms.keys()
assert "max_error" in ms["ivx"] and "max_error" not in ms["ref"]
for name, m in ms.items():
    c = m["components"]
    assert set(c) == {"base", "l1i", "l2i", "itlb", "l1d", "l2d", "dtlb", "bpred", "fu"}, (name, c.keys())
    assert abs(sum(c.values()) - m["cpi"]) < 1e-4, (name, sum(c.values()), m["cpi"])
    assert abs(m["cpi"] - d["cpi"]) < 1e-4, (name, m["cpi"], d["cpi"])
# two overlapping misses: naive charges both
assert ms["naive"]["components"]["l2d"] > 1.5 * ms["ref"]["components"]["l2d"]
EOF
    then ok; else bad "JSON content (see above)"; fi
fi

# SVG: a complete document with bars, a legend and the method names
if head -c 200 "$tmp/s.svg" | grep -q '<svg' && tail -n 1 "$tmp/s.svg" | grep -q '</svg>'; then ok; else bad "SVG not a complete <svg> document"; fi
for word in '<rect' 'L2 D-cache' 'branch mispredict' 'base' 'FMT' 'sFMT' 'POWER5' 'ref-inv'; do
    if grep -q -- "$word" "$tmp/s.svg"; then ok; else bad "SVG lacks '$word'"; fi
done
if command -v xmllint >/dev/null 2>&1; then
    if xmllint --noout "$tmp/s.svg" 2>"$tmp/err"; then ok; else bad "SVG not well-formed: $(cat "$tmp/err")"; fi
fi

# The host's timing goes to stderr (and not at all with -q): the same run
# prints the same stdout, so `ivx cpistack > out` can be diffed
for cmd in "cpistack" "cpistack --no-ref" "refstack"; do
    # shellcheck disable=SC2086 # (word splitting wanted)
    "$IVX" $cmd --jobs 1 --max-insns 20k "$k" -- miss 20 >"$tmp/d1" 2>"$tmp/e1" &&
    "$IVX" $cmd --jobs 2 --max-insns 20k "$k" -- miss 20 >"$tmp/d2" 2>"$tmp/e2" &&
    "$IVX" $cmd -q --max-insns 20k "$k" -- miss 20 >"$tmp/d3" 2>"$tmp/e3"
    if cmp -s "$tmp/d1" "$tmp/d2" && cmp -s "$tmp/d1" "$tmp/d3" && ! grep -q 'M cycles/s\| s)' "$tmp/d1" &&
       grep -q 'simulation.* [0-9.]* s' "$tmp/e1" && ! grep -q 'simulation' "$tmp/e3"; then ok
    else bad "$cmd: stdout differs between identical runs, or host timing on stdout: $(diff "$tmp/d1" "$tmp/d2" | head -5)"; fi
done

# A limit before the first commit is a normal end (it was "the program
# committed no instructions", status 2): status 0, one note, and a JSON
# that says so, with no stacks
for cmd in "cpistack" "cpistack --no-ref" "refstack"; do
    rm -f "$tmp/n.json"
    # shellcheck disable=SC2086 # (word splitting wanted)
    "$IVX" $cmd -q --max-cycles 5 --json "$tmp/n.json" "$k" -- miss 20 >"$tmp/out" 2>"$tmp/err"
    st=$?
    if [ $st = 0 ] && [ "$(cat "$tmp/err")" = "ivx: no instruction committed before the --max-cycles limit (5 cycles): nothing to stack" ] &&
       [ ! -s "$tmp/out" ] &&
       grep -q '^{"program":"[^"]*","instructions":0,"cycles":5,"cpi":null,"end":"limit","limit":"max_cycles","seed":1,"methods":{}}$' "$tmp/n.json"
    then ok; else bad "$cmd --max-cycles 5: status $st, $(cat "$tmp/err") $(cat "$tmp/n.json")"; fi
done

# --no-ref: one simulation, counter stacks only
if "$IVX" cpistack --no-ref --max-insns 20k "$k" -- miss 20 >"$tmp/out" 2>"$tmp/err" &&
   grep -q "^ivx: one simulation" "$tmp/err" && ! grep -q "ref-inv" "$tmp/out"; then ok
else bad "cpistack --no-ref: $(cat "$tmp/err")"; fi

# --ref-fu and --summary need the reference: with --no-ref, one line, status 2
for o in --ref-fu --summary; do
    "$IVX" cpistack --no-ref $o "$k" -- miss 20 >"$tmp/out" 2>"$tmp/err"
    st=$?
    if [ "$st" = 2 ] && grep -q "^ivx: $o needs the reference stacks (drop --no-ref)" "$tmp/err"; then ok
    else bad "cpistack --no-ref $o: status $st, $(cat "$tmp/err")"; fi
done
# a --start-at that is never reached is named as such (it said "real run:")
"$IVX" cpistack --start-at main:2 data/bin/workloads/crc -- 1 >"$tmp/out" 2>"$tmp/err"
st=$?
if [ "$st" = 2 ] && grep -q "^ivx: --start-at main:2: the program exited before reaching" "$tmp/err"; then ok
else bad "cpistack --start-at main:2: status $st, $(cat "$tmp/err")"; fi

# a limit: status 0, which limit on stderr and in the JSON; a whole run says "exit"
if "$IVX" cpistack --no-ref --max-insns 5k --json "$tmp/l.json" "$k" -- miss 20 >"$tmp/out" 2>"$tmp/err" &&
   grep -q 'stopped at the --max-insns limit: the stacks cover 50[0-9][0-9] instructions' "$tmp/err" &&
   grep -q '"end":"limit","limit":"max_insns"' "$tmp/l.json"; then ok
else bad "cpistack --max-insns: $(cat "$tmp/err")"; fi
if "$IVX" cpistack -q --no-ref --json "$tmp/e.json" "$k" -- miss 20 >"$tmp/out" 2>"$tmp/err" &&
   [ ! -s "$tmp/err" ] && grep -q '"end":"exit"' "$tmp/e.json"; then ok
else bad "cpistack to the exit: $(cat "$tmp/err")"; fi

# a cycle limit: the reference runs cover the instructions the real run
# committed by then, not as many as each machine commits in those cycles
# (crc at 20000 cycles: base 54034, real 32442 before)
if "$IVX" refstack --max-cycles 20000 --json "$tmp/c.json" data/bin/workloads/crc -- 48 >"$tmp/out" 2>"$tmp/err" &&
   python3 -c '
import json, sys
runs = json.load(open(sys.argv[1]))["runs"]
real = [r for r in runs if r["name"] == "real"][0]
sys.exit(0 if real["cycles"] == 20000 and all(abs(r["instructions"] - real["instructions"]) <= 4 for r in runs) else 1)' "$tmp/c.json"
then ok
else bad "refstack --max-cycles: the runs' instructions differ: $(grep insns "$tmp/out")"; fi

# --summary: a header and one line of 23 tab-separated fields (the last three: the ivx counters)
if "$IVX" cpistack --summary "$k" -- miss 20 >"$tmp/out" 2>"$tmp/err" &&
   [ "$(grep -c '^#' "$tmp/out")" = 1 ] && [ "$(grep -v '^#' "$tmp/out" | awk -F'\t' '{print NF}')" = 23 ]; then ok
else bad "cpistack --summary: $(cat "$tmp/out" "$tmp/err")"; fi

# refstack: both orders and the runs (12 lines: +fu is the base run
# without --ref-fu, and is not listed again), JSON
if "$IVX" refstack --jobs 2 --json "$tmp/r.json" "$k" -- miss 20 >"$tmp/out" 2>"$tmp/err" &&
   grep -q normal "$tmp/out" && grep -q inverse "$tmp/out" && [ "$(grep -c ' cycles .* insns ' "$tmp/out")" = 12 ] &&
   ! grep -q '^  +fu ' "$tmp/out" &&
   grep -q '"ref_inverse":' "$tmp/r.json" && grep -q '"runs":' "$tmp/r.json"; then ok
else bad "refstack: $(cat "$tmp/err")"; fi

# The paper's reference by default: long-latency units real from the base
# run on (the +fu run is the base run, simulated once, and the reference's
# fu component is 0); --ref-fu adds ivx's long-latency step, a 13th run.
# muldiv's multiplies and divides make the difference visible.
m=data/bin/workloads/muldiv
if "$IVX" refstack --json "$tmp/pr.json" "$m" -- 1 >"$tmp/out" 2>"$tmp/err" &&
   "$IVX" refstack --ref-fu --json "$tmp/fr.json" "$m" -- 1 >"$tmp/out2" 2>>"$tmp/err" &&
   grep -q "^ivx: 12 simulations" "$tmp/err" && grep -q "the paper's reference" "$tmp/out" &&
   grep -q "^ivx: 13 simulations" "$tmp/err" && grep -q -- "--ref-fu" "$tmp/out2"; then ok
else bad "refstack paper / --ref-fu: $(cat "$tmp/out" "$tmp/out2" "$tmp/err")"; fi
if command -v python3 >/dev/null 2>&1; then
    if python3 - "$tmp/pr.json" "$tmp/fr.json" <<'EOF2'
import json, sys
p, f = (json.load(open(a)) for a in sys.argv[1:3])
assert p["reference"] == "paper" and f["reference"] == "fu-step", (p["reference"], f["reference"])
runs = {r["name"]: r["cycles"] for r in p["runs"]}
assert runs["+fu"] == runs["base"], runs
pc, fc = p["methods"]["ref"]["components"], f["methods"]["ref"]["components"]
assert pc["fu"] == 0 and fc["fu"] > 0.05, (pc["fu"], fc["fu"])
# the same machine from the L1 D-cache step on: base + fu agree
assert abs((pc["base"] + pc["fu"]) - (fc["base"] + fc["fu"])) < 1e-4, (pc, fc)
assert abs(pc["bpred"] - fc["bpred"]) < 1e-4
EOF2
    then ok; else bad "refstack paper vs --ref-fu JSON (see above)"; fi
    # cpistack compares the counters' fu inside base against the paper's reference
    if "$IVX" cpistack --json "$tmp/pc.json" "$m" -- 1 >/dev/null 2>"$tmp/err" && python3 - "$tmp/pc.json" <<'EOF2'
import json, sys
d = json.load(open(sys.argv[1]))
ms = d["methods"]; ref = ms["ref"]["components"]
f = ms["fmt"]; c = f["components"]
rows = [abs((c["base"] + c["fu"]) - (ref["base"] + ref["fu"]))]
rows += [abs(c[k] - ref[k]) for k in c if k not in ("base", "fu")]
assert abs(max(rows) / d["cpi"] - f["max_error"]) < 1e-5, (max(rows) / d["cpi"], f["max_error"])
assert c["fu"] > 0.05   # the counters still measure it, shown as their own row
EOF2
    then ok; else bad "cpistack fold of fu into base: $(cat "$tmp/err")"; fi
fi

# icache on the 16-wide core of data/configs/big.ini: its code misses the
# L1 I-cache on every line, but the backend nearly bounds it as much, so
# those misses cost little while an L2 I-miss costs its whole latency. The
# ivx counters' excess is the short events' (acct_ivx.c, ivx_scale): L2I
# keeps its cycles and L1I gives them up.
if command -v python3 >/dev/null 2>&1; then
    if "$IVX" cpistack -q --max-insns 300k --config data/configs/big.ini --json "$tmp/w.json" \
           data/bin/workloads/icache -- 100 >/dev/null 2>"$tmp/err" &&
       python3 - "$tmp/w.json" <<'EOF2'
import json, sys
d = json.load(open(sys.argv[1]))
ref, ivx = d["methods"]["ref"]["components"], d["methods"]["ivx"]["components"]
for k in ("l1i", "l2i"):   # (0.27 CPI off each when shared in proportion)
    assert abs(ivx[k] - ref[k]) < 0.03 * d["cpi"], (k, ivx[k], ref[k], d["cpi"])
EOF2
    then ok; else bad "cpistack, icache on a 16-wide core: the L1I / L2I split $(cat "$tmp/err")"; fi
fi

# the shared run options: -o reaches the machine (a perfect predictor leaves
# nothing to mispredict)
if "$IVX" cpistack --no-ref -o perfect.bpred=1 --json "$tmp/p.json" "$k" -- miss 20 >/dev/null 2>"$tmp/err" &&
   grep -q '"bpred":0.000000' "$tmp/p.json"; then ok
else bad "cpistack -o perfect.bpred=1: $(cat "$tmp/err")"; fi

# bad input: status 2 and one line on stderr
for args in "--jobs 0 $k" "--jobs x $k" "--json" "--frobnicate $k" "--summary --no-ref $k" "/nonexistent"; do
    # shellcheck disable=SC2086
    "$IVX" cpistack $args >/dev/null 2>"$tmp/err"
    st=$?
    if [ "$st" = 2 ] && [ "$(wc -l <"$tmp/err")" = 1 ]; then ok; else bad "cpistack $args: status $st, stderr: $(cat "$tmp/err")"; fi
done
# a program that ends in the fast-forward: nothing was timed, and the line
# says why (not "no instructions"), in both commands
for cmd in cpistack refstack; do
    "$IVX" $cmd --quiet --fastforward 100M "$k" -- miss 20 >/dev/null 2>"$tmp/err"
    st=$?
    if [ "$st" = 2 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && grep -q 'ended during --fastforward' "$tmp/err"; then ok
    else bad "$cmd --fastforward past the end: status $st, stderr: $(cat "$tmp/err")"; fi
done
"$IVX" cpistack --quiet --fastforward 1M "$k" -- nosuchmode >/dev/null 2>"$tmp/err"
st=$?
if [ "$st" = 2 ] && grep -q 'exited with status [1-9][0-9]* before timing started' "$tmp/err"; then ok
else bad "cpistack, a program failing in the fast-forward: status $st, stderr: $(cat "$tmp/err")"; fi
"$IVX" refstack --svg x.svg "$k" >/dev/null 2>"$tmp/err"
if [ $? = 2 ]; then ok; else bad "refstack --svg should be unknown"; fi

echo "acct-cli: $pass passed, $fail failed"
[ "$fail" = 0 ]
