#!/bin/sh
# coproc-unseen-cases.sh IVX — the co-processor's held-out sets stay
# well formed and held out: every case of data/real/cases-unseen-coproc
# (and of data/real/cases-fresh-coproc) has the four fields of
# data/real/cases, a program of data/real/out/bin's five (the fresh set
# may also run mksh), a unique name, and neither its name nor its program
# and arguments appear in data/real/cases (the programs value_topk.s was
# developed on; for the fresh set, in none of the earlier sets,
# data/real/cases-unseen included). And tests/coproc-validate.sh refuses
# a missing COPROC_VALIDATE_CASES file with status 2. The fourth set,
# data/real/cases-fresh2-coproc, may run lksh and is held out of all three;
# the fifth, data/real/cases-fresh3-coproc, may run mksh-musl and mksh-diet
# and is held out of all four; the sixth, data/real/cases-fresh4-coproc,
# of all five. Runs no simulation.
cd "$(dirname "$0")/.." || exit 1
IVX=${1:-build/ivx}
fail=0
bad() { echo "coproc-unseen-cases: FAIL: $*"; fail=1; }
# fields FILE...: (name|prog|args) of the cases of FILEs, blanks squeezed
fields() {
    grep -hv '^#' "$@" | awk -F'|' 'NF == 4 {
        for (i = 1; i <= 3; i++) { gsub(/^[ \t]+|[ \t]+$/, "", $i); gsub(/[ \t]+/, " ", $i) }
        print $1 "|" $2 "|" $3 }'
}
# check_set CASES "PROGRAMS" SEEN...: CASES against the sets SEEN
check_set() {
    cases=$1 progs=$2
    shift 2
    [ -f "$cases" ] || { bad "no $cases"; return; }
    seen=$(fields "$@")
    n=0 names=
    while IFS= read -r line; do
        case $line in ''|'#'*) continue ;; esac
        n=$((n + 1))
        nf=$(printf '%s\n' "$line" | awk -F'|' '{ print NF }')
        [ "$nf" = 4 ] || { bad "$nf fields, not 4: $line"; continue; }
        f=$(printf '%s\n' "$line" | awk -F'|' '{
            for (i = 1; i <= 4; i++) { gsub(/^[ \t]+|[ \t]+$/, "", $i); gsub(/[ \t]+/, " ", $i) }
            print $1 "|" $2 "|" $3 "|" $4 }')
        name=${f%%|*} rest=${f#*|}
        prog=${rest%%|*} rest=${rest#*|}
        args=${rest%|*} stdin=${rest##*|}
        case " $progs " in *" $prog "*) ;; *) bad "$cases: $name: unknown program '$prog'" ;; esac
        [ -n "$args" ] || bad "$cases: $name: no arguments"
        [ -n "$stdin" ] || bad "$cases: $name: empty STDIN field (use -)"
        case " $names " in *" $name "*) bad "$cases: $name: name used twice" ;; esac
        names="$names $name"
        printf '%s\n' "$seen" | awk -F'|' -v n="$name" -v p="$prog" -v a="$args" \
            '$1 == n || ($2 == p && $3 == a) { found = 1 } END { exit !found }' &&
            bad "$cases: $name: also in $* (not held out)"
    done <"$cases"
    [ "$n" -ge 8 ] || bad "$cases: only $n cases"
    echo "coproc-unseen-cases: $cases: $n cases"
}
check_set data/real/cases-unseen-coproc "bzip2 gzip lua sqlite3 busybox" data/real/cases
check_set data/real/cases-fresh-coproc "bzip2 gzip lua sqlite3 busybox mksh" \
    data/real/cases data/real/cases-unseen-coproc data/real/cases-unseen
check_set data/real/cases-fresh2-coproc "bzip2 gzip lua sqlite3 busybox lksh" \
    data/real/cases data/real/cases-unseen-coproc data/real/cases-unseen data/real/cases-fresh-coproc
check_set data/real/cases-fresh3-coproc "bzip2 gzip lua sqlite3 busybox mksh-musl mksh-diet" \
    data/real/cases data/real/cases-unseen-coproc data/real/cases-unseen data/real/cases-fresh-coproc \
    data/real/cases-fresh2-coproc
check_set data/real/cases-fresh4-coproc "bzip2 gzip lua sqlite3 busybox lksh mksh-diet" \
    data/real/cases data/real/cases-unseen-coproc data/real/cases-unseen data/real/cases-fresh-coproc \
    data/real/cases-fresh2-coproc data/real/cases-fresh3-coproc
COPROC_VALIDATE_SUITE=0 COPROC_VALIDATE_CASES=/nonexistent/cases tests/coproc-validate.sh "$IVX" >/dev/null 2>&1
rc=$?
[ "$rc" = 2 ] || bad "coproc-validate.sh with a missing COPROC_VALIDATE_CASES: status $rc, not 2"
[ "$fail" = 0 ] && echo "coproc-unseen-cases: held-out cases well formed, none in an earlier set: passed"
exit "$fail"
