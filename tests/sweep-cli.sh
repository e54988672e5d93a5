#!/bin/sh
# sweep-cli.sh [IVX] — `ivx sweep` end to end (docs/sweep.md):
#   - a spec of 2 programs x 2 configs expands to 4 jobs (--list), runs under
#     GNU parallel into one JSON line per job, in job order, with the point,
#     the command line, cycles, instructions, CPI and every method's stack;
#   - a sweep is deterministic: -j1 (the attached form), -j 2 and each
#     --job I alone write the same bytes;
#   - --merge tabulates lines in any order (text, CSV, Markdown, JSON lines),
#     says when jobs are missing or repeated, and makes a column of every
#     method it finds (one it has never heard of too); a --select or --value
#     naming nothing in the lines, or two output formats, is an error that
#     says what there is; no line at all is said, with status 1;
#   - a failing job is a line with its error, and the sweep exits 1;
#   - arguments reach ivx as written: no shell ever sees them;
#   - --slurm writes an array of 0..N-1 whose tasks, run by hand with
#     SLURM_ARRAY_TASK_ID set (no submit.sh: a task makes its results
#     folder), and whose merge give the parallel run's lines
#     byte for byte (tests/sweep-slurm.sh submits them to a real Slurm);
#   - a results file or --slurm script that would overwrite the spec, a
#     program or a --config or --stdin file is refused, nothing changed;
#   - a full disk or stdout stops the sweep with status 2, the old results
#     kept; SIGINT, SIGTERM, SIGHUP stop parallel and its jobs, leave no
#     temporary and give 128+N; a relative TMPDIR works with a cwd; a
#     failed job's error is its error line;
#   - a bad spec is one "file:line: message" line and status 2.
IVX=${1:-${IVX:-build/ivx}}
IVX=$(cd "$(dirname "$IVX")" && pwd)/$(basename "$IVX")
cd "$(dirname "$0")/.." || exit 1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sweep-cli.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
command -v parallel >/dev/null || { echo "sweep-cli: GNU parallel missing (make deps-test installs it)"; exit 1; }

cat >"$tmp/small.spec" <<'EOF'
# 2 programs x 2 configs, short runs
[sweep]
command = cpistack
options = --max-insns 30k

[program]
path = data/bin/workloads/crc
args = 48

[program qsort]
path = data/bin/workloads/qsort
args = 48

[config default]

[config rob64]
o = core.rob_size=64
EOF

# --list: one line per job, programs varying slowest
"$IVX" sweep --list "$tmp/small.spec" >"$tmp/list" 2>"$tmp/err"
if [ $? = 0 ] && [ "$(wc -l <"$tmp/list")" = 5 ] &&
   sed -n 2p "$tmp/list" | grep -q '^0	crc 48	default	cpistack	ivx cpistack --quiet --jobs 1 --max-insns 30k data/bin/workloads/crc -- 48$' &&
   sed -n 5p "$tmp/list" | grep -q '^3	qsort	rob64	cpistack	.* -o core.rob_size=64 data/bin/workloads/qsort -- 48$'
then ok; else bad "--list: $(cat "$tmp/list" "$tmp/err")"; fi

# the sweep under GNU parallel, two at a time
if "$IVX" sweep -j 2 --results "$tmp/r2.jsonl" "$tmp/small.spec" 2>"$tmp/err"; then ok
else bad "sweep -j 2: $(cat "$tmp/err")"; fi
python3 - "$tmp/r2.jsonl" <<'PY' && ok || bad "the result lines"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
assert [l["job"] for l in lines] == [0, 1, 2, 3], [l["job"] for l in lines]
for l in lines:
    assert l["jobs"] == 4 and l["status"] == "ok" and l["exit"] == 0, l
    assert list(l["point"]) == ["program", "config", "command"], l["point"]
    r = l["result"]
    assert l["instructions"] == r["instructions"] >= 30000 and l["cycles"] == r["cycles"] > 0
    assert abs(l["cpi"] - l["cycles"] / l["instructions"]) < 1e-6
    for m in ("ref", "ref_inverse", "naive", "naive_nonspec", "power5", "fmt", "sfmt"):
        comps = r["methods"][m]["components"]
        assert abs(sum(comps.values()) - r["methods"][m]["cpi"]) < 1e-3, (m, comps)
    assert "max_error" in r["methods"]["fmt"]
    assert l["argv"][0] == "cpistack" and "--json" not in l["argv"], l["argv"]
assert [l["point"]["config"] for l in lines] == ["default", "rob64"] * 2
assert lines[1]["argv"][-4:] == ["core.rob_size=64", "data/bin/workloads/crc", "--", "48"], lines[1]["argv"]
# the smaller ROB is a different machine: it changes the cycles
assert lines[0]["cycles"] != lines[1]["cycles"] or lines[2]["cycles"] != lines[3]["cycles"]
PY

# deterministic: one at a time, and each job alone, give the same bytes
# (-j1 attached, as make and parallel take it; -j 1 apart is run below)
"$IVX" sweep -j1 --results "$tmp/r1.jsonl" "$tmp/small.spec" 2>"$tmp/err"
if cmp -s "$tmp/r1.jsonl" "$tmp/r2.jsonl"; then ok; else bad "-j1 and -j 2 differ: $(cat "$tmp/err")"; fi
: >"$tmp/each.jsonl"
for i in 3 1 0 2; do "$IVX" sweep --job $i --results "$tmp/each.jsonl" "$tmp/small.spec"; done
sort "$tmp/each.jsonl" >"$tmp/each.sorted"
sort "$tmp/r2.jsonl" >"$tmp/r2.sorted"
if cmp -s "$tmp/each.sorted" "$tmp/r2.sorted"; then ok; else bad "--job I appended alone differs from the sweep"; fi

# merge: in any order, the same table; every format
"$IVX" sweep --merge "$tmp/r2.jsonl" >"$tmp/t.txt" 2>"$tmp/err" || bad "merge: $(cat "$tmp/err")"
"$IVX" sweep --merge "$tmp/each.jsonl" >"$tmp/t2.txt" 2>&1
if cmp -s "$tmp/t.txt" "$tmp/t2.txt" && grep -q '^program  *config  *status  *insns  *cycles  *CPI  *naive %.*fmt %  *sfmt %  *ivx %$' "$tmp/t.txt" &&
   grep -q '^qsort  *rob64  *ok ' "$tmp/t.txt" && grep -q '^mean ' "$tmp/t.txt" && grep -q '^max ' "$tmp/t.txt"
then ok; else bad "merge text: $(cat "$tmp/t.txt" "$tmp/t2.txt")"; fi
"$IVX" sweep --merge --jsonl "$tmp/each.jsonl" >"$tmp/j.jsonl"
if cmp -s "$tmp/j.jsonl" "$tmp/r2.jsonl"; then ok; else bad "merge --jsonl does not restore job order"; fi
"$IVX" sweep --merge --csv "$tmp/r2.jsonl" >"$tmp/t.csv"
python3 - "$tmp/t.csv" "$tmp/r2.jsonl" <<'PY' && ok || bad "merge --csv"
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
lines = [json.loads(l) for l in open(sys.argv[2])]
assert len(rows) == 4
for row, l in zip(rows, lines):
    assert int(row["job"]) == l["job"] and row["program"] == l["point"]["program"]
    assert int(row["cycles"]) == l["cycles"]
    assert float(row["fmt.components.l2d"]) == l["result"]["methods"]["fmt"]["components"]["l2d"]
    assert float(row["sfmt.max_error"]) == l["result"]["methods"]["sfmt"]["max_error"]
PY
"$IVX" sweep --merge --md --select config=rob64 "$tmp/r2.jsonl" >"$tmp/t.md"
if grep -q '^All rows: config=rob64, command=cpistack$' "$tmp/t.md" && grep -q '^| program | status | insns |' "$tmp/t.md" &&
   [ "$(grep -c '^| crc 48 \|^| qsort ' "$tmp/t.md")" = 2 ]; then ok; else bad "merge --md --select: $(cat "$tmp/t.md")"; fi
"$IVX" sweep --merge --value components.l2d "$tmp/r2.jsonl" >"$tmp/v.txt"
if grep -q 'fmt.components.l2d' "$tmp/v.txt" && ! grep -q '^mean' "$tmp/v.txt"; then ok; else bad "merge --value: $(cat "$tmp/v.txt")"; fi

# a method merge has never heard of gets its column
sed -e '1s/"sfmt":{/"sixth":{"cpi":1.0,"components":{"base":1.0},"max_error":0.0123},"sfmt":{/' "$tmp/r2.jsonl" >"$tmp/new.jsonl"
"$IVX" sweep --merge "$tmp/new.jsonl" >"$tmp/new.txt"
if grep -q ' fmt %  *sixth %  *sfmt %  *ivx %$' "$tmp/new.txt" && grep -q '^crc 48  *default .* 1\.23  *[0-9.]*  *[0-9.]*$' "$tmp/new.txt" &&
   grep -q '^qsort  *rob64 .*  -  *[0-9.]*  *[0-9.]*$' "$tmp/new.txt"; then ok
else bad "a new method's column: $(cat "$tmp/new.txt")"; fi

# missing and repeated jobs are said, status 1, the table printed anyway
sed 2d "$tmp/r2.jsonl" >"$tmp/miss.jsonl"
"$IVX" sweep --merge "$tmp/miss.jsonl" >"$tmp/out" 2>"$tmp/err"
if [ $? = 1 ] && grep -q '1 of 4 jobs has no result line (the first: job 1)' "$tmp/err" && grep -q '^qsort' "$tmp/out"; then ok
else bad "merge with a job missing: $(cat "$tmp/err")"; fi
cat "$tmp/r2.jsonl" "$tmp/r2.jsonl" | "$IVX" sweep --merge - >/dev/null 2>"$tmp/err"
if [ $? = 1 ] && grep -q '4 result lines repeat a job' "$tmp/err"; then ok; else bad "merge with repeats: $(cat "$tmp/err")"; fi
# no line at all: all jobs missing, said in one line, status 1, no table
: >"$tmp/empty.jsonl"
"$IVX" sweep --merge "$tmp/empty.jsonl" >"$tmp/out" 2>"$tmp/err"
if [ $? = 1 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" = 1 ] &&
   grep -q "^ivx: sweep --merge: no result lines in $tmp/empty.jsonl$" "$tmp/err"; then ok
else bad "merge of an empty file: $(cat "$tmp/out" "$tmp/err")"; fi

# typos in the options: status 2, one line saying what there is, no table
check_merge() {   # MESSAGE-PATTERN ARGS...
    pat=$1; shift
    "$IVX" sweep --merge "$@" >"$tmp/out" 2>"$tmp/err"
    st=$?
    if [ $st = 2 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" = 1 ] && grep -q "^ivx: sweep.*$pat" "$tmp/err"; then ok
    else bad "merge $* (want: $pat), status $st: $(cat "$tmp/out" "$tmp/err")"; fi
}
check_merge '--value nonsense: .*(they have: cpi, components\.base, .*max_error, max_error_inverse)$' \
    --value nonsense "$tmp/r2.jsonl"
check_merge "--select foo=bar: the lines have no dimension 'foo' (they have: program, config, command)$" \
    --select foo=bar "$tmp/r2.jsonl"
check_merge '--select config=rob65: no line has config=rob65 (its labels: default, rob64)$' \
    --select config=rob64 --select config=rob65 "$tmp/r2.jsonl"
check_merge '--csv and --md cannot be combined' --csv --md "$tmp/r2.jsonl"
check_merge '--md and --jsonl cannot be combined' --md --jsonl "$tmp/r2.jsonl"
"$IVX" sweep --merge --csv --csv "$tmp/r2.jsonl" >"$tmp/t2.csv" 2>"$tmp/err"
if cmp -s "$tmp/t2.csv" "$tmp/t.csv"; then ok; else bad "--csv given twice: $(cat "$tmp/err")"; fi

echo 'not json' >"$tmp/junk"
"$IVX" sweep --merge "$tmp/junk" >/dev/null 2>"$tmp/err"
if [ $? = 2 ] && grep -q "junk:1: not a sweep result line" "$tmp/err"; then ok; else bad "merge of junk: $(cat "$tmp/err")"; fi

# a failing job: its line says why, the others still run, status 1
cat >"$tmp/failing.spec" <<'EOF'
[sweep]
command = run
options = --max-insns 10k
[program]
path = data/bin/workloads/crc
args = 48
[config]
o = core.rob_size=64
[config typo]
o = core.rob_sise=64
EOF
"$IVX" sweep -j 2 --results "$tmp/f.jsonl" "$tmp/failing.spec" 2>"$tmp/err"
st=$?
python3 - "$tmp/f.jsonl" <<'PY' && [ $st = 1 ] && grep -q '1 of 2 jobs failed' "$tmp/err" && ok || bad "a failing job (status $st): $(cat "$tmp/err")"
import json, sys
a, b = [json.loads(l) for l in open(sys.argv[1])]
assert a["status"] == "ok" and a["point"]["config"] == "core.rob_size=64" and a["cycles"] > 0, a
assert b["status"] == "failed" and b["exit"] == 2 and "rob_sise" in b["error"] and "result" not in b, b
PY

# a full disk: the sweep stops, says so, status 2, the previous results kept
cat >"$tmp/quick.spec" <<EOF
[sweep]
command = run
options = --max-insns 10k
[program crc]
path = $PWD/data/bin/workloads/crc
EOF
# results on standard output by name, into a pipe: one line, as without --results
for r in - /dev/stdout; do
    "$IVX" sweep -j1 --results $r "$tmp/quick.spec" 2>"$tmp/err" | cat >"$tmp/piped"
    [ "$(grep -c '"status":"ok"' "$tmp/piped")" = 1 ] && [ ! -e ./- ] && ok || bad "--results $r into a pipe: $(cat "$tmp/err")"
    "$IVX" sweep --job 0 --results $r "$tmp/quick.spec" 2>"$tmp/err" | cat >"$tmp/piped"
    [ "$(grep -c '"status":"ok"' "$tmp/piped")" = 1 ] && [ ! -e ./- ] && ok || bad "--job 0 --results $r: $(cat "$tmp/err")"
done
"$IVX" sweep -j1 --results /dev/full "$tmp/quick.spec" >/dev/null 2>"$tmp/err"
st=$?
[ $st = 2 ] && grep -q '^ivx: sweep: cannot write /dev/full: No space left on device; the sweep was stopped$' "$tmp/err" &&
    ! grep -q 'jobs done' "$tmp/err" && ok || bad "--results /dev/full: status $st: $(cat "$tmp/err")"
"$IVX" sweep -j1 "$tmp/quick.spec" >/dev/full 2>"$tmp/err"
st=$?
[ $st = 2 ] && grep -q '^ivx: error writing standard output: No space left on device$' "$tmp/err" &&
    ! grep -q 'jobs done' "$tmp/err" && ok || bad "a sweep to a full stdout: status $st: $(cat "$tmp/err")"

# a stopped sweep stops GNU parallel and its jobs, leaves the previous
# results and no temporary, and dies of the signal (Ctrl-C: 130, kill: 143,
# hangup: 129); an interrupted --job removes its temporaries too
cat >"$tmp/slow.spec" <<EOF
[sweep]
command = run
options = --max-insns 500M
[program crc]
path = $PWD/data/bin/workloads/crc
[axis seed]
a = --seed 1
b = --seed 2
c = --seed 3
EOF
mkdir "$tmp/td"
echo previous >"$tmp/prev.jsonl"
for sw in INT:130 TERM:143 HUP:129; do
    sig=${sw%:*} want=${sw#*:}
    TMPDIR=$tmp/td timeout --preserve-status -s $sig 2 "$IVX" sweep -j2 --results "$tmp/prev.jsonl" "$tmp/slow.spec" 2>"$tmp/err"
    st=$?
    sleep 0.5
    left=$(pgrep -f "$tmp/slow.spec" | wc -l)
    if [ $st = $want ] && [ "$left" = 0 ] && [ "$(cat "$tmp/prev.jsonl")" = previous ] && [ -z "$(ls -A "$tmp/td")" ] &&
       [ -z "$(ls -A "$tmp" | grep '\.ivx-')" ]; then ok
    else bad "SIG$sig to a sweep: status $st (want $want), $left processes left, $(ls -A "$tmp/td"): $(cat "$tmp/err")"; fi
done
TMPDIR=$tmp/td timeout --preserve-status -s INT 1 "$IVX" sweep --job 0 "$tmp/slow.spec" >"$tmp/out" 2>"$tmp/err"
st=$?
[ $st = 130 ] && [ ! -s "$tmp/out" ] && [ -z "$(ls -A "$tmp/td")" ] && ok ||
    bad "Ctrl-C of --job: status $st, left in TMPDIR: $(ls -A "$tmp/td")"

# a relative TMPDIR and a program's cwd: the job still runs, and leaves
# nothing in the cwd; a failed job's error is its error, not a statistic;
# the line's argv names the program as the job ran it
mkdir -p "$tmp/rel/sub"
cp data/bin/workloads/crc "$tmp/rel/crc"
cat >"$tmp/rel/t.spec" <<EOF
[sweep]
command = run
options = --max-insns 10k
[program crc]
path = crc
cwd = sub
[program usage]
path = crc
args = -5
EOF
(cd "$tmp/rel" && TMPDIR=. "$IVX" sweep --job 0 t.spec && TMPDIR=. "$IVX" sweep --job 1 t.spec) >"$tmp/rel.jsonl" 2>"$tmp/err"
python3 - "$tmp/rel.jsonl" <<'PY' && [ -z "$(ls -A "$tmp/rel/sub")" ] && [ "$(ls -A "$tmp/rel")" = "crc
sub
t.spec" ] && ok || bad "TMPDIR=. with a cwd: $(cat "$tmp/rel.jsonl" "$tmp/err"; ls -A "$tmp/rel" "$tmp/rel/sub")"
import json, sys
a, b = [json.loads(l) for l in open(sys.argv[1])]
assert a["status"] == "ok", a
assert b["status"] == "failed" and b["error"] == "the program exited with status 2", b.get("error")
# the line re-runs from its cwd: the program the sweep resolved is absolute
assert a["cwd"] == "sub" and a["argv"][-1].startswith("/") and a["argv"][-1].endswith("/rel/crc"), a["argv"]
assert b["argv"][-3] == "crc", b["argv"]
PY

# no shell in the way: a spec path with blanks and quotes, an argument with
# shell syntax; the argument reaches the guest as written
mkdir -p "$tmp/a dir'x"
cat >"$tmp/a dir'x/q.spec" <<EOF
[sweep]
command = run
options = --functional --max-insns 5k
[program]
path = data/bin/workloads/crc
args = '\$(touch $tmp/INJECTED)' "a;b \\"c\\"" \`touch $tmp/INJECTED2\`
EOF
"$IVX" sweep -j 1 --results "$tmp/q.jsonl" "$tmp/a dir'x/q.spec" 2>"$tmp/err"
python3 - "$tmp/q.jsonl" "$tmp" <<'PY' && [ ! -e "$tmp/INJECTED" ] && [ ! -e "$tmp/INJECTED2" ] && ok || bad "arguments through parallel: $(cat "$tmp/err")"
import json, sys
l = json.loads(open(sys.argv[1]).read())
t = sys.argv[2]
# a backquote is no quote in a spec: the last two words are `touch and DIR/INJECTED2`
assert l["argv"][-4:] == ["$(touch %s/INJECTED)" % t, 'a;b "c"', "`touch", "%s/INJECTED2`" % t], l["argv"]
PY

# never an input: a results file or a --slurm script that is the spec, a
# program, a --config or --stdin file (in the program's cwd) is refused
# before any job runs, and the file is as it was
mkdir -p "$tmp/own/cw"
cp data/bin/workloads/crc "$tmp/own/crc"
echo '[core]' >"$tmp/own/c.ini"
echo hi >"$tmp/own/cw/in.txt"
cat >"$tmp/own/own.spec" <<EOF
[sweep]
command = run
options = --max-insns 10k --stdin in.txt
[program crc]
path = $tmp/own/crc
cwd = cw
[config c]
file = c.ini
EOF
cp -r "$tmp/own" "$tmp/own.keep"
refuse() {   # PATTERN ARGS...
    pat=$1; shift
    (cd "$tmp/own" && "$IVX" sweep "$@" >"$tmp/out" 2>"$tmp/err")
    st=$?
    if [ $st = 2 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && grep -q -- "$pat" "$tmp/err" && diff -r "$tmp/own" "$tmp/own.keep" >/dev/null
    then ok; else bad "ivx sweep $* (want: $pat), status $st: $(cat "$tmp/err"; diff -r "$tmp/own" "$tmp/own.keep")"; fi
}
refuse '^ivx: --results own.spec would overwrite the spec$' -j1 --results own.spec own.spec
refuse '^ivx: --results own.spec would overwrite the spec$' --job 0 --results own.spec own.spec
refuse '^ivx: --results crc would overwrite the program$' -j1 --results crc own.spec
refuse '^ivx: --results ./crc would overwrite the program$' --job 0 --results ./crc own.spec
refuse '^ivx: --results c.ini would overwrite the --config file$' -j1 --results c.ini own.spec
refuse '^ivx: --results cw/in.txt would overwrite the --stdin file$' --job 0 --results cw/in.txt own.spec
refuse '--results goes with running jobs' --slurm "$tmp/own/sl" --results x own.spec
mkdir -p "$tmp/own/sl/results" "$tmp/own.keep/sl/results"
cp "$tmp/own/own.spec" "$tmp/own/sl/sweep.sbatch"; cp "$tmp/own/own.spec" "$tmp/own.keep/sl/sweep.sbatch"
refuse 'ivx: --slurm .*/sl/sweep.sbatch would overwrite the spec$' --slurm sl sl/sweep.sbatch
cp "$tmp/own/own.spec" "$tmp/own/sl/results/x.spec"; cp "$tmp/own/own.spec" "$tmp/own.keep/sl/results/x.spec"
refuse 'the spec, sl/results/x.spec, is in .*/sl/results, where the scripts write$' --slurm sl sl/results/x.spec
(cd "$tmp/own" && "$IVX" sweep --job 0 --results in.txt own.spec >/dev/null 2>&1) && rm "$tmp/own/in.txt" && ok ||
    bad "--results in.txt beside the spec (the --stdin file is cw/in.txt)"

# --slurm: the array's indices and the merge, run by hand
"$IVX" sweep --slurm "$tmp/sl" "$tmp/small.spec" >"$tmp/out" 2>"$tmp/err"
if [ $? = 0 ] && grep -q '^#SBATCH --array=0-3$' "$tmp/sl/sweep.sbatch" && [ -x "$tmp/sl/submit.sh" ] &&
   sh -n "$tmp/sl/sweep.sbatch" && sh -n "$tmp/sl/merge.sbatch" && sh -n "$tmp/sl/submit.sh"
then ok; else bad "--slurm scripts: $(cat "$tmp/out" "$tmp/err")"; fi
[ ! -e "$tmp/sl/results" ] || bad "--slurm made results/ (a task is to make it)"
for i in 2 0 3 1; do
    (cd / && SLURM_ARRAY_TASK_ID=$i sh "$tmp/sl/sweep.sbatch") || bad "array task $i"
done
(cd / && sh "$tmp/sl/merge.sbatch") 2>"$tmp/err"
if cmp -s "$tmp/sl/results.jsonl" "$tmp/r2.jsonl" && cmp -s "$tmp/sl/table.txt" "$tmp/t.txt" &&
   cmp -s "$tmp/sl/table.csv" "$tmp/t.csv"; then ok
else bad "the array's merged results differ from the parallel run: $(cat "$tmp/err")"; fi

# without GNU parallel: said, status 2 (ivx finds itself in /proc/self/exe)
PATH=/nonexistent "$IVX" sweep "$tmp/small.spec" >/dev/null 2>"$tmp/err"
if [ $? = 2 ] && grep -q 'GNU parallel is not installed' "$tmp/err"; then ok; else bad "no parallel: $(cat "$tmp/err")"; fi

# bad specs: file:line: message, status 2
# a spec edited between two jobs: the lines carry two fingerprints, and
# --merge says so (status 1) instead of tabulating a mix of two sweeps
mkdir -p "$tmp/ed"
printf '[sweep]\ncommand = run\noptions = --max-insns 2k\no = core.rob_size = 32, 64\n[program crc]\npath = %s\n' \
	"$PWD/data/bin/workloads/crc" >"$tmp/ed/e.spec"
"$IVX" sweep --job 0 "$tmp/ed/e.spec" >"$tmp/ed/l.jsonl" 2>/dev/null
sed -i 's/32, 64/48, 96/' "$tmp/ed/e.spec"
"$IVX" sweep --job 1 "$tmp/ed/e.spec" >>"$tmp/ed/l.jsonl" 2>/dev/null
"$IVX" sweep --merge "$tmp/ed/l.jsonl" >/dev/null 2>"$tmp/ed/err"
st=$?
[ $st = 1 ] && grep -q '1 of 2 lines come from another version of the spec' "$tmp/ed/err" && ok ||
	bad "merge of lines from an edited spec: status $st, $(cat "$tmp/ed/err")"

check_spec() {   # LINE MESSAGE-PATTERN SPEC-TEXT (not from a pipe: a subshell would lose the counts)
    printf '%s\n' "$3" >"$tmp/bad.spec"
    "$IVX" sweep --list "$tmp/bad.spec" >/dev/null 2>"$tmp/err"
    st=$?
    if [ $st = 2 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && grep -q "^ivx: $tmp/bad.spec:$1: $2" "$tmp/err"; then ok
    else bad "bad spec (want line $1: $2), status $st: $(cat "$tmp/err")"; fi
}
check_spec 3 'unknown section \[progam\]' "$(printf '[sweep]\ncommand = cpistack\n[progam]\npath = x\n')"
check_spec 2 "\\[axis status\\]: 'status' is a column of the merged table" "$(printf '[sweep]\n[axis status]\na =\n[program]\npath = x\n')"
check_spec 2 ".*'256k 512k' holds a blank; values are separated by commas" "$(printf '[sweep]\no = l2.size = 256k 512k\n[program]\npath = x\n')"
check_spec 3 "unknown key 'argz' in \[program\]" "$(printf '[program]\npath = x\nargz = 1\n')"
check_spec 3 'unclosed " quote' "$(printf '[program]\npath = x\nargs = "a b\n')"
check_spec 2 '\[program a\] has no `path =`' "$(printf '# no path\n[program a]\nargs = 1\n[program b]\npath = y\n')"
check_spec 2 "unknown command 'runn'" "$(printf '[sweep]\ncommand = cpistack runn\n[program]\npath = x\n')"
check_spec 3 "two programs are labelled 'p'" "$(printf '[program p]\npath = x\n[program p]\npath = y\n')"
check_spec 2 "'--json' cannot be a sweep option" "$(printf '[sweep]\noptions = --json out.json\n[program]\npath = x\n')"
check_spec 2 "'--svg=out.svg' cannot be a sweep option" "$(printf '[sweep]\noptions = --svg=out.svg\n[program]\npath = x\n')"
check_spec 4 '\[axis warm\] has no values' "$(printf '[program]\npath = x\n\n[axis warm]\n')"
check_spec 2 '`o = SECTION.KEY=V1,V2,...` expected' "$(printf '[sweep]\no = core.rob_size\n[program]\npath = x\n')"
check_spec 2 '`o = core.rob_size=...`: an empty value in the list' "$(printf '[sweep]\no = core.rob_size=64,,128\n[program]\npath = x\n')"
check_spec 3 "a dimension named 'program' already exists" "$(printf '[program]\npath = x\n[axis program]\na =\n')"
check_spec 1 "'path =' before any \[section\]" "$(printf 'path = x\n')"
check_spec 3 'expected `key = value` or a \[section\]' "$(printf '[program]\npath = x\njust words\n')"
check_spec 5 "\[axis a\]: 'one' is listed twice" "$(printf '[program]\npath = x\n[axis a]\none =\none = --ref-fu\n')"
check_spec 2 "'--jobs' is an option of cpistack and refstack, not of 'run'" "$(printf '[sweep]\noptions = --jobs 2\ncommand = run cpistack\n[program]\npath = x\n')"
# one machine key, one place: every -o reaches the job's command line and
# the last wins, so two sources of one key would label rows with values
# that did not run (keys compare as config compares them: any case)
check_spec 4 "'core.rob_size' is set by both \[sweep\] options (line 3) and \`o = core.rob_size=...\` (line 4)" \
    "$(printf '[sweep]\ncommand = run\noptions = --max-insns 1k -o core.rob_size=16\no = core.rob_size = 64, 128\n[program crc]\npath = x\n')"
check_spec 7 "'core.rob_size' is set by both \`o = CORE.ROB_SIZE=...\` (line 2) and \[axis x\] value 'a' (line 7)" \
    "$(printf '[sweep]\no = CORE.ROB_SIZE = 64, 128\n[program]\npath = x\n\n[axis x]\na = -o core.rob_size=8\nb =\n')"
check_spec 6 "'core.rob_size' is set by both \[config rob32\] (line 4) and \[axis x\] value 'a' (line 6)" \
    "$(printf '[program]\npath = x\n[config rob32]\no = core.rob_size=32\n[axis x]\na = -o core.rob_size=8\n')"
check_spec 7 "'l2.size' is set by both \[config big\] (line 4) and the options of \[program y\] (line 7)" \
    "$(printf '[program]\npath = x\n[config big]\no = l2.size=2M\n[program]\npath = y\noptions = -o l2.size=1M\n')"
check_spec 4 "'core.rob_size' is set twice in \[axis x\] value 'a'" \
    "$(printf '[program]\npath = x\n[axis x]\na = -o core.rob_size=8 -o core.rob_size=9\n')"
check_spec 6 "'--config' is set by both \[config a\] (line 4) and \[axis y\] value 'q' (line 6)" \
    "$(printf '[program]\npath = x\n[config a]\nfile = a.ini\n[axis y]\nq = --config b.ini\n')"
# ... but values of one dimension never meet: no complaint
printf '[program]\npath = x\n[config a]\no = core.rob_size=8\n[config b]\no = core.rob_size=9\n[axis x]\nu = -o l2.size=1M\nv = -o l2.size=2M\n' >"$tmp/apart.spec"
"$IVX" sweep --list "$tmp/apart.spec" >/dev/null 2>"$tmp/err" && ok || bad "one key in values of one dimension: $(cat "$tmp/err")"
# and a sweep that would run refuses before any job
"$IVX" sweep -j 1 --results "$tmp/clash.jsonl" "$tmp/bad.spec" >/dev/null 2>"$tmp/err"
if [ $? = 2 ] && [ ! -e "$tmp/clash.jsonl" ] && grep -q "'--config' is set by both" "$tmp/err"; then ok
else bad "a sweep with a key set twice ran: $(cat "$tmp/err")"; fi
# an editor's UTF-8 byte-order mark and CRLF lines are text
printf '\357\273\277[sweep]\r\ncommand = run\r\n[program]\r\npath = x\r\n' >"$tmp/bom.spec"
"$IVX" sweep --list "$tmp/bom.spec" >"$tmp/out" 2>"$tmp/err" && grep -q '	run	ivx run --quiet x$' "$tmp/out" && ok ||
    bad "a spec with a BOM and CRLF: $(cat "$tmp/err")"
printf '# nothing\n' >"$tmp/empty.spec"
"$IVX" sweep --list "$tmp/empty.spec" >/dev/null 2>"$tmp/err"
if [ $? = 2 ] && grep -q "^ivx: $tmp/empty.spec: no \[program\] section" "$tmp/err"; then ok; else bad "empty spec: $(cat "$tmp/err")"; fi

# one job is "1 job", not "1 jobs"
printf '[sweep]\ncommand = run\noptions = --max-insns 1k\n[program]\npath = data/bin/workloads/crc\n' >"$tmp/one.spec"
"$IVX" sweep --job 3 "$tmp/one.spec" >/dev/null 2>"$tmp/err"
grep -q "has 1 job (0 to 0)$" "$tmp/err" && ok || bad "sweep --job past one job: $(cat "$tmp/err")"
"$IVX" sweep -j 1 --results "$tmp/one.jsonl" "$tmp/one.spec" 2>"$tmp/err"
grep -q "^ivx: sweep: 1 job of .*one.spec, 1 at a time" "$tmp/err" && grep -q "^ivx: sweep: 1 job done, results in" "$tmp/err" &&
    ok || bad "a one-job sweep: $(cat "$tmp/err")"
# -q: no start and end lines (the jobs are --quiet anyway); the same results
"$IVX" sweep -q -j 1 --results "$tmp/oneq.jsonl" "$tmp/one.spec" 2>"$tmp/err"
[ $? = 0 ] && [ ! -s "$tmp/err" ] && cmp -s "$tmp/one.jsonl" "$tmp/oneq.jsonl" && ok || bad "sweep -q: $(cat "$tmp/err")"

# bad command lines: status 2, one line
for args in "" "--job 4 $tmp/small.spec" "--job x $tmp/small.spec" "-j 0 $tmp/small.spec" "-j0 $tmp/small.spec" \
            "-jx $tmp/small.spec" "--merge" \
            "--csv $tmp/small.spec" "--list --merge $tmp/small.spec" "--bogus $tmp/small.spec" \
            "$tmp/nonexistent.spec" "--merge --select nokey $tmp/r2.jsonl" "--merge $tmp/nonexistent.jsonl"; do
    # shellcheck disable=SC2086
    "$IVX" sweep $args >/dev/null 2>"$tmp/err"
    st=$?
    if [ $st = 2 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && grep -q '^ivx: ' "$tmp/err"; then ok
    else bad "ivx sweep $args: status $st: $(cat "$tmp/err")"; fi
done

echo "sweep-cli: $pass passed, $fail failed"
[ "$fail" = 0 ]
