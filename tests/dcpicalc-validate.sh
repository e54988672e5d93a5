#!/bin/sh
# dcpicalc-validate.sh [IVX [PERIOD...]] — dcpicalc's accuracy over the
# workload suite on the in-order machine (data/configs/inorder.ini): each
# workload is profiled whole with the simulator's truth, `ivx dcpicalc
# --all` analyses every procedure with samples, and the table gives, per
# workload and for the suite (weighted by CYCLES samples):
#
#   f<=5% f<=10% f<=15%  share of CYCLES samples whose instruction's
#                        estimated executions are within 5/10/15% of the
#                        truth (the paper: 73/87/92%; target >= 90% at 5%)
#   unexpl               unexplained stall samples, share of all samples
#                        (the paper: 8.6%; target <= 5%)
#   culprit              share of the true dynamic stall cycles whose true
#                        reason is among the estimated culprits (>= 95%)
#   cul-pc               share of the true dynamic stall cycles blamed on
#                        an instruction whose blamed instruction is among
#                        the estimated culprit addresses
#   edge10%              share of edge executions estimated within 10%
#
# PERIOD: the CYCLES sampling periods to run (default 4096 1024). Output
# only; it fails only when a run or the analysis fails.
# DCPICALC_VALIDATE_WORKLOADS="ptrchase muldiv" runs only those.
# DCPICALC_VALIDATE_ESTIMATOR=ivx analyses with `--estimator ivx` (ivx's
# flow reconciliation) instead of the paper's estimator.
# DCPICALC_VALIDATE_REUSE=1 (with DCPICALC_VALIDATE_DIR) analyses the
# profiles kept there again instead of profiling anew.
# DCPICALC_VALIDATE_RUNS=N profiles each workload N times, with seeds 1..N
# (the randomized sampling periods fall elsewhere each run), into one
# database: DCPI's practice of merging runs, samples and truth adding up
# (default 1). The database remembers how many runs it holds
# (DB/validate-runs); with REUSE, a database of fewer runs gets the missing
# seeds added, so 1 -> 4 -> 8 profiles only the new runs.
IVX=${1:-${IVX:-build/ivx}}
shift 2>/dev/null
PERIODS=${*:-4096 1024}
RUNS=${DCPICALC_VALIDATE_RUNS:-1}
case $RUNS in
''|*[!0-9]*|0) echo "dcpicalc-validate: DCPICALC_VALIDATE_RUNS=$RUNS: not a positive number"; exit 2 ;;
esac
# DCPICALC_VALIDATE_DIR=DIR keeps the profiles there (to analyse them again)
if [ -n "$DCPICALC_VALIDATE_DIR" ]; then
	tmp=$DCPICALC_VALIDATE_DIR
	mkdir -p "$tmp" || exit 1
else
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
fi
command -v python3 >/dev/null 2>&1 || { echo "dcpicalc-validate: needs python3"; exit 1; }
status=0
for P in $PERIODS; do
	echo "dcpicalc-validate: CYCLES period $P (ivx profile --config data/configs/inorder.ini --period $P, seeds 1..$RUNS merged), estimator ${DCPICALC_VALIDATE_ESTIMATOR:-paper}"
	printf '%-10s %8s %7s %7s %7s %7s %8s %8s %8s\n' workload samples 'f<=5%' 'f<=10%' 'f<=15%' unexpl culprit cul-pc 'edge10%'
	for w in ${DCPICALC_VALIDATE_WORKLOADS:-branchy crc hashtab icache interp matmul muldiv ptrchase qsort recurse sieve stream strproc}; do
		prog=data/bin/workloads/$w
		db=$tmp/$w-$P
		done_runs=0
		if [ -n "$DCPICALC_VALIDATE_REUSE" ] && [ -d "$db" ]; then
			done_runs=$(cat "$db/validate-runs" 2>/dev/null || echo 1)
		else
			rm -rf "$db"
		fi
		if [ "$done_runs" -gt "$RUNS" ]; then
			echo "dcpicalc-validate: $db holds $done_runs runs, more than DCPICALC_VALIDATE_RUNS=$RUNS"; status=1; continue
		fi
		seed=$((done_runs + 1))
		while [ "$seed" -le "$RUNS" ]; do
			if ! nice "$IVX" profile --quiet --config data/configs/inorder.ini --period "$P" --seed "$seed" --db "$db" "$prog" \
				>/dev/null 2>"$tmp/err"; then
				echo "dcpicalc-validate: profile $w (seed $seed) failed: $(cat "$tmp/err")"; status=1; break
			fi
			echo "$seed" >"$db/validate-runs"
			seed=$((seed + 1))
		done
		[ "$seed" -gt "$RUNS" ] || continue
		if ! "$IVX" dcpicalc --db "$db" --all --estimator "${DCPICALC_VALIDATE_ESTIMATOR:-paper}" --json "$tmp/$w-$P.json" >"$tmp/$w-$P.txt" 2>"$tmp/err"; then
			echo "dcpicalc-validate: dcpicalc $w failed: $(cat "$tmp/err")"; status=1; continue
		fi
		python3 - "$tmp/$w-$P.json" "$w" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))['total']
pct = lambda a, b: 100.0 * a / b if b else 100.0
print('%-10s %8d %6.1f%% %6.1f%% %6.1f%% %6.1f%% %7.1f%% %7.1f%% %7.1f%%' % (sys.argv[2], t['samples'],
      pct(t['w5'], t['samples']), pct(t['w10'], t['samples']), pct(t['w15'], t['samples']),
      pct(t['unexplained'], t['samples']), pct(t['covered'], t['dynamic_true_cycles']),
      pct(t['culprit_pc_covered'], t['culprit_pc_true_cycles']), 100 * t['edges_within_10']))
PY
	done
	python3 - "$tmp" "$P" <<'PY'
import glob, json, sys
tot = {k: 0.0 for k in ('samples', 'w5', 'w10', 'w15', 'unexplained', 'covered', 'dynamic_true_cycles', 'edge_true', 'e10',
                        'culprit_pc_covered', 'culprit_pc_true_cycles')}
for f in glob.glob('%s/*-%s.json' % (sys.argv[1], sys.argv[2])):
    t = json.load(open(f))['total']
    for k in tot:
        if k == 'e10':
            tot[k] += t['edges_within_10'] * t['edge_true']
        else:
            tot[k] += t[k]
pct = lambda a, b: 100.0 * a / b if b else 100.0
w5 = pct(tot['w5'], tot['samples']); un = pct(tot['unexplained'], tot['samples'])
cov = pct(tot['covered'], tot['dynamic_true_cycles'])
print('%-10s %8d %6.1f%% %6.1f%% %6.1f%% %6.1f%% %7.1f%% %7.1f%% %7.1f%%' % ('SUITE', tot['samples'], w5,
      pct(tot['w10'], tot['samples']), pct(tot['w15'], tot['samples']), un, cov,
      pct(tot['culprit_pc_covered'], tot['culprit_pc_true_cycles']), pct(tot['e10'], tot['edge_true'])))
print('targets: frequency within 5%% for >= 90%% of samples: %s; unexplained <= 5%%: %s; true reason among culprits >= 95%%: %s'
      % ('met' if w5 >= 90 else 'MISSED', 'met' if un <= 5 else 'MISSED', 'met' if cov >= 95 else 'MISSED'))
PY
done
exit $status
