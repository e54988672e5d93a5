# cases-lib.sh — reading data/real's case lists (NAME | PROGRAM | ARGUMENTS
# | STDIN, data/real/cases) into `ivx sweep` specs; the CPI-stack validation
# scripts source it.

# The blank-separated words of $1, one blank apart. (Not `echo $1`, which
# takes a leading -n or -e for its own option: gzip's `-n -9 -c` lost its
# -n.) A case's words are never file patterns (a grep regex has *).
# shellcheck disable=SC2086  # (the split is the point)
words() ( set -f; printf '%s\n' $1 | paste -sd ' ' - )

# case_stanza NAME DIR PROG ARGS STDIN IN: the spec's [program] section of
# one case, DIR/PROG with the words of ARGS (each single-quoted: none holds
# a quote), run in IN with IN granted and STDIN ('-': none) read from it.
# shellcheck disable=SC2086
case_stanza() (
	set -f
	qargs=
	for a in $4; do qargs="$qargs '$a'"; done
	opts="--dir '$6'"
	[ "$5" != - ] && opts="$opts --stdin '$5'"
	printf "[program %s]\npath = '%s/%s'\nargs =%s\noptions = %s\ncwd = '%s'\n\n" \
		"$1" "$2" "$3" "$qargs" "$opts" "$6"
)
