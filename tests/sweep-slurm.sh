#!/bin/sh
# sweep-slurm.sh [IVX] — `ivx sweep --slurm` on a real Slurm: a one-node
# cluster on localhost, started here and stopped at the end (munged with a
# fresh key, slurmctld and slurmd, everything in a temporary directory, on
# ports of their own). The sweep of tests/sweep-cli.sh (2 programs x 2
# configs) is submitted with the generated submit.sh --wait; its array tasks
# and merge must give the GNU parallel run's result lines byte for byte.
#
# Skipped, with the reason, when Slurm or munge is not installed (`make
# sweep-slurm-deps`), when not root (slurmd runs jobs as their user and
# needs root to), or when the daemons do not come up; status 0 then, so a
# machine without Slurm passes `make test`.
IVX=${1:-${IVX:-build/ivx}}
IVX=$(cd "$(dirname "$IVX")" && pwd)/$(basename "$IVX")
cd "$(dirname "$0")/.." || exit 1
skip() { echo "sweep-slurm: SKIP: $*"; exit 0; }
for t in munged slurmctld slurmd sbatch sinfo; do
    command -v $t >/dev/null 2>&1 || PATH=$PATH:/usr/sbin command -v $t >/dev/null 2>&1 ||
        skip "$t not installed (make sweep-slurm-deps: Debian's slurmctld slurmd slurm-client munge)"
done
PATH=$PATH:/usr/sbin
[ "$(id -u)" = 0 ] || skip "not root: slurmd must be root to start jobs"
command -v parallel >/dev/null || { echo "sweep-slurm: GNU parallel missing (make deps-test installs it)"; exit 1; }

d=$(mktemp -d "${TMPDIR:-/tmp}/sweep-slurm.XXXXXX")
chmod 755 "$d"
stop() {
    for p in "$d/slurmd.pid" "$d/slurmctld.pid" "$d/munge/pid"; do
        [ -s "$p" ] && kill "$(cat "$p")" 2>/dev/null
    done
    sleep 1
    rm -rf "$d"
}
trap stop EXIT
mkdir -p "$d/munge" "$d/state" "$d/spool" "$d/log"
chmod 700 "$d/munge"
head -c 1024 /dev/urandom >"$d/munge/key"
chmod 600 "$d/munge/key"
munged -f --key-file="$d/munge/key" --socket="$d/munge/sock" --pid-file="$d/munge/pid" \
    --log-file="$d/munge/log" --seed-file="$d/munge/seed" 2>"$d/munge/err" ||
    skip "munged does not start: $(tail -1 "$d/munge/err")"

# ports of our own (another test or a real slurm may hold the defaults)
port=$((20000 + ($$ % 4000) * 2))
host=$(hostname -s)
cat >"$d/slurm.conf" <<EOF
ClusterName=ivxsweeptest
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$d/munge/sock
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool
SlurmctldPidFile=$d/slurmctld.pid
SlurmdPidFile=$d/slurmd.pid
SlurmctldLogFile=$d/log/slurmctld.log
SlurmdLogFile=$d/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=ivx Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$d/slurm.conf"
slurmctld -f "$SLURM_CONF" -i 2>"$d/log/ctld.err" || skip "slurmctld does not start: $(tail -1 "$d/log/ctld.err")"
slurmd -f "$SLURM_CONF" 2>"$d/log/d.err" || skip "slurmd does not start: $(tail -1 "$d/log/d.err")"
up=0
for _ in $(seq 60); do
    sinfo -h -o %T 2>/dev/null | grep -qx idle && { up=1; break; }
    sleep 0.5
done
[ $up = 1 ] || skip "the node is not idle after 30 s: $(sinfo -h 2>&1 | head -1); $(tail -1 "$d/log/slurmctld.log")"
echo "sweep-slurm: one-node Slurm up on localhost:$port ($(sinfo -V))"

pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
cat >"$d/small.spec" <<'EOF'
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
"$IVX" sweep -j 2 --results "$d/parallel.jsonl" "$d/small.spec" 2>"$d/err" || bad "the parallel run: $(cat "$d/err")"
"$IVX" sweep --slurm "$d/sl" "$d/small.spec" >/dev/null 2>"$d/err" || bad "--slurm: $(cat "$d/err")"
if timeout 300 "$d/sl/submit.sh" --wait >"$d/submit.out" 2>&1; then ok
else bad "submit.sh --wait: $(cat "$d/submit.out"; tail -3 "$d/log/slurmctld.log")"; fi
n=$(ls "$d/sl/results" | grep -c '^task-[0-3]\.jsonl$')
if [ "$n" = 4 ] && grep -q 'array job [0-9]*, 4 tasks' "$d/submit.out"; then ok
else bad "4 array tasks, one result file each: $(ls "$d/sl/results"; cat "$d/sl/logs/"*)"; fi
if cmp -s "$d/sl/results.jsonl" "$d/parallel.jsonl"; then ok
else bad "the Slurm array's merged lines differ from the parallel run's: $(cat "$d/sl/logs/merge.out")"; fi
"$IVX" sweep --merge "$d/parallel.jsonl" >"$d/parallel.txt"
if cmp -s "$d/sl/table.txt" "$d/parallel.txt" && [ -s "$d/sl/table.csv" ]; then ok; else bad "the merge job's table"; fi
echo "sweep-slurm: $pass passed, $fail failed"
[ "$fail" = 0 ]
