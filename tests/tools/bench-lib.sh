# bench-lib.sh — what the bench scripts share; they source it and run from
# the top of the tree.

# One line "PROG ARGS" for every workload of data/bin/MANIFEST, with its
# default arguments: the -On variants, the kernels and the selftest are
# left out.
bench_workloads() {
	while IFS='|' read -r prog args _ _; do
		case "$prog" in \#*|"") continue ;; esac
		prog=$(echo $prog)
		case "$prog" in workloads/*.O[0-3]|kernels/*|selftest/*) continue ;; esac
		# shellcheck disable=SC2086
		echo "$prog" $args
	done <data/bin/MANIFEST
}

# The median of the numbers on standard input, one a line.
median() {
	sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
