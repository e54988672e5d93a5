#!/bin/sh
# coproc-unseen-cases.sh IVX — data/real/cases-unseen-coproc stays a well-formed,
# held-out set: every case has the four fields of data/real/cases, a
# program of data/real/out/bin's five, a unique name, and neither its name
# nor its program and arguments appear in data/real/cases (the programs
# value_topk.s was developed on). And tests/coproc-validate.sh refuses a
# missing COPROC_VALIDATE_CASES file with status 2. Runs no simulation.
cd "$(dirname "$0")/.." || exit 1
IVX=${1:-build/ivx}
fail=0
bad() { echo "coproc-unseen-cases: FAIL: $*"; fail=1; }
cases=data/real/cases-unseen-coproc
[ -f "$cases" ] || { bad "no $cases"; exit 1; }
# (name|prog|args) of the seen cases, blanks squeezed
seen=$(grep -v '^#' data/real/cases | awk -F'|' 'NF == 4 {
    for (i = 1; i <= 3; i++) { gsub(/^[ \t]+|[ \t]+$/, "", $i); gsub(/[ \t]+/, " ", $i) }
    print $1 "|" $2 "|" $3 }')
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
    case $prog in bzip2|gzip|lua|sqlite3|busybox) ;; *) bad "$name: unknown program '$prog'" ;; esac
    [ -n "$args" ] || bad "$name: no arguments"
    [ -n "$stdin" ] || bad "$name: empty STDIN field (use -)"
    case " $names " in *" $name "*) bad "$name: name used twice" ;; esac
    names="$names $name"
    printf '%s\n' "$seen" | awk -F'|' -v n="$name" -v p="$prog" -v a="$args" \
        '$1 == n || ($2 == p && $3 == a) { found = 1 } END { exit !found }' &&
        bad "$name: also in data/real/cases (not held out)"
done <"$cases"
[ "$n" -ge 8 ] || bad "only $n cases"
COPROC_VALIDATE_SUITE=0 COPROC_VALIDATE_CASES=/nonexistent/cases tests/coproc-validate.sh "$IVX" >/dev/null 2>&1
rc=$?
[ "$rc" = 2 ] || bad "coproc-validate.sh with a missing COPROC_VALIDATE_CASES: status $rc, not 2"
[ "$fail" = 0 ] && echo "coproc-unseen-cases: $n held-out cases well formed, none in data/real/cases: passed"
exit "$fail"
