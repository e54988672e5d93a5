#!/bin/bash
# ui-bench.sh — how fast the explorer is (make bench; not a timed test).
#
#   tests/ui-bench.sh IVX [PROG [ARGS...]]      default: workloads/interp 40
#
# 1. `continue` to the end of PROG against headless timing mode, in CPU
#    seconds (user + system, so a busy machine does not skew it):
#      headless     ivx run PROG                  the core alone
#      accounting   ivx cpistack --no-ref PROG    the core + the five CPI
#                                                 accounting units the
#                                                 explorer also runs
#      batch        ivx -x (continue) PROG        the explorer, no terminal
#      screen       `continue` in the full-screen explorer in tmux (CPU
#                   time of the ivx process across the command)
#    Target: the explorer at least 80% as fast as headless timing mode.
#    CPU times are the best of three runs (the screen run: one).
# 2. One `step` with a full redraw on a 200x60 terminal (`time -n 200
#    step` in the explorer, wall clock): target under 20 ms.
set -u
IVX=$1
shift
cd "$(dirname "$0")/.." || exit 2
case $IVX in /*) ;; *) IVX=$(pwd)/$IVX ;; esac
if [ $# -gt 0 ]; then PROG=("$@"); else PROG=(data/bin/workloads/interp -- 40); fi
TMP=$(mktemp -d)
SOCK="ivx-ui-bench-$$"
T() { tmux -L "$SOCK" -f /dev/null "$@"; }
trap 'T kill-server 2> /dev/null; rm -rf "$TMP"' EXIT
export HOME="$TMP"
TICK=$(getconf CLK_TCK)

# CPU seconds of a command: the best of three runs.
cpu() {
	local t i best=
	for i in 1 2 3; do
		t=$( { TIMEFORMAT='%U %S'; time "$@" > /dev/null 2>&1; } 2>&1 | tail -n 1)
		t=$(echo "$t" | awk '{printf "%.2f", $1 + $2}')
		best=$(awk -v a="$best" -v b="$t" 'BEGIN { print (a == "" || b < a) ? b : a }')
	done
	echo "$best"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f%%", (b > 0 ? 100 * a / b : 0) }'; }
wait_for() {
	local n=$((${3:-60} * 10))
	while [ $n -gt 0 ]; do
		T capture-pane -p -t "$1" | grep -qF -- "$2" && return 0
		sleep 0.1
		n=$((n - 1))
	done
	return 1
}
proc_cpu() { awk -v t="$TICK" '{printf "%.2f", ($14 + $15) / t}' "/proc/$1/stat"; }
ivx_pid() {
	local sh pid
	sh=$(T display -p -t "$1" '#{pane_pid}')
	for pid in /proc/[0-9]*; do
		pid=${pid#/proc/}
		[ "$(awk '{print $4}' /proc/$pid/stat 2> /dev/null)" = "$sh" ] && { echo "$pid"; return; }
	done
}

echo "ui-bench: continue to the end of ${PROG[*]} (CPU seconds)"
h=$(cpu "$IVX" run "${PROG[@]}")
a=$(cpu "$IVX" cpistack --no-ref "${PROG[@]}")
echo continue > "$TMP/c.ivx"
b=$(cpu "$IVX" -x "$TMP/c.ivx" "${PROG[@]}")
T new-session -d -s cont -x 200 -y 60 "env LANG=C.UTF-8 $IVX ${PROG[*]}; sleep 600"
s=NA
if wait_for cont '(ivx)' 20; then
	pid=$(ivx_pid cont)
	c0=$(proc_cpu "$pid")
	T send-keys -t cont 'continue' Enter
	if wait_for cont 'program exited with code' 600; then
		c1=$(proc_cpu "$pid")
		s=$(awk -v a="$c0" -v b="$c1" 'BEGIN { printf "%.2f", b - a }')
	fi
fi
printf "  %-12s %8s s\n" headless "$h" accounting "$a"
printf "  %-12s %8s s   %s of headless speed, %s of accounting speed\n" batch "$b" "$(ratio "$h" "$b")" "$(ratio "$a" "$b")"
printf "  %-12s %8s s   %s of headless speed, %s of accounting speed\n" screen "$s" "$(ratio "$h" "$s")" "$(ratio "$a" "$s")"

echo "ui-bench: one step with a full redraw at 200x60"
T new-session -d -s step -x 200 -y 60 "env LANG=C.UTF-8 $IVX ${PROG[*]}; sleep 600"
line=
if wait_for step '(ivx)' 20; then
	T send-keys -t step 'step 20000' Enter
	wait_for step 'cycle 20000,' 60
	T send-keys -t step 'time -n 200 step' Enter
	wait_for step 'on average over 200 runs' 120
	line=$(T capture-pane -p -t step | grep 'on average over 200 runs' | tail -n 1)
fi
echo "  $line"
avg=$(echo "$line" | sed -n 's/.*= \([0-9.]*\) ms on average.*/\1/p')
worst=$(echo "$line" | sed -n 's/.*worst \([0-9.]*\) ms.*/\1/p')
if [ -n "$avg" ] && awk -v a="$avg" 'BEGIN { exit !(a < 20) }'; then
	echo "  step + redraw: $avg ms on average (worst $worst ms): under 20 ms"
else
	echo "  step + redraw: '$avg' ms: NOT under 20 ms"
	exit 1
fi
