#!/bin/sh
# cli-outputs.sh [IVX] — the files ivx writes (--json, --svg, --kanata) never
# cost the user a file: an output that is one of the run's inputs or another
# output (or the co-processor's --program file) is refused before the run; a run interrupted or a disk full leaves
# the previous file as it was, with no temporary beside it; a run that fails
# says so in its JSON; the program's name cannot break the JSON or the SVG.
IVX=${1:-${IVX:-build/ivx}}
case $IVX in /*) ;; *) IVX=$(pwd)/$IVX ;; esac
KERNEL=$(pwd)/data/bin/kernels/k2_branch_miss     # args: miss 2; exits 0
LONG=$(pwd)/data/bin/workloads/crc                # args: 48; a few seconds
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 2
pass=0 fail=0

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; sed 's/^/    stderr: /' err >&2; }

# expect STATUS PATTERN -- ARGS...: status, and one stderr line matching PATTERN
expect() {
    want=$1 pattern=$2
    shift 3
    timeout 60 "$IVX" "$@" >out 2>err
    got=$?
    if [ "$got" = "$want" ] && [ "$(wc -l <err)" = 1 ] && grep -q -- "$pattern" err; then
        ok
    else
        bad "ivx $* -> status $got (want $want, one line with '$pattern')"
    fi
}

# intact FILE: FILE still holds what keep/FILE holds
intact() {
    if cmp -s "$1" "keep/$1"; then ok; else bad "$1 was changed"; fi
}

# no_temporaries: nothing but the files the test made is left in the directory
no_temporaries() {
    if ls -A | grep -q '\.ivx-'; then bad "temporary left: $(ls -A | grep '\.ivx-')"; else ok; fi
}

mkdir keep
cp "$KERNEL" prog
echo '[core]' >c.ini
echo input >in.txt
echo previous >old.json
echo previous >old.kanata
cp prog c.ini in.txt old.json old.kanata keep/

# An output that is an input, or another output: refused before the run.
expect 2 "would overwrite the program"     -- run --json prog prog -- miss 2
intact prog
expect 2 "would overwrite the program"     -- run --kanata ./prog prog -- miss 2
intact prog
expect 2 "would overwrite the --config"    -- cpistack --no-ref --svg c.ini --config c.ini prog -- miss 2
intact c.ini
expect 2 "would overwrite the --stdin"     -- refstack --json "$tmp/in.txt" --stdin in.txt prog -- miss 2
intact in.txt
cp "$(dirname "$KERNEL")/../../coproc/value.s" v.s && cp v.s keep/
expect 2 "would overwrite the --program file" -- coproc --program v.s --json v.s --max-insns 10k prog -- miss 2
intact v.s
expect 2 "--json and --kanata name the same file" -- run --json x --kanata ./x prog -- miss 2
expect 2 "--json and --svg name the same file"    -- cpistack --no-ref --json y --svg "$tmp/y" prog -- miss 2
expect 2 "no such directory"               -- run --json nodir/x prog -- miss 2
expect 2 "is a directory"                  -- cpistack --no-ref --svg keep prog -- miss 2
# Outputs that cannot be written: said before the (long) run, not after it
expect 2 "^ivx: --json: empty file name"   -- run --json "" "$LONG" -- 48
expect 2 "cannot create a file there"      -- run --kanata /proc/ivx-test.kanata "$LONG" -- 48
expect 2 "file name too long"              -- run --json "$(printf 'n%.0s' $(seq 250))" "$LONG" -- 48
expect 2 "file name too long"              -- refstack --json "$(printf 'n%.0s' $(seq 300))" "$LONG" -- 48
ln -s loop1 loop2; ln -s loop2 loop1
expect 2 "too many symbolic links"         -- cpistack --no-ref --svg loop1 "$LONG" -- 48
rm loop1 loop2
# (devices may be named twice: nothing is lost)
if "$IVX" run --json /dev/null --kanata /dev/null prog -- miss 2 >out 2>err; then ok; else bad "outputs to /dev/null"; fi

# Interrupted: the previous file stays, no temporary is left.
timeout -s INT 1 "$IVX" run --kanata old.kanata "$LONG" -- 48 >out 2>err
[ $? = 124 ] && ok || bad "the long run was not interrupted"
intact old.kanata
no_temporaries
# ... by any signal that ends the process: a reader that went away
# (SIGPIPE, `| head`) and SIGUSR1 left the temporary beside the target.
# SIGPIPE is sent as `| head` would send it at ivx's first write to stdout:
# crc writes only at its end, so a real pipe took the whole run (minutes,
# and gigabytes of Kanata log) before the signal came.
timeout -s PIPE 1 "$IVX" run --kanata old.kanata "$LONG" -- 48 >out 2>err
[ $? = 124 ] && ok || bad "the long run was not ended by SIGPIPE"
intact old.kanata
no_temporaries
timeout -s USR1 1 "$IVX" run --kanata old.kanata "$LONG" -- 48 >out 2>err
intact old.kanata
no_temporaries

# Through a symbolic link: the file it names gets the output, the link stays.
echo previous >linked.json
ln -s linked.json link.json
"$IVX" run --json link.json prog -- miss 2 >out 2>err
if [ -L link.json ] && grep -q '"end":"exit"' linked.json; then ok; else bad "output through a symbolic link"; fi

# Through a dangling symbolic link: the file it names is created, the link stays.
ln -s created.json dangling.json
"$IVX" run --json dangling.json prog -- miss 2 >out 2>err
if [ -L dangling.json ] && grep -q '"end":"exit"' created.json; then ok; else bad "output through a dangling link"; fi
mkdir sub && ln -s ../sub-created.json sub/rel.json   # relative to the link's directory
"$IVX" run --kanata sub/rel.json prog -- miss 2 >out 2>err
if [ -L sub/rel.json ] && [ -s sub-created.json ]; then ok; else bad "output through a relative dangling link"; fi

# A file one may write in a directory one may not add to: written in place.
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
    chmod 755 "$tmp"
    mkdir locked
    echo previous >locked/out.json
    chmod 666 locked/out.json
    chmod 555 locked
    setpriv --reuid=65534 --regid=65534 --clear-groups "$IVX" run --json locked/out.json prog -- miss 2 >out 2>err
    if grep -q '"end":"exit"' locked/out.json; then ok; else bad "a writable file in a locked directory"; fi
    # ... and a new file there: refused before the run
    setpriv --reuid=65534 --regid=65534 --clear-groups "$IVX" run --json locked/new.json "$LONG" -- 48 >out 2>err
    st=$?
    if [ $st = 2 ] && [ "$(wc -l <err)" = 1 ] && grep -q 'locked/new.json: cannot create a file there: Permission denied' err; then
        ok
    else
        bad "a new file in a locked directory: status $st"
    fi
else
    echo "cli-outputs: (skipped the locked-directory check: needs root and setpriv)"
fi

# Inside a read-write --dir: refused before the run. The guest could put a
# link there, and ivx wrote the JSON through it to a file outside every
# grant (busybox ln -sf ../outside/c.txt out.json).
mkdir -p rwbox
expect 2 "is inside the read-write --dir" -- run -q --json rwbox/out.json --dir rwbox:rw prog -- miss 2
[ ! -e rwbox/out.json ] && ok || bad "a refused output was written"
expect 2 "--db rwbox/db is inside the read-write --dir" -- profile --quiet --db rwbox/db --dir rwbox:rw prog -- miss 2
"$IVX" run -q --json rwbox/ro.json --dir rwbox prog -- miss 2 >out 2>err && ok || bad "an output in a read-only grant"

# A full disk: an error, and the target untouched.
expect 2 "cannot write /dev/full: No space left" -- cpistack --no-ref --json /dev/full prog -- miss 2

# A failed run still writes its JSON, saying how it ended.
cp prog trap
printf '\000\000\000\000' | dd of=trap bs=1 seek=256 conv=notrunc 2>/dev/null   # udf at the entry
"$IVX" run --json old.json trap >out 2>err
if [ $? = 2 ] && grep -q '"end":"error","error":"guest stopped by a trap instruction' old.json; then
    ok
else
    bad "a failed run's JSON: $(cat old.json)"
fi
# A run stopped at the user's limit: status 0, which limit on stderr and in the JSON
"$IVX" run --json limit.json --max-cycles 100 prog -- miss 2 >out 2>err
st=$?
[ $st = 0 ] && grep -q '"end":"limit","limit":"max_cycles","seed":1}' limit.json &&
    grep -q 'stopped after 100 cycles, .* (--max-cycles limit reached)' err && ok ||
    bad "a cycle-limited run: status $st, $(cat limit.json)"
"$IVX" run --json limit.json --max-insns 1000 prog -- miss 2 >out 2>err
st=$?
[ $st = 0 ] && grep -q '"end":"limit","limit":"max_insns","seed":1}' limit.json &&
    grep -q '(--max-insns limit reached)' err && ok ||
    bad "an instruction-limited run: status $st, $(cat limit.json)"
"$IVX" run --json exit.json prog -- miss 2 >out 2>err
grep -q '"end":"exit","exit_code":0,"seed":1}' exit.json && ok || bad "an exited run's JSON: $(cat exit.json)"
# Standard output by name (-, /dev/stdout, /dev/fd/1): written through
# the descriptor, after what ivx wrote there. Followed as a link it was a
# pipe's "pipe:[N]" (refused) or the redirected file itself (replaced,
# with `>>` its earlier contents too).
"$IVX" run --json /dev/stdout prog -- miss 2 2>err | cat >piped
if grep -q '"end":"exit"' piped; then ok; else bad "--json /dev/stdout into a pipe: $(head -c 80 piped)"; fi
echo earlier >appended
"$IVX" run --json /dev/stdout prog -- miss 2 >>appended 2>err
if [ "$(head -n 1 appended)" = earlier ] && grep -q '"end":"exit"' appended; then ok; else bad "--json /dev/stdout >> file"; fi
"$IVX" cpistack --no-ref --json - prog -- miss 2 >both 2>err
if grep -q '^CPI stacks' both && grep -q '"methods"' both && [ ! -e ./- ]; then ok; else bad "cpistack --json - > file"; fi
"$IVX" cpistack --no-ref --json /dev/fd/1 --svg /dev/stdout prog -- miss 2 2>err | cat >piped
if grep -q '"methods"' piped && grep -q '</svg>' piped; then ok; else bad "two outputs to standard output"; fi
expect 2 "no such open descriptor"        -- run --json /dev/fd/9 prog -- miss 2
expect 2 "not open for writing"            -- run --json /proc/self/fd/0 prog -- miss 2 </dev/null


# A program name with quotes, a backslash and markup.
cp prog 'we"ird\<&>'
if "$IVX" cpistack --no-ref --json n.json --svg n.svg 'we"ird\<&>' -- miss 2 >out 2>err &&
    grep -qF '"program":"we\"ird\\<&>"' n.json && grep -qF 'we&quot;ird\&lt;&amp;&gt;' n.svg; then
    ok
else
    bad "program name escaping: $(head -c 80 n.json) / $(grep -o 'stacks: [^(]*' n.svg)"
fi

echo "cli outputs: $pass passed, $fail failed"
[ "$fail" = 0 ]
