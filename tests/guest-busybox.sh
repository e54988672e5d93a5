#!/bin/sh
# guest-busybox.sh IVX [BUSYBOX] — the file system calls of common busybox
# applets, end to end through the sandbox: sendfile (cat, cp), chdir (sh's
# cd), mkdirat (mkdir), unlinkat (rm, rmdir), renameat (mv), symlinkat and
# linkat (ln), utimensat (touch), fchmodat (chmod), ftruncate (truncate)
# and the calls of sed -i and cp -a work inside an rw grant, as on Linux, and
# change nothing anywhere else: not outside every grant, not in a read-only
# grant nested in the rw one (by name or through a symlink), not through a
# symlink the guest made pointing out; an rw grant nested in a read-only
# one is writable through a symlink too; /dev/null and /dev/zero work with
# no grant (sh's `> /dev/null`, cat, head, cp). One line per check, exit 1 on any
# failure; NOT RUN (status 0) without busybox (make realprogs).
ivx=${1:-build/ivx}
bb=${2:-data/real/out/bin/busybox}
if [ ! -x "$bb" ]; then
    echo "guest-busybox: NOT RUN: no busybox at $bb (make realprogs)"
    exit 0
fi
fails=0
pass() { echo "ok   $1"; }
fail() { echo "FAIL $1"; fails=$((fails + 1)); }

T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT
T=$(cd "$T" && pwd -P)           # the guest sees host paths, symlinks resolved
abs_ivx=$(cd "$(dirname "$ivx")" && pwd)/$(basename "$ivx")
abs_bb=$(cd "$(dirname "$bb")" && pwd)/$(basename "$bb")
mkdir -p "$T/box/ro" "$T/box/d" "$T/out" "$T/rob/w"
echo hello >"$T/box/in.txt"
awk 'BEGIN { for (i = 0; i < 20000; i++) print "line", i }' >"$T/box/big.txt"   # several sendfile chunks
echo prot >"$T/box/ro/prot"
ln -s ro "$T/box/rolink"
echo secret >"$T/out/secret"
ln -s w "$T/rob/wlink"

# check WHAT STATUS COND CMD...: busybox CMD in $T/box, which is granted rw
# with $T/box/ro read-only inside it, and $T/rob read-only with $T/rob/w rw
# inside it; passes if it ends with STATUS and the shell condition COND
# (about the host's files, or its output $T/o) holds.
check() {
    what=$1 want=$2 cond=$3
    shift 3
    (cd "$T/box" && IVX_SANDBOX_WALK=$walk timeout 20 "$abs_ivx" run -q --functional --dir "$T/box:rw" --dir "$T/box/ro:ro" \
        --dir "$T/rob" --dir "$T/rob/w:rw" "$abs_bb" -- "$@") >"$T/o" 2>"$T/e"
    got=$?
    if [ "$got" = "$want" ] && eval "$cond"; then
        pass "$what"
    else
        fail "$what: status $got (want $want), stdout '$(head -c 100 "$T/o")', stderr '$(head -c 200 "$T/e" | tr '\n' ' ')'"
    fi
}
walk=0
prot_intact='[ "$(cat "$T/box/ro/prot")" = prot ]'

# sendfile
check "cat reads a file (sendfile)" 0 '[ "$(cat "$T/o")" = hello ]' cat in.txt
check "cp copies a file (sendfile)" 0 'cmp -s "$T/box/in.txt" "$T/box/copy.txt"' cp in.txt copy.txt
check "cp copies a file of several chunks" 0 'cmp -s "$T/box/big.txt" "$T/box/big2.txt"' cp big.txt big2.txt
check "cat of two files, one large" 0 '[ "$(cat "$T/box/in.txt" "$T/box/big.txt" | cksum)" = "$(cksum <"$T/o")" ]' \
    cat in.txt big.txt
check "cp into the nested read-only grant is refused" 1 '[ ! -e "$T/box/ro/c" ]' cp in.txt ro/c
check "cp into it through a symlink is refused" 1 '[ ! -e "$T/box/ro/c" ]' cp in.txt rolink/c
check "appending through a symlink into it is refused" 1 "$prot_intact" sh -c 'echo y >> rolink/prot'
check "an rw grant nested in a read-only one is writable through a symlink" 0 '[ "$(cat "$T/rob/w/f")" = y ]' \
    sh -c "echo y > $T/rob/wlink/f"
check "but the read-only one around it is not" 1 '[ ! -e "$T/rob/new" ]' sh -c "echo y > $T/rob/new"

# chdir
check "cd moves the working directory (chdir)" 0 \
    '[ "$(cat "$T/o")" = "$T/box/d" ] && [ -e "$T/box/d/made" ]' sh -c 'cd d && pwd && echo x > made'
check "cd .. comes back" 0 '[ "$(cat "$T/o")" = "$T/box" ]' sh -c 'cd d && cd .. && pwd'
check "cd outside every grant fails" 2 '! grep -q . "$T/o"' sh -c 'cd /etc && pwd'

# the working directory is the guest's state: going back before two cd's
# and running on must find them again (a stale d/d would make `cd d` fail)
mkdir -p "$T/box/d/d"
printf 'set snapshot-interval 1000\nstep 210000\nreverse-step 200000\ncontinue\n' >"$T/cd.ivx"
(cd "$T/box" && timeout 60 "$abs_ivx" -x "$T/cd.ivx" --dir "$T/box:rw" "$abs_bb" -- sh -c 'cd d && cd d && pwd') \
    >"$T/o" 2>&1
if grep -q '^cycle 10000,' "$T/o" && grep -q 'exited with code 0' "$T/o" && ! grep -q 'exited with code [1-9]' "$T/o" &&
   grep -q "^$T/box/d/d\$" "$T/o"; then
    pass "reverse stepping over chdir restores the working directory"
else
    fail "reverse stepping over chdir: $(tr '\n' ' ' <"$T/o" | head -c 300)"
fi
rmdir "$T/box/d/d"

# a replayed mkdir would meet the directory it made (EEXIST) and the run
# would go another way: the explorer refuses to go back before it, names
# the first cycle it can go back to, and can go back to that one
revdir() {   # revdir SCRIPT-TEXT: the explorer over `mkdir -p m1/m2` in a fresh $T/box/rv
    rm -rf "$T/box/rv" && mkdir "$T/box/rv"
    printf "$1" >"$T/rv.ivx"
    (cd "$T/box/rv" && timeout 60 "$abs_ivx" -x "$T/rv.ivx" --dir "$T/box/rv:rw" "$abs_bb" -- mkdir -p m1/m2) >"$T/o" 2>&1
}
revdir 'continue\nreverse-step 1000000\n'
n=$(sed -n "s/.*changed the host's directories (mkdirat) before cycle \([0-9]*\):.*/\1/p" "$T/o")
if [ -n "$n" ] && [ -d "$T/box/rv/m1/m2" ]; then
    pass "reverse stepping before a mkdir is refused"
else
    fail "reverse stepping before a mkdir: $(tr '\n' ' ' <"$T/o" | tail -c 300)"
fi
revdir "continue\ngoto ${n:-0}\ncontinue\n"
if [ -n "$n" ] && grep -q "^cycle $n," "$T/o" && grep -q 'exited with code 0' "$T/o" && ! grep -q 'exited with code [1-9]' "$T/o"; then
    pass "going back to the cycle it names works and the run ends the same"
else
    fail "going back to cycle ${n:-?}: $(tr '\n' ' ' <"$T/o" | tail -c 300)"
fi
rm -rf "$T/box/rv"

# mkdirat, unlinkat
check "mkdir (mkdirat)" 0 '[ -d "$T/box/newdir" ]' mkdir newdir
check "rmdir (unlinkat AT_REMOVEDIR)" 0 '[ ! -e "$T/box/newdir" ]' rmdir newdir
check "rm (unlinkat)" 0 '[ ! -e "$T/box/copy.txt" ]' rm copy.txt
check "mkdir -p of an absolute path (its ancestors above the grant exist)" 0 '[ -d "$T/box/p1/p2" ]' \
    mkdir -p "$T/box/p1/p2"
rm -rf "$T/box/p1"
check "mkdir in the read-only grant through a symlink is refused" 1 '[ ! -e "$T/box/ro/nd" ]' mkdir rolink/nd
check "mkdir outside every grant is refused" 1 '[ ! -e "$T/out/nd" ]' mkdir "$T/out/nd"
check "rm in the read-only grant is refused" 1 "$prot_intact" rm ro/prot
check "rm in it through a symlink is refused" 1 "$prot_intact" rm rolink/prot
check "rm outside every grant is refused" 1 '[ -e "$T/out/secret" ]' rm "$T/out/secret"
check "rm ../ out of the grant is refused" 1 '[ -e "$T/out/secret" ]' rm ../out/secret
check "rmdir of the read-only grant itself is refused" 1 '[ -d "$T/box/ro" ]' rmdir ro

# the mode of a new file or directory is the guest's mode & ~umask, exactly:
# the host's umask (022 here) must not be applied on top
umask 022
check "open(O_CREAT) obeys the guest's umask, not the host's" 0 \
    '[ "$(stat -c %a "$T/box/um1")" = 600 ] && [ "$(stat -c %a "$T/box/um2")" = 666 ]' \
    sh -c 'umask 077; echo s > um1; umask 0; echo x > um2'
check "mkdir obeys the guest's umask, not the host's" 0 '[ "$(stat -c %a "$T/box/um3")" = 777 ]' \
    sh -c 'umask 0; mkdir um3'      # the last command runs in place: a fork would be clone
check "mkdir under umask 077" 0 '[ "$(stat -c %a "$T/box/um4")" = 700 ]' sh -c 'umask 077; mkdir um4'
rm -rf "$T/box/um1" "$T/box/um2" "$T/box/um3" "$T/box/um4"

# renameat
check "mv (renameat)" 0 'cmp -s "$T/box/big.txt" "$T/box/d/moved" && [ ! -e "$T/box/big2.txt" ]' mv big2.txt d/moved
check "mv of a file out of the grant fails and keeps it" 1 '[ ! -e "$T/out/x" ] && [ -e "$T/box/in.txt" ]' \
    mv in.txt "$T/out/x"
check "mv out of the read-only grant is refused" 1 "$prot_intact" mv ro/prot stolen
check "mv into it through a symlink is refused" 1 '[ ! -e "$T/box/ro/m" ] && [ -e "$T/box/d/moved" ]' \
    mv d/moved rolink/m
check "mv of the read-only grant itself is refused" 1 '[ -d "$T/box/ro" ]' mv ro gone

check "mv to a name ending in / that is no directory fails (ENOTDIR)" 1 \
    '[ -e "$T/box/in.txt" ] && [ ! -e "$T/box/nodir" ]' mv in.txt nodir/
check "cp to it fails too" 1 '[ ! -e "$T/box/nodir" ]' cp in.txt nodir/

# symlinkat, linkat
check "ln -s (symlinkat)" 0 '[ "$(readlink "$T/box/lnk")" = in.txt ]' ln -s in.txt lnk
check "a symlink the guest made is followed inside the grant" 0 '[ "$(cat "$T/o")" = hello ]' cat lnk
check "ln -s /etc is made" 0 '[ -L "$T/box/etc" ]' ln -s /etc etc
check "but reads nothing through it" 1 '[ ! -s "$T/o" ]' cat etc/passwd
check "ln -s ../out is made" 0 '[ -L "$T/box/up" ]' ln -s ../out up
check "but reads nothing through it" 1 '[ ! -s "$T/o" ]' cat up/secret
check "nor writes through them" 1 '[ "$(cat "$T/out/secret")" = secret ] && [ ! -e /etc/ivx-test ]' \
    sh -c 'echo x > up/secret; echo x > etc/ivx-test'
check "ln (linkat)" 0 '[ "$T/box/in.txt" -ef "$T/box/hard" ]' ln in.txt hard
check "a hard link to a read-only grant's file is refused" 1 '[ ! -e "$T/box/hard2" ]' ln ro/prot hard2
check "even through a symlink" 1 '[ ! -e "$T/box/hard2" ]' ln rolink/prot hard2

# utimensat
check "touch creates a file" 0 '[ -e "$T/box/t" ]' touch t
check "touch -d sets its time (utimensat)" 0 '[ "$(date -u -r "$T/box/t" +%Y)" = 2001 ]' touch -d "2001-02-03 04:05:06" t
touch -d "2002-02-02 00:00:00" "$T/box/ro/prot"
check "touch in the read-only grant is refused" 1 '[ "$(date -u -r "$T/box/ro/prot" +%Y)" = 2002 ]' touch ro/prot
check "touch in it through a symlink is refused" 1 '[ "$(date -u -r "$T/box/ro/prot" +%Y)" = 2002 ]' touch rolink/prot

check "touch of a directory" 0 '[ "$(date -u -r "$T/box/d" +%Y)" = 2003 ]' touch -d "2003-01-01 00:00:00" d

# fchmodat, ftruncate, fchownat: chmod, truncate, sed -i, cp -r / -p / -a
check "chmod (fchmodat)" 0 '[ "$(stat -c %a "$T/box/t")" = 640 ]' chmod 640 t
check "chmod drops set-id bits" 0 '[ "$(stat -c %a "$T/box/t")" = 755 ]' chmod 4755 t
check "chmod in the read-only grant through a symlink is refused" 1 '[ "$(stat -c %a "$T/box/ro/prot")" = 644 ]' \
    chmod 777 rolink/prot
check "truncate (ftruncate)" 0 '[ "$(wc -c <"$T/box/d/moved")" = 5 ]' truncate -s 5 d/moved
check "truncate in the read-only grant through a symlink is refused" 1 "$prot_intact" truncate -s 0 rolink/prot
echo hello >"$T/box/edit.txt"
check "sed -i (a temporary file, fchmod, rename)" 0 '[ "$(cat "$T/box/edit.txt")" = bye ]' sed -i s/hello/bye/ edit.txt
check "cp -r of a directory" 0 '[ -e "$T/box/d2/moved" ]' cp -r d d2
check "cp -a keeps times and modes (chown to the same owner)" 0 \
    '[ "$(stat -c %a.%Y "$T/box/d2/moved")" = "$(stat -c %a.%Y "$T/box/d3/moved")" ]' cp -a d2 d3
check "chown to another user is refused" 1 '[ "$(stat -c %u "$T/box/t")" = "$(id -u)" ]' chown 12345 t
check "sync" 0 true sync

# the virtual devices, with no grant at /dev
check "sh: echo hi > /dev/null" 0 '[ "$(cat "$T/o")" = ok ] && [ ! -s "$T/e" ]' sh -c 'echo hi > /dev/null; echo ok'
check "cat /dev/null is empty" 0 '[ ! -s "$T/o" ]' cat /dev/null
check "head -c 5 /dev/zero is five zero bytes" 0 '[ "$(od -An -tx1 "$T/o" | tr -d " ")" = 0000000000 ]' head -c 5 /dev/zero
check "cp /dev/null makes an empty file" 0 '[ -f "$T/box/empty" ] && [ ! -s "$T/box/empty" ]' cp /dev/null empty
check "ls /dev lists the four devices" 0 '[ "$(tr "\n" " " < "$T/o")" = "null random urandom zero " ]' ls /dev
check "test -d /dev" 0 '[ "$(cat "$T/o")" = dir ]' sh -c 'test -d /dev && echo dir'
(cd "$T/box" && timeout 20 "$abs_ivx" run -q "$abs_bb" -- sh -c 'echo hi > /dev/null; echo ok') >"$T/o" 2>"$T/e"
got=$?
if [ $got = 0 ] && [ "$(cat "$T/o")" = ok ] && ! grep -qv '^ivx: ' "$T/e"; then    # (only ivx's statistics)
    pass "timing mode, no grant at all: sh: echo hi > /dev/null"
else
    fail "timing mode: sh: echo hi > /dev/null: status $got, stdout '$(head -c 100 "$T/o")', stderr '$(head -c 200 "$T/e" | tr '\n' ' ')'"
fi
# a grant at /dev holding a file named null does not replace the device,
# which relative paths from a working directory of /dev name too
mkdir -p "$T/fakedev" && echo host >"$T/fakedev/null"
(cd "$T/box" && timeout 20 "$abs_ivx" run -q --functional --dir "$T/fakedev:/dev:rw" "$abs_bb" -- \
    sh -c 'cd /dev && echo hi > null && echo hi > ./../dev/./zero && [ -c null ] && read x < null; echo "[$x]"') >"$T/o" 2>"$T/e"
got=$?
if [ $got = 0 ] && [ "$(cat "$T/o")" = "[]" ] && [ ! -s "$T/e" ] && [ "$(cat "$T/fakedev/null")" = host ] &&
   [ "$(ls "$T/fakedev")" = null ]; then
    pass "a grant at /dev: null and ./../dev/./zero from cd /dev are the devices, the host's files untouched"
else
    fail "a grant at /dev: status $got, stdout '$(head -c 100 "$T/o")', stderr '$(head -c 200 "$T/e" | tr '\n' ' ')', host null '$(cat "$T/fakedev/null")'"
fi

# the component walk (no openat2) follows no symlink, but refuses the same
walk=1
check "walk: mkdir" 0 '[ -d "$T/box/w1" ]' mkdir w1
check "walk: mv" 0 '[ -d "$T/box/w2" ]' mv w1 w2
check "walk: rmdir" 0 '[ ! -e "$T/box/w2" ]' rmdir w2
check "walk: cp" 0 'cmp -s "$T/box/in.txt" "$T/box/w3"' cp in.txt w3
check "walk: rm" 0 '[ ! -e "$T/box/w3" ]' rm w3
check "walk: rm in the read-only grant through a symlink is refused" 1 "$prot_intact" rm rolink/prot
check "walk: cp into it through a symlink is refused" 1 '[ ! -e "$T/box/ro/c" ]' cp in.txt rolink/c
[ "$(ls "$T/out")" = secret ] && pass "nothing appeared outside the grants" || fail "outside changed: $(ls "$T/out")"

echo "guest-busybox: $fails failed"
[ "$fails" = 0 ]
