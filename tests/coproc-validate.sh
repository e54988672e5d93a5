#!/bin/sh
# coproc-validate.sh IVX — the value-profiling co-processor against the
# exact profile and against the plain interrupt-driven sampling profiler
# (`make validate`; the table in docs/coproc.md comes from here).
#
# For every workload of the suite (bench-lib.sh: default arguments), after
# COPROC_VALIDATE_FF instructions run functionally (default 10M: past the
# programs' set-up), COPROC_VALIDATE_CYCLES cycles (default 3M):
#   ivx coproc --program value --baseline --interval CYC/4 --fastforward FF --json
# gives the co-processor's execution-weighted invariance error and
# overhead, at a quarter of the window and at its end, and the sampling
# profiler's error at the same overhead; then the sampler runs at 4, 16
# and 64 times that overhead until its error is no worse than the
# co-processor's: the factor it needed (">64" if none did).
# Columns: distinct loads executed, error (points) and overhead (%).
# A second table does the same for whole runs with the manifest's test
# arguments (start-up included).
# A third table runs the real programs (data/real/cases, when `make
# realprogs` has built them; REALPROGS_OUT says where, default
# data/real/out; COPROC_VALIDATE_REAL=0 leaves them out) on their small
# inputs for at most COPROC_VALIDATE_REAL_CYCLES cycles (default 30M; they
# exit sooner): whole runs with thousands of distinct loads, the case the
# issue's target is about. A fourth runs them on their large inputs, as
# the paper evaluated its programs: a region of the steady phase,
# COPROC_VALIDATE_LARGE_CYCLES cycles (default 30M) after
# COPROC_VALIDATE_LARGE_FF instructions (default 50M) run functionally.
# COPROC_VALIDATE_REAL_CASES="a b" picks the small-input cases (default
# all), COPROC_VALIDATE_LARGE_CASES the large-input ones (default
# bzip2-compress gzip-compress lua sqlite3: 30M cycles each is slow). Extra options for every
# run: COPROC_VALIDATE_OPTS (e.g. "-C resample=4000000");
# COPROC_VALIDATE_SUITE=0 runs the real programs only;
# COPROC_VALIDATE_PROGRAM=value_topk measures data/coproc/value_topk.s
# instead of value.s (the titles say which).
# COPROC_VALIDATE_CASES=FILE replaces data/real/cases for the two
# real-program tables (data/real/cases-unseen-coproc is the held-out set;
# tests/coproc-validate-unseen.sh runs it), and COPROC_VALIDATE_LARGE=0
# leaves the large-input table out.
# Besides the issue's error (execution-weighted mean |est - true| of each
# load's top-value invariance), every table gives the paper's measure
# (rms over the values making up >= 10% of a load, weighted by value
# frequency) and the share of executions by loads never sampled.
set -u
IVX=${1:-build/ivx}
case $IVX in /*) ;; *) IVX=$(pwd)/$IVX ;; esac
OPTS=${COPROC_VALIDATE_OPTS:-}
VALUE=$(pwd)/data/coproc/${COPROC_VALIDATE_PROGRAM:-value}.s   # (the real programs run from their inputs directory)
CYC=${COPROC_VALIDATE_CYCLES:-3000000}
FF=${COPROC_VALIDATE_FF:-10000000}
. "$(dirname "$0")/tools/bench-lib.sh"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
command -v python3 >/dev/null 2>&1 || { echo "coproc-validate: needs python3"; exit 1; }
[ -f "${COPROC_VALIDATE_CASES:-data/real/cases}" ] ||
    { echo "coproc-validate: no cases file ${COPROC_VALIDATE_CASES:-data/real/cases}" >&2; exit 2; }
q=$((CYC / 4))
# one_workload NAME PROG ARGS -- RUNOPTS...: a table row
one_workload() {
    name=$1 prog=$2 args=$3
    shift 4
    rm -f "$TMP/j.json"
    # shellcheck disable=SC2086
    case $prog in /*) path=$prog ;; *) path=data/bin/$prog ;; esac
    "$IVX" coproc --program "$VALUE" --baseline $OPTS "$@" --top 0 \
        --json "$TMP/j.json" "$path" -- $args >/dev/null 2>"$TMP/err"
    [ -s "$TMP/j.json" ] || { echo "| $name | failed: $(head -n 1 "$TMP/err") |"; return; }
    need=">64"
    for f in 1 4 16 64; do
        if [ "$f" != 1 ]; then
            # shellcheck disable=SC2086
            "$IVX" coproc --program "$VALUE" --baseline-scale "$f" $OPTS "$@" --top 0 \
                --json "$TMP/s.json" "$path" -- $args >/dev/null 2>&1
        else
            cp "$TMP/j.json" "$TMP/s.json"
        fi
        if python3 - "$TMP/j.json" "$TMP/s.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1])); s = json.load(open(sys.argv[2]))
sys.exit(0 if s["baseline"]["weighted_error"] <= c["weighted_error"] + 1e-9 else 1)
PY
        then
            need=$(python3 -c "import json,sys; s=json.load(open('$TMP/s.json')); print('%.2f%% (x%s)' % (100*s['baseline']['overhead_fraction'], '$f'))")
            break
        fi
    done
    python3 - "$TMP/j.json" "$name" "$need" >>"$TMP/sum" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); b = d["baseline"]
def at(series, i):
    return "%.2f" % (100 * series[i]["weighted_error"]) if len(series) > i else "-"
print("| %s | %d | %s | %.2f | %.3f%% | %.1f%% | %s | %.2f | %s | %.2f | %.2f |" % (sys.argv[2],
      d["distinct_loads"], at(d["series"], 0), 100 * d["weighted_error"], 100 * d["overhead_fraction"],
      100 * d["unprofiled_fraction"], at(b["series"], 0), 100 * b["weighted_error"], sys.argv[3],
      100 * d["weighted_rms_error"], 100 * b["weighted_rms_error"]))
PY
    tail -n 1 "$TMP/sum"
}
if [ "${COPROC_VALIDATE_SUITE:-1}" != 0 ]; then
echo "value profiling over $CYC cycles after $FF instructions (ivx coproc --program ${COPROC_VALIDATE_PROGRAM:-value} --baseline --fastforward $FF --max-cycles $CYC)"
echo
echo "| workload | loads | coproc err @1/4 | coproc err | coproc overhead | never sampled | sampler err @1/4 | sampler err (same overhead) | sampler overhead for coproc's err | coproc rms (paper) | sampler rms (paper) |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
bench_workloads >"$TMP/w"
: >"$TMP/sum"
while read -r prog args; do
    one_workload "${prog#workloads/}" "$prog" "$args" -- --interval "$q" --fastforward "$FF" --max-cycles "$CYC"
done <"$TMP/w"
echo
awk -F'|' '{ n++; if ($5 + 0 < 5) ok++ } END { printf "co-processor under 5 points on %d of %d workloads\n", ok, n }' "$TMP/sum"

# Whole runs with the manifest's test arguments: start-up included, more
# distinct loads, short programs.
echo
echo "whole runs with the test arguments (ivx coproc --program ${COPROC_VALIDATE_PROGRAM:-value} --baseline PROG -- TESTARGS)"
echo
echo "| workload | loads | coproc err @1/4 | coproc err | coproc overhead | never sampled | sampler err @1/4 | sampler err (same overhead) | sampler overhead for coproc's err | coproc rms (paper) | sampler rms (paper) |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
: >"$TMP/sum"
while IFS='|' read -r prog _ targs _; do
    case "$prog" in \#*|"") continue ;; esac
    prog=$(echo $prog)
    case "$prog" in workloads/*.O[0-3]|kernels/*|selftest/*) continue ;; esac
    targs=$(echo $targs)
    cyc=$("$IVX" run "data/bin/$prog" -- $targs 2>&1 >/dev/null | sed -n 's/^ivx: \([0-9]*\) cycles.*/\1/p')
    one_workload "${prog#workloads/}" "$prog" "$targs" -- --interval "$(( ${cyc:-400000} / 4 ))"
done <data/bin/MANIFEST
echo
awk -F'|' '{ n++; if ($5 + 0 < 5) ok++ } END { printf "co-processor under 5 points on %d of %d workloads\n", ok, n }' "$TMP/sum"

fi

out=${REALPROGS_OUT:-data/real/out}
# real_table INPUTS CYCLES FF TITLE: a table over data/real/cases run on
# the inputs directory INPUTS for CYCLES cycles after FF instructions run
# functionally (0: from the start)
real_table() {
    rin=$1 rc=$2 rff=$3 rcases=$5
    [ -f "$out/inputs-$rin/.done" ] || { echo; echo "($out/inputs-$rin not built: no $4 table)"; return; }
    bin=$(cd "$out/bin" && pwd)
    in=$(cd "$out/inputs-$rin" && pwd)
    ff=
    [ "$rff" != 0 ] && ff="--fastforward $rff"
    echo
    echo "real programs, $4 (ivx coproc --program ${COPROC_VALIDATE_PROGRAM:-value} --baseline $OPTS $ff --max-cycles $rc --dir INPUTS PROG -- ARGS)"
    echo
    echo "| program | loads | coproc err @1/4 | coproc err | coproc overhead | never sampled | sampler err @1/4 | sampler err (same overhead) | sampler overhead for coproc's err | coproc rms (paper) | sampler rms (paper) |"
    echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    : >"$TMP/sum"
    grep -v '^#' "${COPROC_VALIDATE_CASES:-data/real/cases}" >"$TMP/cases"
    while IFS='|' read -r name prog args stdin; do
        name=$(echo $name) prog=$(echo $prog) stdin=$(echo $stdin)
        [ -n "$name" ] || continue
        case " ${rcases:-$name} " in *" $name "*) ;; *) continue ;; esac
        sin=
        [ "$stdin" != - ] && sin="--stdin $in/$stdin"
        set -f
        # "@1/4" is a quarter of the run: programs that exit before rc
        # cycles are measured by a plain run first
        # shellcheck disable=SC2086
        len=$(cd "$in" && "$IVX" run $ff --max-cycles "$rc" --dir "$in" $sin "$bin/$prog" -- $args 2>&1 >/dev/null </dev/null |
              sed -n 's/^ivx: \([0-9]*\) cycles.*/\1/p; s/^ivx: stopped after \([0-9]*\) cycles.*/\1/p' | tail -n 1)
        # shellcheck disable=SC2086
        (cd "$in" && one_workload "$name" "$bin/$prog" "$args" -- --interval $(( ${len:-$rc} / 4 )) --max-cycles "$rc" \
            $ff --dir "$in" $sin) </dev/null
        set +f
    done <"$TMP/cases"
    echo
    awk -F'|' '{ n++; if ($5 + 0 < 5) ok++ } END { printf "co-processor under 5 points on %d of %d programs\n", ok, n }' "$TMP/sum"
}
if [ "${COPROC_VALIDATE_REAL:-1}" != 0 ] && [ -d "$out/bin" ]; then
    real_table small "${COPROC_VALIDATE_REAL_CYCLES:-30000000}" 0 "small inputs, whole runs (start-up included)" \
        "${COPROC_VALIDATE_REAL_CASES:-}"
    [ "${COPROC_VALIDATE_LARGE:-1}" = 0 ] ||
    real_table large "${COPROC_VALIDATE_LARGE_CYCLES:-30000000}" "${COPROC_VALIDATE_LARGE_FF:-50000000}" \
        "large inputs, a steady-state region (the paper's method)" \
        "${COPROC_VALIDATE_LARGE_CASES:-bzip2-compress gzip-compress lua sqlite3}"
fi
