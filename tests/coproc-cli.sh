#!/bin/sh
# coproc-cli.sh [IVX] — `ivx coproc` and `ivx coproc-asm` from the command
# line: the shipped programs assemble and list, and each listing assembles
# and lists the same; a program's size parameters apply before its check;
# bad programs, names and settings are refused with one line and status
# 2; the value profile's JSON has its keys and is consistent (recomputes
# weighted_error from the loads); co-processor cycles are reported with
# the core cycles they took; edge and call-stack profiles under the stall policy equal the
# exact ones; drop vs stall show in the counters; the random tagger
# removes the comb a full buffer puts over muldiv's values; --fates
# accounts for every load execution once and leaves the profile as it is.
IVX=${1:-${IVX:-build/ivx}}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
w=data/bin/workloads/crc
[ -x "$w" ] || { echo "coproc-cli: $w not built (make data)"; exit 1; }

# A file with its .include lines replaced by the files they name (relative
# to its directory), as the assembler reads it.
expand() (
    dir=$(dirname "$1")
    while IFS= read -r l; do
        case "$l" in
        *'.include "'*) f=${l#*\"}; expand "$dir/${f%%\"*}" ;;
        *) printf '%s\n' "$l" ;;
        esac
    done <"$1"
)
for p in value edge callstack value_topk value_topk_ipw value_topk_ring value_topk_adapt value_topk_even value_topk_first value_topk_young; do
    if "$IVX" coproc-asm "$p" >"$tmp/l" 2>"$tmp/e"; then ok; else bad "coproc-asm $p: $(cat "$tmp/e")"; fi
    n=$(grep -v '^\.' "$tmp/l" | grep -c '; @[0-9][0-9]*$')
    # (a label alone on its line names the next microinstruction)
    src=$(expand "data/coproc/$p.s" | sed 's/;.*//; s/^[A-Za-z_][A-Za-z0-9_.]*://' | grep -v '^ *\.' | grep -c '[a-z]')
    [ "$n" = "$src" ] && ok || bad "coproc-asm $p lists $n microinstructions, the source has $src"
done
# The value_topk programs share microcode through data/coproc/lib/: each
# lists byte for byte as it did when it was one file (the listings in
# tests/coproc-listings were made from those files, before the split)
for l in tests/coproc-listings/*.lst; do
    p=$(basename "$l" .lst)
    "$IVX" coproc-asm "$p" >"$tmp/l" 2>"$tmp/e" && cmp -s "$tmp/l" "$l" && ok ||
        bad "coproc-asm $p differs from $l: $(cat "$tmp/e"; diff "$l" "$tmp/l" | head -5)"
done
[ "$(ls tests/coproc-listings/*.lst | wc -l)" -ge 3 ] && grep -q '^ *\.include "lib/' data/coproc/value_topk.s && ok ||
    bad "value_topk.s includes no lib/ file, or tests/coproc-listings lacks listings"
# An included file's mistake: its file and line, then the includes that
# led to it; a missing included file: one line, status 2
mkdir -p "$tmp/inc/lib"
printf '.classes load\n.fields pc\n.dfe load s\ns: nop\n.include "lib/a.s"\n' >"$tmp/inc/p.s"
printf '  nop\n  .include "b.s"   ; the next\n' >"$tmp/inc/lib/a.s"
printf '; b\n  frob v1\n' >"$tmp/inc/lib/b.s"
check_refusal() {   # expected-substring command...
    want=$1; shift
    "$@" >"$tmp/o" 2>"$tmp/e"; st=$?
    if [ "$st" = 2 ] && [ "$(wc -l <"$tmp/e")" = 1 ] && grep -q -- "$want" "$tmp/e"; then ok
    else bad "$*: status $st, stderr: $(cat "$tmp/e") (want '$want')"; fi
}
check_refusal "ivx: $tmp/inc/lib/b.s:2: unknown operation 'frob' (included from $tmp/inc/lib/a.s:2, from $tmp/inc/p.s:5)$" \
    "$IVX" coproc-asm "$tmp/inc/p.s"
rm "$tmp/inc/lib/a.s"
check_refusal "ivx: $tmp/inc/p.s:5: cannot include \"lib/a.s\": $tmp/inc/lib/a.s: cannot open: No such file or directory$" \
    "$IVX" coproc-asm "$tmp/inc/p.s"
printf '.include "../p.s"\n' >"$tmp/inc/lib/a.s"
# --json over an included file is refused before the run, as over the program
mkdir -p "$tmp/ow/lib"
printf '.handler none\n.classes load\n.fields pc\n.dfe load s\ns: .include "lib/a.s"\n' >"$tmp/ow/p.s"
printf '  nop -> DONE\n' >"$tmp/ow/lib/a.s"
check_refusal "ivx: --json $tmp/ow/lib/a.s would overwrite a file the --program file includes$" \
    "$IVX" coproc --program "$tmp/ow/p.s" --json "$tmp/ow/lib/a.s" "$w" -- 1
grep -q '^  nop -> DONE$' "$tmp/ow/lib/a.s" && ok || bad "--json overwrote an included file"
check_refusal "ivx: $tmp/inc/lib/a.s:1: .include \"../p.s\": an include cycle ($tmp/inc/p.s is being included already) (included from $tmp/inc/p.s:5)$" \
    "$IVX" coproc --program "$tmp/inc/p.s" "$w" -- 1
# The listing is source: every shipped program's listing assembles, and
# lists the same (test_coproc_asm compares the programs themselves)
for f in data/coproc/*.s; do
    "$IVX" coproc-asm "$f" 2>/dev/null | sed 1d >"$tmp/l1.s"
    if "$IVX" coproc-asm "$tmp/l1.s" 2>"$tmp/e" | sed 1d >"$tmp/l2.s" && [ ! -s "$tmp/e" ] && [ -s "$tmp/l1.s" ] &&
       cmp -s "$tmp/l1.s" "$tmp/l2.s"; then ok
    else bad "coproc-asm $f: its listing does not list the same: $(cat "$tmp/e"; diff "$tmp/l1.s" "$tmp/l2.s" | head -3)"; fi
done
"$IVX" coproc-asm data/coproc/value.s >/dev/null 2>&1 && ok || bad "coproc-asm by path"

# the settings list
"$IVX" coproc -C help 2>&1 | grep -q "^  clock_div  *1  *core cycles per co-processor cycle" && ok || bad "coproc -C help"

# refusals: one line, status 2
printf '.classes load\n.fields pc\n.dfe load s\ns: nop\n  frob v1\n' >"$tmp/bad.s"
check_refusal "$tmp/bad.s:5: unknown operation 'frob'" "$IVX" coproc-asm "$tmp/bad.s"
check_refusal "$tmp/bad.s:5: unknown operation 'frob'" "$IVX" coproc --program "$tmp/bad.s" "$w" -- 1
check_refusal "no co-processor program 'nosuch'" "$IVX" coproc --program nosuch "$w" -- 1
check_refusal "cannot open" "$IVX" coproc-asm "$tmp/missing.s"
head -c 1100000 /dev/zero | tr '\0' '\n' >"$tmp/huge.s"
check_refusal "huge.s: larger than 1 MB, not a co-processor program" "$IVX" coproc-asm "$tmp/huge.s"
check_refusal "--program NAME|FILE is required" "$IVX" coproc "$w" -- 1
check_refusal "unknown coproc setting 'colour'" "$IVX" coproc --program value -C colour=1 "$w" -- 1
check_refusal "coproc buffer: 0 is outside" "$IVX" coproc --program value -C buffer=0 "$w" -- 1
check_refusal "usage: ivx coproc-asm" "$IVX" coproc-asm
check_refusal "coproc tagrate: 3 is not a power of two" "$IVX" coproc --program value -C tagrate=3 "$w" -- 1
check_refusal "coproc policy: 'maybe' is not stall, drop or replace" "$IVX" coproc --program value -C policy=maybe "$w" -- 1
check_refusal "has [0-9]* microinstructions; the microcode array holds 16" \
    "$IVX" coproc --program value -C ucode=16 "$w" -- 1
check_refusal "--estimate: 'best': expected top (the paper's) or shrink (ours)" \
    "$IVX" coproc --program value --estimate best "$w" -- 1
check_refusal "--estimate shrink is for value programs; edge builds a branch profile" \
    "$IVX" coproc --program edge --estimate shrink "$w" -- 1

# The random tagger: muldiv's hot load reads 8 values in a fixed order;
# with every load tagged (tagrate=1) a full buffer lets in a comb over
# that order and the profile's error is large; tagged at random (the
# default governor) it is not, and the JSON counts the skipped loads.
m=data/bin/workloads/muldiv
if "$IVX" coproc --program value --json "$tmp/g.json" "$m" -- 1 >/dev/null 2>"$tmp/e" &&
   "$IVX" coproc --program value -C tagrate=1 --json "$tmp/c.json" "$m" -- 1 >/dev/null 2>>"$tmp/e"; then ok
else bad "coproc value on muldiv: $(cat "$tmp/e")"; fi
if command -v python3 >/dev/null 2>&1; then
    if python3 - "$tmp/g.json" "$tmp/c.json" <<'PY'
import json, sys
g = json.load(open(sys.argv[1])); c = json.load(open(sys.argv[2]))
assert g["stats"]["untagged"] > 0 and g["stats"]["tag_shift"] >= 0, g["stats"]
assert c["stats"]["untagged"] == 0 and c["stats"]["tag_shift"] == 0, c["stats"]
assert c["weighted_error"] > 0.15, c["weighted_error"]
assert g["weighted_error"] < 0.10, g["weighted_error"]
PY
    then ok; else bad "the random tagger does not remove muldiv's comb"; fi
fi
"$IVX" coproc -C help 2>&1 | grep -q "^  tagrate  *0 " && ok || bad "coproc -C help lacks tagrate"

# value profile with JSON
if "$IVX" coproc --program value --json "$tmp/v.json" "$w" -- 1 >"$tmp/out" 2>"$tmp/err"; then ok
else bad "coproc value: $(cat "$tmp/err")"; fi
for word in "execution-weighted |invariance error|" "tagged" "buffer:" "co-processor:" "invariance" ; do
    grep -q -- "$word" "$tmp/out" && ok || bad "value output lacks '$word'"
done
for key in '"loads":' '"pc":' '"invariance_est":' '"invariance_true":' '"executions":' \
           '"overhead_fraction":' '"weighted_error":' '"stats":'; do
    grep -q -- "$key" "$tmp/v.json" && ok || bad "value JSON lacks $key"
done
if command -v python3 >/dev/null 2>&1; then
    if python3 - "$tmp/v.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
# program: the co-processor's; workload: the guest; the seeds
assert (d["program"], d["seed"], d["coproc_seed"]) == ("value", 1, 1), (d["program"], d["seed"], d["coproc_seed"])
assert d["workload"] == "data/bin/workloads/crc", d["workload"]
loads = d["loads"]
assert loads, "no loads"
num = sum(l["executions"] * abs(l["invariance_est"] - l["invariance_true"]) for l in loads)
den = sum(l["executions"] for l in loads)
assert abs(num / den - d["weighted_error"]) < 1e-5, (num / den, d["weighted_error"])
for l in loads:
    assert 0 <= l["invariance_true"] <= 1 and 0 <= l["invariance_est"] <= 1, l
assert 0 < d["overhead_fraction"] < 0.5, d["overhead_fraction"]
# the profile is worth having: under 5 points on this workload
assert d["weighted_error"] < 0.05, d["weighted_error"]
# the paper's measure and the coverage counts
assert 0 <= d["weighted_rms_error"] <= 1, d["weighted_rms_error"]
assert d["profiled_loads"] == sum(1 for l in loads if l["samples"] > 0), d["profiled_loads"]
unprof = sum(l["executions"] for l in loads if l["samples"] == 0) / den
assert abs(unprof - d["unprofiled_fraction"]) < 1e-5, (unprof, d["unprofiled_fraction"])
PY
    then ok; else bad "value JSON inconsistent"; fi
fi

# the same run twice gives the same profile (determinism)
"$IVX" coproc --program value --json "$tmp/v2.json" "$w" -- 1 >/dev/null 2>&1
cmp -s "$tmp/v.json" "$tmp/v2.json" && ok || bad "two runs differ"

# --fates: every correct-path execution of a load has exactly one fate, a
# load's samples are records it wrote, and counting them changes nothing
for p in value value_topk value_topk_ipw value_topk_ring value_topk_adapt value_topk_even value_topk_first value_topk_young; do
    "$IVX" coproc --program $p --json "$tmp/f0.json" data/bin/workloads/strproc >/dev/null 2>&1
    if "$IVX" coproc --program $p --fates --json "$tmp/f.json" data/bin/workloads/strproc >/dev/null 2>"$tmp/e"; then ok
    else bad "coproc --fates: $(cat "$tmp/e")"; fi
    if command -v python3 >/dev/null 2>&1; then
        if python3 - "$tmp/f.json" "$tmp/f0.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); d0 = json.load(open(sys.argv[2]))
keys = ("fates", "recorded_top_share", "recorded_true_top_share", "masked_true_top_share",
        "eligible_top_share", "eligible_true_top_share", "tagged_top_share", "tagged_eligible_top_share",
        "recorded_eligible_top_share", "sampled_top_share")
for l in d["loads"]:
    f = l["fates"]
    assert sum(f.values()) == l["executions"], l
    assert l["samples"] <= f["recorded"], l
    assert f["recorded"] == 0 or 0 < l["recorded_top_share"] <= 1, l
    if f["recorded"]:
        # the random-sample expectation: exact for a load with one value,
        # and never below 1/records
        assert 0 <= l["recorded_eligible_top_share"] <= 1 and 0 <= l["tagged_eligible_top_share"] <= 1, l
        assert l["sampled_top_share"] >= 1 / f["recorded"] - 1e-6, l
        assert l["eligible_top_share"] < 1 or l["sampled_top_share"] == 1, l
strip = [{k: v for k, v in l.items() if k not in keys} for l in d["loads"]]
assert strip == d0["loads"] and d["weighted_error"] == d0["weighted_error"]
assert sum(l["fates"]["recorded"] for l in d["loads"]) == d["stats"]["records"]
PY
        then ok; else bad "coproc --fates ($p) inconsistent"; fi
    fi
done
python3 tests/tools/coproc-fates.py "$tmp/f.json" >"$tmp/fates" 2>&1
grep -q "^error .* points: never sampled" "$tmp/fates" && grep -q "sampling in the windows: random tagger" "$tmp/fates" \
    && ok || bad "tests/tools/coproc-fates.py: $(cat "$tmp/fates")"

# edge and call stack under stall: exact
"$IVX" coproc --program edge -C policy=stall "$w" -- 1 >"$tmp/edge" 2>&1
grep -q "; 0 with counts different from the exact profile" "$tmp/edge" && ok || bad "edge profile not exact: $(tail -1 "$tmp/edge")"
"$IVX" coproc --program callstack -C policy=stall data/bin/workloads/recurse -- 1 >"$tmp/cs" 2>&1
grep -q " 0 depths differ from the exact profile" "$tmp/cs" && ok || bad "call-stack profile not exact: $(tail -1 "$tmp/cs")"

# a tiny buffer: drop loses records, stall costs cycles
"$IVX" coproc --program value -C buffer=1 -C clock_div=4 "$w" -- 1 >"$tmp/d" 2>&1
grep -q "buffer: [0-9]* records, [1-9][0-9]* dropped" "$tmp/d" && ok || bad "drop policy dropped nothing: $(grep buffer: "$tmp/d")"
"$IVX" coproc --program value -C buffer=1 -C clock_div=4 -C policy=stall "$w" -- 1 >"$tmp/s" 2>&1
grep -q "buffer stalls [1-9]" "$tmp/s" && ok || bad "stall policy charged nothing: $(grep cycles "$tmp/s")"
grep -q "buffer: [0-9]* records, 0 dropped" "$tmp/s" && ok || bad "stall policy dropped"

# baseline at equal overhead, and the series
"$IVX" coproc --program value --baseline --interval 100000 --json "$tmp/b.json" "$w" -- 1 >"$tmp/b" 2>&1
grep -q "^baseline (interrupt per sampled load" "$tmp/b" && ok || bad "no baseline line"
grep -q "^at cycle" "$tmp/b" && ok || bad "no series"
grep -q '"baseline":{' "$tmp/b.json" && ok || bad "no baseline in JSON"
# the period the report prints is the one the sampler ran with: the loads
# over the co-processor's overhead in samples of 420 cycles (the default
# int_cycles + slot_cycles), rounded down
python3 - "$tmp/b.json" "$tmp/b" <<'PY' && ok || bad "baseline period: $(grep '^baseline' "$tmp/b")"
import json, re, sys
j = json.load(open(sys.argv[1]))
loads = sum(l["executions"] for l in j["loads"])
want = loads // (j["overhead_cycles"] // 420)
shown = int(re.search(r"period (\d+) loads", open(sys.argv[2]).read()).group(1))
sys.exit(0 if shown == want == j["baseline"]["period"] else 1)
PY
# the sampler's estimates count: at 16 times the overhead, on a workload
# whose loads are mostly invariant, it is far better than estimating 0
# for every load (the error would then be the mean invariance)
"$IVX" coproc --program value --baseline-scale 16 --json "$tmp/h.json" data/bin/workloads/hashtab -- 1 >/dev/null 2>&1
if command -v python3 >/dev/null 2>&1; then
    python3 - "$tmp/h.json" <<'PY' && ok || bad "the sampler's estimates are not used"
import json, sys
d = json.load(open(sys.argv[1]))
loads = d["loads"]
zero = sum(l["executions"] * l["invariance_true"] for l in loads) / sum(l["executions"] for l in loads)
assert d["baseline"]["weighted_error"] < zero / 2, (d["baseline"]["weighted_error"], zero)
assert "weighted_rms_error" in d["baseline"]
PY
fi

# --estimate shrink (ours): the same run, the same profile, each load's
# estimate by coproc_top_share_shrunk (tests/unit/test_coproc_shrink.c),
# never above the plain one; the JSON says which estimate it holds, and
# weighted_error is computed from the shrunk estimates (strproc has loads
# whose few values are all seen, so some estimates move)
"$IVX" coproc --program value_topk_even --json "$tmp/top.json" data/bin/workloads/strproc >/dev/null 2>&1
"$IVX" coproc --program value_topk_even --estimate shrink --json "$tmp/shr.json" data/bin/workloads/strproc >"$tmp/shr" 2>&1
grep -q "points (estimates shrunk, --estimate shrink), overhead" "$tmp/shr" && ok || bad "--estimate shrink: no mention in the summary"
if command -v python3 >/dev/null 2>&1; then
    python3 - "$tmp/top.json" "$tmp/shr.json" <<'PY' && ok || bad "--estimate shrink: estimates"
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
assert a["estimate"] == "top" and b["estimate"] == "shrink"
assert a["cycles"] == b["cycles"] and a["overhead_cycles"] == b["overhead_cycles"]
la, lb = a["loads"], b["loads"]
assert [l["pc"] for l in la] == [l["pc"] for l in lb]
assert all(y["invariance_est"] <= x["invariance_est"] + 1e-9 and y["samples"] == x["samples"] for x, y in zip(la, lb))
assert sum(y["invariance_est"] < x["invariance_est"] - 1e-3 for x, y in zip(la, lb)) > 0
n = sum(l["executions"] for l in lb)
werr = sum(l["executions"] * abs(l["invariance_est"] - l["invariance_true"]) for l in lb) / n
assert abs(werr - b["weighted_error"]) < 1e-5, (werr, b["weighted_error"])
PY
fi

# .param first (ours, value_topk_first.s): with the tagger fixed at 1 in
# 64, the first-sight tags are counted and reported, and far fewer of
# strproc's loads are never sampled (0 of 135, against 30 with
# value_topk_even.s, which makes no such tags)
"$IVX" coproc --program value_topk_even -C tagrate=64 --json "$tmp/ev.json" data/bin/workloads/strproc >/dev/null 2>&1
"$IVX" coproc --program value_topk_first -C tagrate=64 --json "$tmp/fs.json" data/bin/workloads/strproc >"$tmp/fs" 2>&1
grep -q "^first sight: [1-9][0-9]* tags of a bucket's first 2 records$" "$tmp/fs" && ok || bad "value_topk_first: no first-sight line"
if command -v python3 >/dev/null 2>&1; then
    python3 - "$tmp/ev.json" "$tmp/fs.json" <<'PY' && ok || bad "value_topk_first: first-sight tags"
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
assert a["stats"]["first_tags"] == 0 and b["stats"]["first_tags"] > 0
unsampled = lambda d: sum(1 for l in d["loads"] if not l["samples"])
assert unsampled(b) * 4 < unsampled(a), (unsampled(a), unsampled(b))
PY
fi

# .param young_stall (ours, value_topk_young.s): the report says when a
# full buffer stalls instead of dropping (test_coproc_first checks the
# stalls themselves)
"$IVX" coproc --program value_topk_young --max-cycles 200000 data/bin/workloads/strproc >"$tmp/ys" 2>&1
grep -q "^buffer: .*; a full buffer stalls before cycle 500000 (young_stall)$" "$tmp/ys" && ok ||
    bad "value_topk_young: the buffer line does not say when it stalls"

# Where a run is cut must not change it: the explorer stepped 1000 times by
# 997 cycles and run to a breakpoint at the same cycle show the same
# co-processor (before the fix of branch idlecut the steps committed 56
# fewer instructions by then; `ivx coproc --interval` slices a run the same
# way, tests/unit/test_coproc_cut.c)
printf 'coproc load value_topk\nbreak cycle 997000\ncontinue\ninfo coproc\n' > "$tmp/cut1.ivx"
{ echo 'coproc load value_topk'; i=0; while [ $i -lt 1000 ]; do echo 'step 997'; i=$((i + 1)); done
  echo 'info coproc'; } > "$tmp/cut2.ivx"
for n in 1 2; do
	"$IVX" -x "$tmp/cut$n.ivx" data/bin/workloads/sieve 2>&1 | sed -n '/^program value_topk/,$p' > "$tmp/cut$n.out"
done
if [ -s "$tmp/cut1.out" ] && cmp -s "$tmp/cut1.out" "$tmp/cut2.out"; then ok; else
	bad "explorer: 1000 steps of 997 cycles and a breakpoint at cycle 997000 differ"; diff "$tmp/cut1.out" "$tmp/cut2.out" | head -5 >&2; fi

# A program too long for the default microcode array: coproc-asm lists it
# with a note naming the setting; the explorer refuses to load it and
# keeps the program it had (this used to leave the session without a run,
# and the next command crashed); a setting the loaded program cannot run
# with likewise; an interrupt is a moment, so `catch ... end` is refused.
{ sed -n '/^\.name/,/^br:/p' data/coproc/edge.s | sed '$d'; echo 'br: nop'
  i=0; while [ $i -lt 300 ]; do echo '  nop'; i=$((i + 1)); done; echo '  nop -> DONE'; } > "$tmp/long.s"
"$IVX" coproc-asm "$tmp/long.s" >/dev/null 2>"$tmp/e"; st=$?
if [ "$st" = 0 ] && grep -q "note: with the default settings program edge has 302 microinstructions; the microcode array holds 256 (-C ucode=N; in the explorer coproc set ucode=N)" "$tmp/e"; then ok
else bad "coproc-asm of a too-long program: status $st, stderr: $(cat "$tmp/e")"; fi
printf 'coproc load value\ncoproc load %s\n' "$tmp/long.s" > "$tmp/x1.ivx"
printf 'coproc load value\ncoproc set cam=64\n' > "$tmp/x2.ivx"
printf 'coproc load value\ncatch coproc-interrupt end\n' > "$tmp/x3.ivx"
for n in 1 2 3; do
	"$IVX" -x "$tmp/x$n.ivx" "$w" -- 1 >/dev/null 2>"$tmp/x$n.err"
	echo "status $?" >> "$tmp/x$n.err"
done
grep -q "302 microinstructions; the microcode array holds 256 (-C ucode=N; in the explorer coproc set ucode=N) (the co-processor is as it was)" "$tmp/x1.err" &&
	grep -q "status 1" "$tmp/x1.err" && ok || bad "explorer: loading a too-long program: $(cat "$tmp/x1.err")"
grep -q "program value uses 128 slots; the CAM has 64 entries (-C cam=N; in the explorer coproc set cam=N) (the co-processor is as it was)" "$tmp/x2.err" &&
	ok || bad "explorer: a setting the program cannot run with: $(cat "$tmp/x2.err")"
grep -q "catch coproc-interrupt: a coproc-interrupt happens at one moment; leave out \`end\`" "$tmp/x3.err" && ok ||
	bad "explorer: catch coproc-interrupt end: $(cat "$tmp/x3.err")"
# (that the session goes on with the old program: tests/ui-tmux.sh, as a
# batch script stops at its first error)
# A run that fails is not profiled (as cpistack: a profile of a usage
# message would look like any other), and the JSON file is left alone; a
# fast-forward past the end leaves nothing to time; the value-only options
# are refused for the others; a run too short to record anything costs
# nothing; the report says where timing began.
echo keep > "$tmp/keep.json"
"$IVX" coproc --program value --json "$tmp/keep.json" data/bin/kernels/k3_long_dmiss -- bogus >/dev/null 2>"$tmp/e"
st=$?   # (the guest's own usage message comes first on stderr)
[ "$st" = 2 ] && tail -n 1 "$tmp/e" | grep -q "^ivx: the program exited with status 2" && [ "$(cat "$tmp/keep.json")" = keep ] &&
	ok || bad "coproc of a failing program: status $st, stderr $(cat "$tmp/e"), json $(head -c 40 "$tmp/keep.json")"
check_refusal "the program ended during --fastforward/--start-at" "$IVX" coproc --program value --fastforward 10M "$w" -- 1
check_refusal "coproc: --fates is for value programs; edge builds a branch profile" "$IVX" coproc --program edge --fates "$w" -- 1
check_refusal "--interval: '0': expected a number of cycles" "$IVX" coproc --program value --interval 0 "$w" -- 1
"$IVX" coproc --program value_topk --max-cycles 1 "$w" -- 1 2>/dev/null | grep -q "profiler 0 cycles = 0.00%" && ok ||
	bad "coproc of a 1-cycle run charges a final harvest"
"$IVX" coproc --program value --fastforward 300000 --json "$tmp/ff.json" "$w" -- 1 >"$tmp/ff.out" 2>&1
grep -q "^timed from instruction 300000 " "$tmp/ff.out" &&
	python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['timed_from'] == 300000 and d['exit_code'] == 0, d" "$tmp/ff.json" &&
	ok || bad "coproc --fastforward: the window in the report and the JSON: $(head -3 "$tmp/ff.out")"
# A program of one's own (.handler none): its CAM entries and data words,
# not a value profile it never made
cat > "$tmp/stores.s" <<'S'
.name stores
.classes store
.fields pc addr
.dfe store st
.base b1 64
.const c0 64
st:  lookup i0, pc      -> miss new
     inc [b1 + i0]      -> DONE
new: cmp i1, c0         -> ge DONE
     camw i1, pc
     mov i0, i1
     add i1, i1, 1
     inc [b1 + i0]      -> DONE
S
"$IVX" coproc --program "$tmp/stores.s" --json "$tmp/stores.json" "$w" -- 1 >"$tmp/stores.out" 2>&1
grep -q "^no handler: the program's CAM entries" "$tmp/stores.out" && ! grep -q "loads executed" "$tmp/stores.out" &&
	python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert 'loads' not in d and d['entries'] and all(e['words'][1] >= 1 for e in d['entries']), d" "$tmp/stores.json" &&
	ok || bad "coproc with .handler none: $(tail -3 "$tmp/stores.out")"
check_refusal "coproc buffer: 99999999999999999999 is outside 1..4096" "$IVX" coproc --program value -C buffer=99999999999999999999 "$w" -- 1
check_refusal "shipped: value, value_topk, value_topk_ipw, value_topk_ring, value_topk_adapt, value_topk_even, value_topk_first, value_topk_young, edge, callstack" "$IVX" coproc --program nosuch "$w" -- 1

# A program's size parameters apply before its slots are checked: 256
# slots with .param cam_entries 256 run on the default 128-entry CAM, and
# value_topk.s (cam_entries 640) with -C cam=64; a value_topk-like program
# without enough entries for its slots' ways is refused, naming them.
sed -e 's/^\.param slots 128.*/.param slots 256/' -e 's/^\.const c3 127.*/.const c3 255/' \
    -e 's/^\.param confident/.param cam_entries 256\n.param data_words 2048\n.param confident/' \
    -e 's/^\.base b1 128.*/.base b1 256/' -e 's/^\.base b2 256.*/.base b2 512/' -e 's/^\.base b3 384.*/.base b3 768/' \
    data/coproc/value.s >"$tmp/v256.s"
"$IVX" coproc --program "$tmp/v256.s" --max-cycles 50k "$w" -- 1 >"$tmp/o" 2>"$tmp/e" &&
    grep -q "loads executed" "$tmp/o" && ok || bad "256 slots with .param cam_entries 256: $(cat "$tmp/e")"
"$IVX" coproc --program value_topk -C cam=64 --max-cycles 50k "$w" -- 1 >"$tmp/o" 2>"$tmp/e" &&
    grep -q "loads executed" "$tmp/o" && ok || bad "value_topk with -C cam=64: $(cat "$tmp/e")"
cp -r data/coproc/lib "$tmp/"   # (the edited copies below include it)
grep -v '^\.param cam_entries' data/coproc/value_topk.s >"$tmp/nocam.s"
check_refusal "program value_topk uses 128 slots of 5 CAM entries (640); the CAM has 128 entries" \
    "$IVX" coproc --program "$tmp/nocam.s" "$w" -- 1
# size parameters beyond the co-processor's largest parts are refused
sed 's/^\.param buffer_entries 128/.param buffer_entries 5000/' data/coproc/value_topk.s >"$tmp/big.s"
check_refusal "big.s:[0-9]*: parameter 'buffer_entries': 5000 is outside 1..4096" "$IVX" coproc-asm "$tmp/big.s"
# busy cycles are the co-processor's, with the core cycles they took
"$IVX" coproc --program value -C clock_div=2 --max-cycles 200k "$w" -- 1 >"$tmp/o" 2>&1
line=$(grep '^co-processor: ' "$tmp/o")
b=$(echo "$line" | sed -n 's/.* \([0-9]*\) busy co-processor cycles (\([0-9]*\) core cycles).*/\1 \2/p')
[ -n "$b" ] && [ "$(echo "$b" | awk '{print $1 * 2 == $2}')" = 1 ] && ok || bad "busy cycles with clock_div 2: $line"

# A shipped program is named data/coproc/NAME.s wherever ivx found it (it
# printed the absolute path beside the binary: output differed by install
# location); a missing one names the places looked in
abs_ivx=$(cd "$(dirname "$IVX")" && pwd)/$(basename "$IVX")
abs_w=$(pwd)/$w
printf 'coproc load value\ninfo coproc\n' >"$tmp/load.ivx"
(cd "$tmp" && "$abs_ivx" -x load.ivx "$abs_w" >out.txt 2>err.txt)
grep -q '^Co-processor program value loaded from data/coproc/value.s; restarted at cycle 0.$' "$tmp/out.txt" &&
    grep -q '^program value (data/coproc/value.s), ' "$tmp/out.txt" && ok ||
    bad "coproc load outside the source tree: $(head -c 300 "$tmp/out.txt" "$tmp/err.txt")"
(cd "$tmp" && "$abs_ivx" coproc-asm value_topk | head -n 1) | grep -q '^; data/coproc/value_topk.s: ' && ok ||
    bad "coproc-asm outside the source tree names the absolute path"
mkdir -p "$tmp/inst/bin" && cp "$abs_ivx" "$tmp/inst/bin/ivx"
(cd "$tmp" && ./inst/bin/ivx coproc --program edge "$abs_w" >/dev/null 2>err.txt)
st=$?
[ $st = 2 ] && grep -qF "ivx: the shipped program 'edge' is not in data/coproc/ (looked for edge.s in data/coproc/, $tmp/inst/data/coproc/ and $tmp/data/coproc/); give its file" "$tmp/err.txt" &&
    ok || bad "a shipped program not found: status $st, $(cat "$tmp/err.txt")"
# ... and one found beside an installed binary finds its lib/ there
mkdir -p "$tmp/inst/data" && cp -r data/coproc "$tmp/inst/data/"
(cd "$tmp" && ./inst/bin/ivx coproc-asm value_topk_ring >inst.lst 2>err.txt) &&
    cmp -s "$tmp/inst.lst" tests/coproc-listings/value_topk_ring.lst && ok ||
    bad "value_topk_ring beside an installed ivx: $(cat "$tmp/err.txt")"

echo "coproc-cli: $pass passed, $fail failed"
[ "$fail" = 0 ]
