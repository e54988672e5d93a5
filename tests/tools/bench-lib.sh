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

# BENCH_TOOL=callgrind: host instruction counts instead of CPU time. A
# count does not move with the load on the machine, so one run gives a
# ratio that can be checked to the instruction (valgrind is about 50x
# slower than the host, hence the shorter runs the scripts then make).
bench_tool() {
	echo "${BENCH_TOOL:-time}"
}

# bench_callgrind_sections CMD...: run CMD (an ivx --bench) under callgrind
# and print, one a line in the order run, the instructions of each timed
# section (cli_bench_start/stop dump one profile per section); nothing if
# valgrind is missing or the run failed.
bench_callgrind_sections() {
	_cg=$(mktemp -d)
	valgrind --tool=callgrind --callgrind-out-file="$_cg/cg" "$@" >/dev/null 2>"$_cg/log"
	for _f in $(ls "$_cg" | sed -n 's/^cg\.\([0-9]*\)$/\1/p' | sort -n); do
		sed -n 's/^summary: *//p' "$_cg/cg.$_f"
	done
	rm -rf "$_cg"
}

# bench_callgrind_total CMD...: the host instructions of the whole run of CMD.
bench_callgrind_total() {
	_cg=$(mktemp -d)
	valgrind --tool=callgrind --callgrind-out-file="$_cg/cg" "$@" >/dev/null 2>"$_cg/log"
	sed -n 's/^summary: *//p' "$_cg/cg"
	rm -rf "$_cg"
}

# bench_callgrind_suite FILE N ROW CMD...: for every workload, run
# CMD data/bin/PROG -- ARGS under callgrind (bench_callgrind_sections),
# expecting N timed sections. Each workload appends "IR1 .. IRN NAME" to
# FILE and prints that line through the awk program ROW as it finishes
# (runs take about 20 s each); a workload without N counts prints why.
bench_callgrind_suite() {
	_file=$1 _n=$2 _row=$3
	shift 3
	: >"$_file"
	bench_workloads | while read -r _prog _args; do
		# shellcheck disable=SC2086
		_counts=$(bench_callgrind_sections "$@" "data/bin/$_prog" -- $_args)
		if [ "$(echo $_counts | wc -w)" -ne "$_n" ]; then
			printf '%-12s (no counts: is valgrind installed?)\n' "${_prog#workloads/}"
			continue
		fi
		echo $_counts "${_prog#workloads/}" | tee -a "$_file" | awk "$_row"
	done
}
