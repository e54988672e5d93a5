#!/bin/bash
# annotate-bench.sh IVX [BASE_IVX] — what the explorer's dcpicalc truth
# costs on `continue` (make bench; not a timed test). In-order machine,
# `continue` to cycle ANNOTATE_BENCH_CYCLES (default 5 M) in batch mode
# (`ivx -x`), CPU seconds (user + system), the least of
# ANNOTATE_BENCH_ROUNDS (default 5) interleaved rounds, per workload:
#
#   off        sampling off
#   sampling   `--period 512`: the DCPI sampler with its truth and, since
#              issue 21, the wait-truth observer (reasons and culprits)
#   base       (with BASE_IVX, a build without the wait-truth observer in
#              the explorer, e.g. the main branch before it) the same
#
# and the ratios sampling/off and, with BASE_IVX, sampling/base: the
# observer's own cost.
set -u
IVX=$1
BASE=${2:-}
cd "$(dirname "$0")/.." || exit 2
CYCLES=${ANNOTATE_BENCH_CYCLES:-5000000}
ROUNDS=${ANNOTATE_BENCH_ROUNDS:-5}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
export HOME="$TMP"
printf 'break cycle %s\ncontinue\n' "$CYCLES" >"$TMP/s.ivx"
cpu1() {
	local t
	t=$( { TIMEFORMAT='%U %S'; time "$@" > /dev/null 2>&1; } 2>&1 | tail -n 1)
	echo "$t" | awk '{printf "%.3f", $1 + $2}'
}
least() { awk -v a="$1" -v b="$2" 'BEGIN { print (a == "" || b < a) ? b : a }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f%%", (b > 0 ? 100 * a / b : 0) }'; }
echo "annotate-bench: CPU seconds of \`continue\` to cycle $CYCLES, in-order, least of $ROUNDS rounds"
printf '%-10s %8s %9s %8s %10s %10s\n' workload off sampling base 'samp/off' 'samp/base'
for w in ptrchase muldiv interp; do
	prog=data/bin/workloads/$w
	cfg=(--config data/configs/inorder.ini)
	off="" on="" base=""
	for _ in $(seq "$ROUNDS"); do
		off=$(least "$off" "$(cpu1 "$IVX" -x "$TMP/s.ivx" "${cfg[@]}" "$prog")")
		on=$(least "$on" "$(cpu1 "$IVX" -x "$TMP/s.ivx" "${cfg[@]}" --period 512 "$prog")")
		[ -n "$BASE" ] && base=$(least "$base" "$(cpu1 "$BASE" -x "$TMP/s.ivx" "${cfg[@]}" --period 512 "$prog")")
	done
	printf '%-10s %8s %9s %8s %10s %10s\n' "$w" "$off" "$on" "${base:--}" "$(ratio "$on" "$off")" \
		"$([ -n "$base" ] && ratio "$on" "$base" || echo -)"
done
