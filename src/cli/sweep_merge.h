/*
 * sweep_merge.h — `ivx sweep --merge`: the result lines of a sweep
 * (docs/sweep.md, "Result lines"), from any number of files in any order,
 * put back in job order and tabulated: a text table, CSV, Markdown, or the
 * lines themselves.
 *
 * Nothing here knows the accounting methods: every key of a result's
 * "methods" object becomes a column, so a method added to `ivx cpistack`
 * appears in the tables without a change here.
 */
#ifndef IVX_SWEEP_MERGE_H
#define IVX_SWEEP_MERGE_H

#include <stdio.h>

enum sweep_format { SWEEP_TEXT, SWEEP_CSV, SWEEP_MD, SWEEP_JSONL };

#define SWEEP_MAX_SELECT 16

struct sweep_merge_opts {
	enum sweep_format format;
	const char *value;                          /* per-method value shown (text, md): a dotted
						       path in a method's object; default max_error */
	int n_select;                               /* --select KEY=VALUE: rows whose point has it */
	const char *select[SWEEP_MAX_SELECT];
};

/* Read the result lines of files[0..n) ("-" = stdin) and print the table on
 * out. Returns 0; 1 when jobs of a sweep are missing or repeated (said on
 * stderr, the table is printed all the same), or when there is no line at
 * all (said, nothing printed); 2 after an error line (an unreadable file, a
 * line that is not a result, a --select of a dimension or label no line
 * has, a --value no method has). */
int sweep_merge(const struct sweep_merge_opts *o, char *const *files, int n, FILE *out);

#endif
