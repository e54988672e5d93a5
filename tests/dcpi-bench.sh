#!/bin/sh
# dcpi-bench.sh [IVX] — what DCPI sampling with the default periods costs in
# timing-mode speed: each workload is run with `ivx run` and with
# `ivx profile` alternately (best of 3 each), and the ratio of host times
# is printed; the target is at most 5% (issue 20).
IVX=${1:-${IVX:-build/ivx}}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
now() { date +%s.%N; }
best() { # best of 3 wall-clock seconds of "$@"
    b=
    for i in 1 2 3; do
        t0=$(now); "$@" >/dev/null 2>&1; t1=$(now)
        b=$(echo "$t0 $t1 $b" | awk '{d=$2-$1; if ($3=="" || d<$3) print d; else print $3}')
    done
    echo "$b"
}
printf '%-12s %9s %9s %8s\n' workload run_s profile_s cost
total_r=0 total_p=0
for w in crc sieve matmul ptrchase; do
    p=data/bin/workloads/$w
    r=$(best "$IVX" run "$p")
    s=$(best "$IVX" profile --quiet --db "$tmp/db" "$p")
    printf '%-12s %9.3f %9.3f %7.1f%%\n' "$w" "$r" "$s" "$(echo "$r $s" | awk '{print 100*($2/$1-1)}')"
    total_r=$(echo "$total_r $r" | awk '{print $1+$2}')
    total_p=$(echo "$total_p $s" | awk '{print $1+$2}')
done
printf '%-12s %9.3f %9.3f %7.1f%%\n' total "$total_r" "$total_p" "$(echo "$total_r $total_p" | awk '{print 100*($2/$1-1)}')"
