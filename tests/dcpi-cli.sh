#!/bin/sh
# dcpi-cli.sh [IVX] — `ivx profile`, `ivx dcpiprof` and `ivx dcpistats` end
# to end: runs add to the current epoch (runs = 2), a new epoch starts
# empty, the same seed gives the same profile and another seed another,
# the truth columns and JSON are there and well-formed, a corrupt profile
# is named in one line while the rest stay readable, bad options exit 2;
# a --json inside the database or over an image it names is refused; a
# failing or interrupted --new-epoch run makes no epoch; runs of another
# machine are refused; runs stored at once are all counted, and a run
# killed while storing is in all of the epoch's files or in none.
IVX=${1:-${IVX:-build/ivx}}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
check() { if eval "$2"; then ok; else bad "$1"; fi; }

p=data/bin/workloads/crc
[ -x "$p" ] || { echo "dcpi-cli: $p not built (make data)"; exit 1; }
prof() { "$IVX" profile --quiet --period 2000 "$@" "$p" -- 1 >/dev/null; }

check "profile into a new db" "prof --db $tmp/a --seed 1 2>$tmp/err"
check "profile writes an epoch" "[ -f $tmp/a/epoch-0001/crc-*.cycles.samples ] 2>/dev/null || ls $tmp/a/epoch-0001/*.cycles.samples >/dev/null"
check "dcpiprof reads it" "'$IVX' dcpiprof --db $tmp/a >$tmp/a1 2>$tmp/err"
check "Figure 1 header" "grep -q 'Total samples for event type cycles = ' $tmp/a1"
check "main is the top procedure" "sed -n 5p $tmp/a1 | grep -q ' main '"
check "second run, same seed" "prof --db $tmp/b --seed 1 && '$IVX' dcpiprof --db $tmp/b >$tmp/b1"
check "same seed, same profile" "cmp -s $tmp/a1 $tmp/b1"
check "other seed" "prof --db $tmp/c --seed 2 && '$IVX' dcpiprof --db $tmp/c >$tmp/c1"
check "other seed, other samples" "! cmp -s $tmp/a1 $tmp/c1"
check "a run adds to the epoch" "prof --db $tmp/a --seed 2 && '$IVX' dcpiprof --db $tmp/a --json $tmp/a.json >$tmp/a2"
check "per image" "'$IVX' dcpiprof --db $tmp/a --images | sed -n 5p | grep -q '^ *[0-9]* 100.00% 100.00% .*  crc  *[^ ]*workloads/crc$'"
check "--no-truth writes no truth" "prof --db $tmp/nt --no-truth && ! ls $tmp/nt/epoch-0001/*.truth >/dev/null 2>&1 && '$IVX' dcpiprof --db $tmp/nt --truth 2>&1 >/dev/null | grep -q 'no truth'"
ivx_abs=$(cd "$(dirname "$IVX")" && pwd)/$(basename "$IVX") p_abs=$(pwd)/$p
check "--db - is refused (no directory named -)" "(cd $tmp && ! '$ivx_abs' profile -q --db - '$p_abs' -- 1 2>err && grep -q 'a profile database is a directory' err && [ ! -e ./- ])"
check "truth columns" "'$IVX' dcpiprof --db $tmp/a --truth | grep -q 'true%'"
if command -v python3 >/dev/null 2>&1; then
    check "dcpiprof JSON: two runs, shares add to 1" "python3 - $tmp/a.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d['runs'] == 2, d['runs']
ps = d['procedures']
assert abs(sum(p['share']['cycles'] for p in ps) - 1) < 1e-3
assert abs(sum(p['truth_share']['cycles'] for p in ps) - 1) < 1e-3
assert sum(p['samples']['cycles'] for p in ps) == d['events']['cycles']['samples']
assert d['events']['cycles']['truth'] == d['cycles'], (d['events']['cycles'], d['cycles'])
PY"
fi
if command -v python3 >/dev/null 2>&1; then
    # a memory-bound program: the core skips its quiet cycles in bulk, and
    # the head-cycle truth must still count every one of them
    check "truth counts the skipped quiet cycles (ptrchase)" "'$IVX' profile --quiet --db $tmp/pc --max-cycles 400000 data/bin/workloads/ptrchase >/dev/null &&
'$IVX' dcpiprof --db $tmp/pc --truth --json $tmp/pc.json >/dev/null && python3 - $tmp/pc.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert sum(p['truth']['cycles'] for p in d['procedures']) == d['cycles'] == 400000, d['cycles']
PY"
fi
check "new epoch starts empty" "prof --db $tmp/a --new-epoch --events cycles && [ -d $tmp/a/epoch-0002 ]"
check "old epoch still readable" "'$IVX' dcpiprof --db $tmp/a --epoch 1 | cmp -s - $tmp/a2"
check "dcpistats over three dbs" "'$IVX' dcpistats --json $tmp/s.json $tmp/a $tmp/b $tmp/c >$tmp/s1"
check "Figure 3 layout" "grep -q 'range%' $tmp/s1 && grep -q 'from 3 different sample set' $tmp/s1 && grep -q ' main' $tmp/s1"
if command -v python3 >/dev/null 2>&1; then
    check "dcpistats JSON" "python3 -c \"import json,sys; d=json.load(open('$tmp/s.json')); assert len(d['sets'])==3 and d['procedures'][0]['n']>=1\""
fi

# bytes after a valid profile's end: one line naming the file and how many,
# exit 2; appended after the checksum, or after the last record inside a
# body whose length and checksum were made to cover them
trailing() { # NAME WHAT PATTERN: dcpiprof on db NAME, whose cycles file got WHAT
    "$IVX" dcpiprof --db "$tmp/$1" --epoch 1 >/dev/null 2>"$tmp/err"; rc=$?
    check "$2: exit 2 (got $rc)" "[ $rc = 2 ]"
    check "$2: one line naming the file" "[ \$(wc -l <$tmp/err) = 1 ] && grep -q \"$(basename "$(ls "$tmp/$1"/epoch-0001/*.cycles.samples)")\" $tmp/err && grep -q \"$3\" $tmp/err"
}
cp -r "$tmp/a" "$tmp/tail1"
printf 'xyz' >>"$(ls "$tmp"/tail1/epoch-0001/*.cycles.samples)"
trailing tail1 "3 bytes appended" "corrupt (3 bytes after the checksum)"
if command -v python3 >/dev/null 2>&1; then
    cp -r "$tmp/a" "$tmp/tail2"
    python3 - "$(ls "$tmp"/tail2/epoch-0001/*.cycles.samples)" <<'PY'
import struct, sys, zlib
path = sys.argv[1]
b = bytearray(open(path, 'rb').read())
body = b[:-4]
assert zlib.crc32(body) == struct.unpack('<I', b[-4:])[0], 'the checksum is not CRC-32 over the body'
payload = struct.unpack_from('<Q', body, 80)[0]
struct.pack_into('<Q', body, 80, payload + 3)
body += b'\x01\x01\x01'          # a 4th record's first varints, never finished
open(path, 'wb').write(body + struct.pack('<I', zlib.crc32(body)))
PY
    trailing tail2 "3 bytes after the last record" "corrupt records (3 trailing bytes after the [0-9]* records)"
fi

# a corrupt profile: named in one line, exit 2, the others still shown
f=$(ls $tmp/b/epoch-0001/*.imiss.samples)
printf 'garbage' | dd of="$f" bs=1 seek=40 conv=notrunc 2>/dev/null
"$IVX" dcpiprof --db $tmp/b >$tmp/b2 2>$tmp/err; rc=$?
check "corrupt file: exit 2" "[ $rc = 2 ]"
check "corrupt file: one line naming it" "[ \$(wc -l <$tmp/err) = 1 ] && grep -q \"$(basename "$f")\" $tmp/err && grep -q checksum $tmp/err"
check "corrupt file: cycles still read" "grep -q 'cycles = ' $tmp/b2 && grep -q ' main ' $tmp/b2"
check "a run refuses to merge into it" "! prof --db $tmp/b 2>$tmp/err && grep -q \"$(basename "$f")\" $tmp/err"
head -c 50 "$f" >"$f.x"; mv "$f.x" "$f"
"$IVX" dcpiprof --db $tmp/b >/dev/null 2>$tmp/err
check "truncated file named" "grep -q truncated $tmp/err"
printf 'hello world, not a profile' >"$f"
"$IVX" dcpiprof --db $tmp/b >/dev/null 2>$tmp/err
check "foreign file named" "grep -q 'not an ivx profile' $tmp/err"

# --new-epoch makes the epoch only for a run it stores: a failing run or
# an interrupted one leaves the current epoch current
cp $p $tmp/trap && printf '\000\000\000\000' | dd of=$tmp/trap bs=1 seek=256 conv=notrunc 2>/dev/null
prof --db $tmp/e --max-insns 20k 2>/dev/null
# how the run ended, in the profile's JSON as in every command's
"$IVX" profile --quiet --db $tmp/j --max-insns 20k --json $tmp/lim.json "$p" -- 1 >/dev/null 2>&1
"$IVX" profile --quiet --db $tmp/j --max-insns 10M --json $tmp/ex.json "$p" -- 1 >/dev/null 2>&1
check "profile JSON: end and limit" "python3 -c \"import json; a=json.load(open('$tmp/lim.json')); b=json.load(open('$tmp/ex.json')); assert (a['end'], a['limit']) == ('limit', 'max_insns') and (b['end'], b['exit_code']) == ('exit', 0), (a, b); assert a['program'] == '$p' and a['seed'] == 1, a\""
"$IVX" profile --quiet --db $tmp/e --new-epoch $tmp/trap >/dev/null 2>$tmp/err; rc=$?
check "a failing --new-epoch run: exit 2, no epoch made (got $rc)" "[ $rc = 2 ] && [ ! -e $tmp/e/epoch-0002 ] && '$IVX' dcpiprof --db $tmp/e >/dev/null"
timeout --preserve-status -s INT 1 "$IVX" profile --quiet --db $tmp/e --new-epoch $p -- 48 >/dev/null 2>&1; rc=$?
check "an interrupted --new-epoch run: exit 130, no epoch made (got $rc)" "[ $rc = 130 ] && [ ! -e $tmp/e/epoch-0002 ]"
# a program that fails (here: its usage message, shown) or faults stores
# nothing: exit 2, said last, no JSON, the database as it was, a new one not made
snap() { (cd $tmp/e && find . -type f ! -name .lock -exec cksum {} + | sort); }
snap >$tmp/e.before
for ne in "" --new-epoch; do
    "$IVX" profile --quiet --db $tmp/e $ne --json $tmp/fail.json "$p" -- abc >/dev/null 2>$tmp/err; rc=$?
    check "a failing program${ne:+ with $ne}: exit 2, said last, no JSON (got $rc)" "[ $rc = 2 ] && tail -n 1 $tmp/err | grep -q '^ivx: the program exited with status 2 ' && [ ! -e $tmp/fail.json ]"
    check "a failing program${ne:+ with $ne}: the database as it was" "snap | cmp -s - $tmp/e.before && [ ! -e $tmp/e/epoch-0002 ]"
done
"$IVX" profile --quiet --db $tmp/new --json $tmp/fail.json "$p" -- abc >/dev/null 2>&1; rc=$?
check "a failing program: no new database (got $rc)" "[ $rc = 2 ] && [ ! -e $tmp/new ] && [ ! -e $tmp/fail.json ]"
# --db with a trailing slash: the epoch's path has one slash (it had two)
"$IVX" profile --quiet --db $tmp/slash/ --max-insns 20k --json $tmp/slash.json "$p" -- 1 >/dev/null 2>&1
check "--db DIR/: one slash in the epoch's path" "grep -q '\"epoch\":\"$tmp/slash/epoch-0001\"' $tmp/slash.json"
"$IVX" profile --quiet --db $tmp/new/ $tmp/trap >/dev/null 2>&1; rc=$?
check "a faulting program: no new database (got $rc)" "[ $rc = 2 ] && [ ! -e $tmp/new ]"

# one epoch, one machine: a run of another is refused, naming the first key
# that differs, and goes into a new epoch
"$IVX" profile --quiet --db $tmp/e --config data/configs/inorder.ini --max-insns 20k $p >/dev/null 2>$tmp/err; rc=$?
check "another machine: exit 2, one line (got $rc)" "[ $rc = 2 ] && [ \$(wc -l <$tmp/err) = 1 ] && grep -q 'epoch-0001 holds runs of another machine (core.mode = ooo there, inorder here): profile into a new epoch with --new-epoch' $tmp/err"
check "another machine: the epoch keeps one run" "'$IVX' dcpiprof --db $tmp/e --json $tmp/e.json >/dev/null && grep -q '\"runs\":1,' $tmp/e.json"
check "another machine with --new-epoch" "'$IVX' profile --quiet --db $tmp/e --new-epoch --config data/configs/inorder.ini --max-insns 20k $p >/dev/null 2>&1 && grep -q 'mode = inorder' $tmp/e/epoch-0002/machine.ini"
"$IVX" profile --quiet --db $tmp/e --config data/configs/inorder.ini -o core.rob_size=32 --max-insns 20k $p >/dev/null 2>$tmp/err; rc=$?
check "an -o override is another machine (got $rc)" "[ $rc = 2 ] && grep -q '(core.rob_size = 16 there, 32 here)' $tmp/err"

# the machine is checked for runs without truth too: machine.ini is
# written for every run stored
prof --db $tmp/nm --no-truth --max-insns 20k 2>/dev/null
check "a --no-truth run writes machine.ini" "grep -q 'mode = ooo' $tmp/nm/epoch-0001/machine.ini"
"$IVX" profile --quiet --db $tmp/nm --no-truth --config data/configs/inorder.ini --max-insns 20k $p >/dev/null 2>$tmp/err; rc=$?
check "another machine, both without truth: exit 2, one line (got $rc)" "[ $rc = 2 ] && [ \$(wc -l <$tmp/err) = 1 ] && grep -q 'holds runs of another machine (core.mode = ooo there, inorder here)' $tmp/err"

# one epoch, one build of each image: a program rebuilt at the same path
# is refused (its samples would be matched to the other build's code), and
# the readers warn when the file at a recorded path has changed
cp $p $tmp/rb
"$IVX" profile --quiet --db $tmp/rbdb --max-insns 20k $tmp/rb >/dev/null 2>&1
check "the epoch records the image's size and hash" "grep -q \"^\$(wc -c <$p) [0-9a-f]\\{16\\} $tmp/rb\$\" $tmp/rbdb/epoch-0001/images"
cp data/bin/workloads/muldiv $tmp/rb
"$IVX" profile --quiet --db $tmp/rbdb --max-insns 20k $tmp/rb >/dev/null 2>$tmp/err; rc=$?
check "another build at the same path: exit 2, one line naming it (got $rc)" "[ $rc = 2 ] && [ \$(wc -l <$tmp/err) = 1 ] && grep -q \"holds runs of another build of $tmp/rb .*--new-epoch\" $tmp/err"
"$IVX" dcpiprof --db $tmp/rbdb >/dev/null 2>$tmp/err; rc=$?
check "dcpiprof warns in one line that the image changed" "[ $rc = 0 ] && [ \$(wc -l <$tmp/err) = 1 ] && grep -q \"warning: $tmp/rb has changed since\" $tmp/err"
"$IVX" dcpicalc --db $tmp/rbdb --all >/dev/null 2>$tmp/err
check "dcpicalc warns too" "grep -q \"warning: $tmp/rb has changed since\" $tmp/err"
check "the rebuilt program in a new epoch" "'$IVX' profile --quiet --db $tmp/rbdb --new-epoch --max-insns 20k $tmp/rb >/dev/null 2>&1 && '$IVX' dcpiprof --db $tmp/rbdb 2>$tmp/err >/dev/null && [ ! -s $tmp/err ]"

# two programs in one epoch: the JSON's runs and cycles are the sums of
# the programs' (the truth of cycles equals cycles)
prof --db $tmp/two --max-insns 20k 2>/dev/null
"$IVX" profile --quiet --db $tmp/two --max-cycles 100000 data/bin/workloads/muldiv >/dev/null 2>&1
if command -v python3 >/dev/null 2>&1; then
    check "two programs: runs and cycles summed" "'$IVX' dcpiprof --db $tmp/two --json $tmp/two.json >/dev/null 2>&1 && python3 - $tmp/two.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d['runs'] == 2, d['runs']
assert d['events']['cycles']['truth'] == d['cycles'] and d['cycles'] > 100000, (d['events']['cycles'], d['cycles'])
PY"
fi

# runs that do not match: two programs at different periods (a sample of
# one stands for 4 times the cycles of the other's: shares weight each
# program's samples by its own period, and say so), and a --no-truth run
# beside runs with truth (--truth says the two cover other runs)
"$IVX" profile --quiet --db $tmp/per --period 500 --max-cycles 400000 data/bin/workloads/muldiv >/dev/null 2>&1
"$IVX" profile --quiet --db $tmp/per --period 2000 --max-cycles 400000 data/bin/workloads/branchy >/dev/null 2>&1
"$IVX" dcpiprof --db $tmp/per --truth --json $tmp/per.json >/dev/null 2>$tmp/err
check "two periods: one line says the shares are weighted" "[ \$(wc -l <$tmp/err) = 1 ] && grep -q 'sampled at different mean cycles periods: the shares weight each image' $tmp/err"
if command -v python3 >/dev/null 2>&1; then
    check "two periods: each main's share within 2 points of its true share" "python3 - $tmp/per.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
mains = [p for p in d['procedures'] if p['procedure'] == 'main']
assert len(mains) == 2
for p in mains:
    assert abs(p['share']['cycles'] - p['truth_share']['cycles']) < 0.02, (p['image'], p['share'], p['truth_share'])
PY"
fi
prof --db $tmp/nt2 --max-insns 20k 2>/dev/null
prof --db $tmp/nt2 --max-insns 20k --no-truth 2>/dev/null
"$IVX" dcpiprof --db $tmp/nt2 --truth >/dev/null 2>$tmp/err
check "a --no-truth run among runs with truth: --truth says so in one line" "[ \$(wc -l <$tmp/err) = 1 ] && grep -q 'the samples cover 2 runs, the truth 1' $tmp/err"
"$IVX" dcpiprof --db $tmp/nt2 >/dev/null 2>$tmp/err
check "... not without --truth" "[ ! -s $tmp/err ]"

# more than 64 images in one epoch (dcpiprof and dcpistats kept 64)
mkdir -p $tmp/many
for k in $(seq 1 66); do cp $p $tmp/many/crc$k; "$IVX" profile --quiet --no-truth --period 1000 --db $tmp/manydb --max-insns 20k $tmp/many/crc$k >/dev/null 2>&1; done
check "66 images: dcpiprof reads them all" "'$IVX' dcpiprof --db $tmp/manydb --images >$tmp/many.out && [ \$(grep -c ' crc[0-9]* ' $tmp/many.out) = 66 ]"
check "66 images: dcpistats too" "'$IVX' dcpistats $tmp/manydb >/dev/null"

# runs stored at once into one database: each one counted, no temporary left
prof --db $tmp/m --max-insns 5k 2>/dev/null
for s in 1 2 3 4 5 6; do prof --db $tmp/m --max-insns 50k --seed $s 2>/dev/null & done
wait
check "six runs at once: all merged" "'$IVX' dcpiprof --db $tmp/m --json $tmp/m.json >/dev/null && grep -q '\"runs\":7,' $tmp/m.json"
check "six runs at once: no temporary" "[ -z \"\$(ls -A $tmp/m/epoch-0001 | grep tmp)\" ]"

# runs killed at any moment: the epoch holds each run in all of its files
# or in none (every header says the same number of runs), no temporary
if command -v python3 >/dev/null 2>&1; then
    "$IVX" profile --quiet --db $tmp/k --max-insns 20k $p >/dev/null 2>&1
    for i in $(seq 10 5 100); do
        "$IVX" profile --quiet --db $tmp/k --max-insns 20k $p >/dev/null 2>&1 &
        k=$!
        sleep "$(printf '0.%03d' $i)"
        kill -TERM $k 2>/dev/null
        wait $k 2>/dev/null
    done
    check "killed runs: each whole or absent in the epoch" "python3 - $tmp/k/epoch-0001 <<'PY'
import glob, struct, sys
runs = {f: struct.unpack('<Q', open(f, 'rb').read()[24:32])[0] for f in glob.glob(sys.argv[1] + '/*.samples') + glob.glob(sys.argv[1] + '/*.truth')}
assert len(set(runs.values())) == 1, sorted(set(runs.values()))
PY"
    check "killed runs: no temporary left" "[ -z \"\$(ls -A $tmp/k/epoch-0001 | grep tmp)\" ]"
fi

# an output inside the database, or over an image it names: refused, the
# database and the image as they were
prof --db $tmp/o --seed 1
f=$(ls $tmp/o/epoch-0001/*.cycles.samples)
cp "$f" $tmp/keep.samples
cp $p $tmp/crc && prof --db $tmp/o2 --max-insns 20k 2>/dev/null && "$IVX" profile --quiet --db $tmp/o2 --max-insns 20k $tmp/crc >/dev/null 2>&1
cp $tmp/crc $tmp/keep.crc
for args in "dcpiprof --db $tmp/o --json $f" "dcpistats --json $f $tmp/o" "dcpicalc --db $tmp/o --all --json $f" \
            "profile --quiet --db $tmp/o --json $f $p" "dcpiprof --db $tmp/o --json $tmp/o/new.json" \
            "dcpiprof --db $tmp/o2 -i crc-nomatch --json $tmp/crc" "dcpistats --json $tmp/crc $tmp/o2" \
            "dcpicalc --db $tmp/o2 --all --json $tmp/crc"; do
    "$IVX" $args >/dev/null 2>$tmp/err; rc=$?
    check "'ivx $args' refused (got $rc)" "[ $rc = 2 ] && [ \$(wc -l <$tmp/err) = 1 ] && grep -q 'inside the database\\|would overwrite an image' $tmp/err"
done
check "the database file is intact" "cmp -s $f $tmp/keep.samples && [ ! -e $tmp/o/new.json ]"
# a --json that names the database itself, which this run is to make: refused
# before the run (not after it, with nothing made), in any spelling
for j in "$tmp/newdb" "$tmp/newdb/" "$tmp/./newdb"; do
    "$IVX" profile --quiet --db $tmp/newdb --json "$j" --max-cycles 1G "$p" -- 1 >/dev/null 2>$tmp/err; rc=$?
    check "'profile --db $tmp/newdb --json $j' refused up front (got $rc)" \
        "[ $rc = 2 ] && [ \$(wc -l <$tmp/err) = 1 ] && grep -q 'is the database .* itself' $tmp/err && [ ! -e $tmp/newdb ]"
done
check "the image is intact" "cmp -s $tmp/crc $tmp/keep.crc"

# dcpistats of one set: no standard deviation ('-', null), not 0
"$IVX" dcpistats --json $tmp/one.json $tmp/a >$tmp/one.out 2>/dev/null
check "dcpistats, one set: std-dev '-'" "grep -Eq '^ +[0-9.]+% +[0-9.]+ +[0-9.]+% +1 +[0-9.]+ +- +[0-9]+ +[0-9]+  main$' $tmp/one.out"
check "dcpistats, one set: stddev null" "grep -q '\"stddev\":null' $tmp/one.json && ! grep -q '\"stddev\":0' $tmp/one.json"

# --db naming a regular file
: >$tmp/plain
"$IVX" profile --quiet --db $tmp/plain $p >/dev/null 2>$tmp/err; rc=$?
check "--db naming a file: exit 2, 'not a directory' (got $rc)" "[ $rc = 2 ] && [ \$(wc -l <$tmp/err) = 1 ] && grep -q 'plain: not a directory' $tmp/err"

# bad input: exit 2 and one line
for args in "profile --events bogus $p" "profile --period 10:20 $p" "profile --period x $p" \
            "profile --counters 4 $p" "profile --skid" "dcpiprof --db $tmp/none" "dcpiprof --bogus" \
            "dcpistats" "dcpistats --event nope $tmp/a" "dcpistats $tmp/none"; do
    "$IVX" $args >/dev/null 2>$tmp/err; rc=$?
    check "'ivx $args' exits 2 (got $rc)" "[ $rc = 2 ] && [ \$(wc -l <$tmp/err) = 1 ]"
done

# A charged handler starts the cycle after its sample, however the run is
# cut: in the explorer one step of 20000 cycles, twenty of 1000, or steps
# with a reverse-step between reach the state headless profile reaches
pc=data/bin/workloads/ptrchase
printf 'sampling on --period 1024 --charge\nrestart\nstep 20000\ninfo program\n' >$tmp/c1.ivx
{ printf 'sampling on --period 1024 --charge\nrestart\n'; i=0; while [ $i -lt 20 ]; do echo "step 1000"; i=$((i + 1)); done
  printf 'reverse-step 700\nstep 700\ninfo program\n'; } >$tmp/c2.ivx
"$IVX" -x $tmp/c1.ivx $pc 2>&1 | grep '^Stopped at cycle 20000' | tail -1 >$tmp/c1.out
"$IVX" -x $tmp/c2.ivx $pc 2>&1 | grep '^Stopped at cycle 20000' | tail -1 >$tmp/c2.out
n=$("$IVX" profile --db $tmp/charged --period 1024 --charge --max-cycles 20000 $pc 2>&1 | sed -n 's/.*20000 cycles, \([0-9]*\) instructions.*/\1/p')
check "a charged sampler: the same state at a cycle however the explorer got there, as headless ($(cat $tmp/c1.out $tmp/c2.out | tr '\n' ' '); profile $n)" \
    "[ -s $tmp/c1.out ] && cmp -s $tmp/c1.out $tmp/c2.out && grep -q \": \$n committed\" $tmp/c1.out"
n_nt=$("$IVX" profile --db $tmp/charged-nt --no-truth --period 1024 --charge --max-cycles 20000 $pc 2>&1 | sed -n 's/.*20000 cycles, \([0-9]*\) instructions.*/\1/p')
check "a charged sampler without the truth runs the same run ($n_nt instructions, $n with the truth) and takes the same samples" \
    "[ -n \"\$n_nt\" ] && [ \"\$n_nt\" = \"\$n\" ] && cmp -s $tmp/charged/epoch-0001/ptrchase-*.cycles.samples $tmp/charged-nt/epoch-0001/ptrchase-*.cycles.samples"

echo "dcpi-cli: $pass passed, $fail failed"
[ "$fail" = 0 ]
