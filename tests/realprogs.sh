#!/bin/sh
# realprogs.sh IVX small|large — run the real programs (data/real/cases, and
# the guest-ABI runs of data/real/cases-abi) under
# qemu-aarch64 and under ivx, functional and timing mode, and compare their
# standard output and exit status byte for byte.
#
# Per case, one line:
#   match     functional and timing output and status equal qemu's
#   not yet   ivx stops before the end: its error line is shown (today:
#             an instruction or system call it does not implement)
#   FAIL      ivx ran the program to the end and printed something else,
#             or a case listed in tests/realprogs.expect did not match
# Cases not in tests/realprogs.expect may be "not yet" without failing the
# run; they are counted and named, never passed over in silence. With
# `large`, each matching case also gets `ivx cpistack`.
#
# The programs are fetched and built on first use (data/real/build.sh).
# When that is impossible (no network, no Debian mirror), the script says
# "NOT RUN" with the reason and exits 0, unless REALPROGS_REQUIRED=1.
# REALPROGS_CASES, REALPROGS_EXPECT and REALPROGS_BIN (which skips the
# build) replace data/real/cases, tests/realprogs.expect and the programs'
# directory: tests/realprogs-harness.sh uses them to test this script.
cd "$(dirname "$0")/.." || exit 1
ivx=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
set_=$2
case $set_ in
    small) scale=200; limit=${REALPROGS_TIMEOUT:-300} ;;
    large) scale=20000; limit=${REALPROGS_TIMEOUT:-3600} ;;
    *) echo "usage: realprogs.sh IVX small|large"; exit 2 ;;
esac
out=${REALPROGS_OUT:-data/real/out}
cases=${REALPROGS_CASES:-data/real/cases data/real/cases-abi}
expect=${REALPROGS_EXPECT:-tests/realprogs.expect}
if [ -n "${REALPROGS_BIN:-}" ]; then
    :
elif ! data/real/build.sh > "${TMPDIR:-/tmp}/realprogs-build.$$" 2>&1; then
    echo "realprogs: NOT RUN: $(grep -v ': fetching and building' "${TMPDIR:-/tmp}/realprogs-build.$$" | head -1)"
    sed -n '2,6p' "${TMPDIR:-/tmp}/realprogs-build.$$"
    rm -f "${TMPDIR:-/tmp}/realprogs-build.$$"
    [ "${REALPROGS_REQUIRED:-0}" = 1 ] && exit 1
    exit 0
fi
rm -f "${TMPDIR:-/tmp}/realprogs-build.$$"
bin=$(cd "${REALPROGS_BIN:-$out/bin}" && pwd)
in=$out/inputs-$set_
if [ ! -f "$in/.done" ] || [ ! -f "$in/bench.sh" ]; then
    rm -rf "$in"
    BIN=$bin data/real/make-inputs.sh "$in" "$scale" || { echo "realprogs: FAIL: making the inputs"; exit 1; }
    touch "$in/.done"
fi
in=$(cd "$in" && pwd)
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT
# shellcheck disable=SC2086
cat $cases > "$T/cases" || exit 1

expected() { grep -v '^#' "$expect" | grep -qx "$1"; }

n_match=0 n_notyet=0 n_fail=0 notyet_names='' new_names=''
while IFS='|' read -r name prog args stdin; do
    name=$(echo $name)
    case $name in ''|'#'*) continue ;; esac
    prog=$(echo $prog) stdin=$(echo $stdin)
    [ "$stdin" = - ] && stdin=/dev/null || stdin=$in/$stdin
    set -f
    # shellcheck disable=SC2086
    (cd "$in" && timeout "$limit" env -i qemu-aarch64 "$bin/$prog" $args < "$stdin") > "$T/q.out" 2> "$T/q.err"
    q_rc=$?
    ivx_in=
    [ "$stdin" != /dev/null ] && ivx_in="--stdin $stdin"
    # shellcheck disable=SC2086
    (cd "$in" && timeout "$limit" "$ivx" run --functional $ivx_in --dir "$in" "$bin/$prog" -- $args) \
        > "$T/f.out" 2> "$T/f.err"
    f_rc=$?
    set +f
    if [ "$q_rc" -ne 0 ] || [ ! -s "$T/q.out" ]; then
        echo "FAIL      $name: qemu-aarch64 itself failed (status $q_rc): $(head -c 200 "$T/q.err")"
        n_fail=$((n_fail + 1))
        continue
    fi
    why=$(grep '^ivx: ' "$T/f.err" | tail -1)
    if [ "$f_rc" = 124 ]; then
        why="ivx: no result within ${limit}s"
    fi
    if [ -n "$why" ] && ! cmp -s "$T/q.out" "$T/f.out"; then
        if expected "$name"; then
            echo "FAIL      $name: listed in $expect but stops: $why"
            n_fail=$((n_fail + 1))
        else
            echo "not yet   $name: $why"
            n_notyet=$((n_notyet + 1))
            notyet_names="$notyet_names $name"
        fi
        continue
    fi
    if ! cmp -s "$T/q.out" "$T/f.out" || [ "$q_rc" != "$f_rc" ]; then
        echo "FAIL      $name: functional mode differs from qemu (status $f_rc vs $q_rc; $(wc -c < "$T/f.out") vs $(wc -c < "$T/q.out") bytes)"
        n_fail=$((n_fail + 1))
        continue
    fi
    set -f
    # shellcheck disable=SC2086
    (cd "$in" && timeout "$limit" "$ivx" run $ivx_in --dir "$in" "$bin/$prog" -- $args) > "$T/t.out" 2> "$T/t.err"
    t_rc=$?
    set +f
    if ! cmp -s "$T/q.out" "$T/t.out" || [ "$q_rc" != "$t_rc" ]; then
        echo "FAIL      $name: timing mode differs from qemu (status $t_rc): $(grep '^ivx: ' "$T/t.err" | tail -1)"
        n_fail=$((n_fail + 1))
        continue
    fi
    echo "match     $name: functional and timing = qemu ($(wc -c < "$T/q.out") bytes, status $q_rc); $(grep -m1 'cycles' "$T/t.err" | sed 's/^ivx: //')"
    n_match=$((n_match + 1))
    expected "$name" || new_names="$new_names $name"
    if [ "$set_" = large ]; then
        set -f
        # shellcheck disable=SC2086
        (cd "$in" && "$ivx" cpistack $ivx_in --dir "$in" "$bin/$prog" -- $args) 2>&1 | sed 's/^/          /'
        set +f
    fi
done < "$T/cases"
[ -n "$new_names" ] && echo "realprogs: now matching qemu, add to $expect:$new_names"
[ -n "$notyet_names" ] && echo "realprogs: do not run yet (not a failure until listed in $expect):$notyet_names"
echo "realprogs ($set_): $n_match match qemu, $n_notyet do not run yet, $n_fail failed"
[ "$n_fail" = 0 ]
