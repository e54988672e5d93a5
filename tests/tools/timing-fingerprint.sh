#!/bin/sh
# timing-fingerprint.sh EVENT_HASH — tests/tools/event_hash.c over every
# program of data/bin/MANIFEST (workloads with their default arguments,
# -On variants, kernels in every variant), in both core modes, each for
# at most TF_CYCLES cycles (default 2 M). One block per program and mode;
# compare two builds' outputs with diff: any difference is a change of
# what the timing model computes.
set -u
EH=${1:-build/tests/event_hash}
CYCLES=${TF_CYCLES:-2000000}
while IFS='|' read -r prog args _ _; do
	case "$prog" in \#*|"") continue ;; esac
	prog=$(echo $prog)
	case "$prog" in selftest/*) continue ;; esac
	for mode in ooo inorder; do
		echo "== $prog $(echo $args) [$mode]"
		# shellcheck disable=SC2086
		"$EH" -o core.mode=$mode "$CYCLES" "data/bin/$prog" $args 2>&1
	done
done <data/bin/MANIFEST
